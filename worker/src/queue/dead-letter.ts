import type { Env } from "../env";

export const DISPATCH_FAILED = {
  code: "dispatch_failed",
  message:
    "Could not start rendering: the rendering service did not accept the job after several attempts. All credits were refunded; please submit the job again.",
} as const;

/**
 * A job whose message exhausted its retries (renderer unreachable for minutes) fails with a full refund.
 * Only a job that is still pending: one the renderer did pick up in the meantime keeps running.
 */
export async function failUndispatchedJob(env: Env, jobId: string, reason?: string): Promise<boolean> {
  const stub = env.JOB_STATE.get(env.JOB_STATE.idFromName(jobId));
  const message = reason ? `Could not start rendering: ${reason}. All credits were refunded.` : DISPATCH_FAILED.message;
  const result = await stub.fail(DISPATCH_FAILED.code, message, { refund: "full", onlyFrom: ["pending"] });
  return result.changed;
}
