/**
 * Every `error.code` a failed job can carry (GET /jobs/{id}, job.failed's `error_code`), with what it means. The
 * renderer's source errors are a subset (render-container/src/source/source-error.ts); the OpenAPI document
 * lists them from here, docs/API.md in a table.
 */
export const JOB_ERROR_CODES = {
  cancelled_by_user: "POST /jobs/{id}/cancel (refund by tier; every other code refunds all credits)",
  vod_deleted: "the VOD was deleted after the job was accepted",
  vod_private: "the VOD became private",
  vod_subscriber_only: "the VOD became subscriber-only",
  vod_live: "the VOD is a broadcast still in progress",
  twitch_unavailable: "Twitch (GQL, usher, playlists) still failed after retries",
  vod_segment_unavailable: "a media segment still failed after retries, or the VOD's playlist lists no media to measure its length from",
  vod_format_unsupported:
    "a manual highlight spans a change of the fMP4 VOD's media format (a new initialisation section), or no chosen moment could be kept clear of such changes",
  source_too_large: "the covering video exceeds the renderer's MAX_VIDEO_BYTES_PER_JOB",
  disk_full: "the renderer's disk ran short",
  no_highlights_found: "no moment beat highlight_min_score and there were no manual highlights",
  vod_too_long: "the VOD turned out longer than the 24 h maximum when the renderer opened it (Twitch could not be reached to check it at acceptance)",
  insufficient_credits:
    "the VOD turned out longer than the length billed at acceptance (beyond the 2 % / 60 s tolerance) and the account could not cover the difference; the message names the real length, and nothing was rendered",
  artifacts_missing: "the renderer reported files that storage does not hold",
  renderer_stalled: "the renderer stopped reporting for WATCHDOG_SECONDS",
  dispatch_failed: "the renderer did not accept the job after the queue's retries",
  queue_unavailable: "POST /jobs could not queue the job (it answered 503; nothing was charged)",
  render_failed: "an internal rendering error",
} as const;
export type JobErrorCode = keyof typeof JOB_ERROR_CODES;

export const jobErrorCodesDescription = `One of: ${Object.entries(JOB_ERROR_CODES)
  .map(([code, meaning]) => `\`${code}\` (${meaning})`)
  .join("; ")}.`;
