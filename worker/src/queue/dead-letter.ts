import { ANALYSE_TASK_ID } from "../../../common/contract/job-plan";
import type { Env } from "../env";

export const DISPATCH_FAILED = {
  code: "dispatch_failed",
  message:
    "Could not start rendering: the rendering service did not accept the job after several attempts. All credits were refunded; please submit the job again.",
} as const;

/**
 * A task whose message exhausted its retries (no renderer reachable or free for hours) or that a renderer rejected
 * outright fails its job with a full refund. Only while that task was still waiting to start: one a renderer did
 * pick up in the meantime keeps running.
 */
export async function failUndispatchedJob(env: Env, jobId: string, reason?: string, taskId: string = ANALYSE_TASK_ID): Promise<boolean> {
  const stub = env.JOB_STATE.get(env.JOB_STATE.idFromName(jobId));
  const message = reason ? `Could not start rendering: ${reason}. All credits were refunded.` : DISPATCH_FAILED.message;
  return stub.taskUndispatchable(taskId, message);
}
