import { ANALYSE_TASK_ID, taskKey } from "../../../common/contract/job-plan";
import type { Env } from "../env";
import { openDb } from "../storage/db";
import { findJobById } from "../storage/jobs";
import type { TaskClaim } from "./task-dispatch";
import { ConfigError } from "../config";
import { buildTaskRequest, DispatchConfigError, dispatchSettings } from "./render-job";
import { cancelTask, RendererBusyError, RendererUnavailableError, startTask } from "./renderers";

export type DispatchOutcome =
  | { outcome: "started"; task_id: string; attempt: number; instance: string }
  /** Redelivered message, a task already started or done, a job cancelled while queued or gone: nothing to start. */
  | { outcome: "skipped"; task_id: string; reason: string }
  /** The job was settled (e.g. cancelled) while the renderer was being started: it has been told to stop. */
  | { outcome: "stopped"; task_id: string; reason: string }
  /** No renderer can take it now (all busy, or of an older contract): it waits for capacity, since `waiting_since`. */
  | { outcome: "waiting"; task_id: string; reason: string; waiting_since: number }
  /** No renderer could be reached; `failures` starts in a row have failed so (busy answers not counted). */
  | { outcome: "unreachable"; task_id: string; reason: string; failures: number };

const jobState = (env: Env, jobId: string) => env.JOB_STATE.get(env.JOB_STATE.idFromName(jobId));

/**
 * Starts one task of a job on a renderer: claim it from the job's Durable Object (only a queued task can be
 * claimed, so a duplicate message starts nothing), hand it to a renderer, confirm. When none can take it the claim
 * is given back, and the job's object counts the wait apart by kind: `waiting` (every renderer busy) or
 * `unreachable` (none answered, or one failed to start). Throws when retrying cannot help: a renderer refused the
 * task itself (RendererUnavailableError, permanent) or this Worker lacks the settings to dispatch
 * (DispatchConfigError, ConfigError).
 */
export async function dispatchTask(env: Env, jobId: string, taskId: string = ANALYSE_TASK_ID): Promise<DispatchOutcome> {
  const stub = jobState(env, jobId);
  // RPC results carry Disposable; the plain union narrows.
  const claim = (await stub.claimTask(taskId)) as TaskClaim;
  if (!claim.ok) return { outcome: "skipped", task_id: taskId, reason: claim.reason };
  let instance: string;
  try {
    const row = await findJobById(openDb(env.DB), jobId);
    if (!row) throw new Error(`job ${jobId} has no row in D1`);
    // Throws DispatchConfigError when this Worker cannot dispatch at all (PUBLIC_BASE_URL, LINK_SIGNING_KEY).
    const request = await buildTaskRequest(env, dispatchSettings(env), row, { id: taskId, kind: claim.kind, attempt: claim.attempt }, claim.plan);
    ({ instance } = await startTask(env, request));
  } catch (error) {
    if (error instanceof RendererBusyError) {
      const released = await stub.releaseTask(taskId, claim.attempt, "busy");
      return { outcome: "waiting", task_id: taskId, reason: error.message, waiting_since: released.waiting_since ?? Date.now() };
    }
    if (error instanceof DispatchConfigError || error instanceof ConfigError || (error instanceof RendererUnavailableError && error.permanent)) {
      await stub.releaseTask(taskId, claim.attempt, "refused");
      throw error;
    }
    const released = await stub.releaseTask(taskId, claim.attempt, "unreachable");
    return { outcome: "unreachable", task_id: taskId, reason: String(error), failures: released.unreachable };
  }
  const confirmed = await stub.taskDispatched(taskId, claim.attempt, instance);
  if (confirmed.stop) {
    await cancelTask(env, instance, taskKey(jobId, taskId));
    return { outcome: "stopped", task_id: taskId, reason: "the job ended (or the attempt was superseded) while it was starting" };
  }
  return { outcome: "started", task_id: taskId, attempt: claim.attempt, instance };
}
