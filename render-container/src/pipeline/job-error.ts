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
