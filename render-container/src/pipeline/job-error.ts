/**
 * An error a client may read: `message` ends up in job.failed and GET /jobs/{id}, so it is written for
 * people (what went wrong and what to do), never a stack trace.
 */
export class JobError extends Error {
  constructor(readonly code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "JobError";
  }
}

export function toJobError(err: unknown): JobError {
  if (err instanceof JobError) return err;
  const code = typeof (err as { code?: unknown })?.code === "string" ? String((err as { code: string }).code) : "";
  if (/^[a-z][a-z0-9_]+$/.test(code) && err instanceof Error) return new JobError(code, err.message, { cause: err });
  return new JobError("render_failed", "Rendering failed because of an internal error. Your credits were refunded; please try again.", { cause: err });
}
