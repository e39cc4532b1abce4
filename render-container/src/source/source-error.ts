import type { JobErrorCode } from "../../../common/contract/job-errors";

/**
 * Why the source could not be read, with a stable code the job error carries (toJobError keeps `code`).
 * Messages are read by API clients, so they say what happened and what to do.
 */
export type SourceErrorCode = Extract<
  JobErrorCode,
  "vod_deleted" | "vod_live" | "vod_subscriber_only" | "vod_private" | "twitch_unavailable" | "vod_segment_unavailable" | "source_too_large" | "disk_full" | "vod_format_unsupported"
>;

export class SourceError extends Error {
  constructor(
    readonly code: SourceErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "SourceError";
  }
}
