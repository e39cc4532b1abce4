/**
 * The version of the Worker -> renderer task contract (RenderTaskRequest, TaskEvent, the renderer's routes).
 * Worker code changes at once on `wrangler deploy` while container instances are replaced gradually (and running
 * ones only after `rollout_active_grace_period`), so for a while new Worker code reaches renderers of the previous
 * image. Each task request says which version it speaks (`contract`); a renderer accepts the versions it knows and
 * answers CONTRACT_UNSUPPORTED_STATUS to any other, which the Worker treats as "wait for another renderer" (retried
 * like a busy answer), never as a failure of the job. How to roll out a breaking change: docs/DEPLOY.md.
 */

/** The version this code's task schema describes; the Worker sends it. Bump it for a change an older renderer cannot read. */
export const TASK_CONTRACT_VERSION = 3;

/*
 * History: 2 = upload mode "presigned" replaces "s3" (no R2 credentials in task bodies); a renderer of contract 1
 * cannot read it. Renderers still read 1 (mode "s3") while Workers of contract 1 may be running.
 * 3 = the Worker may answer an analysis task's `completed` event with the next task's request (`next_task`,
 * TaskEventAnswer in job-plan.ts), which the renderer runs at once on the same instance (a re-cut's one short:
 * common/plan/task-handoff.ts). A renderer of contract 2 ignores the answer, so the Worker hands a task over only
 * to an analysis attempt it sent as contract 3 (its renderer accepted 3, so it reads the answer). Requests of
 * contract 2 and 3 are otherwise the same, so renderers read both while Workers of contract 2 may be running.
 */

/**
 * Versions the renderer built from this code accepts: the current one and any older one it still reads (keep the
 * previous version here while Workers that send it may still be running, i.e. during a rollout).
 */
export const RENDERER_TASK_CONTRACTS: readonly number[] = [1, 2, 3];

/** The first contract whose renderers run a task handed to them in the answer to a `completed` event. */
export const HANDOFF_CONTRACT = 3;

/** The renderer's answer to a task of a contract version it does not speak (body: error.code CONTRACT_UNSUPPORTED_CODE). */
export const CONTRACT_UNSUPPORTED_STATUS = 409;
export const CONTRACT_UNSUPPORTED_CODE = "contract_unsupported";

/** The version a task request body speaks: its `contract` field; requests from before versioning carry none (1). */
export function contractOf(body: unknown): unknown {
  if (body === null || typeof body !== "object" || !("contract" in body)) return 1;
  return (body as { contract: unknown }).contract;
}
