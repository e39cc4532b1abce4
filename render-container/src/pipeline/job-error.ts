import { JOB_ERROR_CODES, type JobErrorCode } from "../../../common/contract/job-errors";

/**
 * An error a client may read: `message` ends up in job.failed and GET /jobs/{id}, so it is written for
 * people (what went wrong and what to do), never a stack trace.
 */
export class JobError extends Error {
  constructor(readonly code: JobErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "JobError";
  }
}

export function toJobError(err: unknown): JobError {
  if (err instanceof JobError) return err;
  const code = typeof (err as { code?: unknown })?.code === "string" ? String((err as { code: string }).code) : "";
  // Only documented codes reach clients; anything else is an internal error.
  if (Object.hasOwn(JOB_ERROR_CODES, code) && err instanceof Error) return new JobError(code as JobErrorCode, err.message, { cause: err });
  return new JobError("render_failed", "Rendering failed because of an internal error. Your credits were refunded; please try again.", { cause: err });
}

/**
 * Failures that are about the input itself: the VOD became unusable, holds nothing to render, or cannot be
 * processed as it is. Running the task again elsewhere gives the same answer, so the job fails at once. Every
 * other code (Twitch or a segment unreachable, a full disk, an internal render error) may pass on a retry.
 */
const INPUT_ERRORS: ReadonlySet<JobErrorCode> = new Set<JobErrorCode>([
  "vod_deleted",
  "vod_private",
  "vod_subscriber_only",
  "vod_live",
  "vod_format_unsupported",
  "source_too_large",
  "no_highlights_found",
  "cancelled_by_user",
]);

export function isRetryable(code: JobErrorCode): boolean {
  return !INPUT_ERRORS.has(code);
}
