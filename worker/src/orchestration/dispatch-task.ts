import { ANALYSE_TASK_ID, taskKey } from "../../../common/contract/job-plan";
import type { Env } from "../env";
import { openDb } from "../storage/db";
import { findJobById } from "../storage/jobs";
import type { TaskClaim } from "./task-dispatch";
import { buildTaskRequest, dispatchSettings } from "./render-job";
import { cancelTask, startTask } from "./renderers";

export type DispatchOutcome =
  | { outcome: "started"; task_id: string; attempt: number; instance: string }
  /** Redelivered message, a task already started or done, a job cancelled while queued or gone: nothing to start. */
  | { outcome: "skipped"; task_id: string; reason: string }
  /** The job was settled (e.g. cancelled) while the renderer was being started: it has been told to stop. */
  | { outcome: "stopped"; task_id: string; reason: string };

const jobState = (env: Env, jobId: string) => env.JOB_STATE.get(env.JOB_STATE.idFromName(jobId));

/**
 * Starts one task of a job on a renderer: claim it from the job's Durable Object (only a queued task can be
 * claimed, so a duplicate message starts nothing), hand it to a renderer, confirm. Throws RendererBusyError
 * when no renderer is free (the claim is given back and the message waits in the queue), RendererUnavailableError
 * when none can be reached or one refuses, and DispatchConfigError when this Worker lacks the settings to dispatch.
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
    await stub.releaseTask(taskId, claim.attempt);
    throw error;
  }
  const confirmed = await stub.taskDispatched(taskId, claim.attempt, instance);
  if (confirmed.stop) {
    await cancelTask(env, instance, taskKey(jobId, taskId));
    return { outcome: "stopped", task_id: taskId, reason: "the job ended (or the attempt was superseded) while it was starting" };
  }
  return { outcome: "started", task_id: taskId, attempt: claim.attempt, instance };
}
