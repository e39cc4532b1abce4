import type { JobPlan, RenderTaskRequest } from "../../../common/contract/job-plan";
import { TASK_CONTRACT_VERSION, HANDOFF_CONTRACT } from "../../../common/contract/task-contract";
import { handedOffTask } from "../../../common/plan/task-handoff";
import { openDb } from "../storage/db";
import { findJobById } from "../storage/jobs";
import { loadBook, loadPlan, loadState, logError, type JobObject } from "./job-storage";
import { buildTaskRequest, dispatchSettings } from "./render-job";
import { handOverInstance } from "./renderers";
import { SCOPED_ATTEMPT, type TaskRecord } from "./task-book";

/**
 * A re-cut's one short on its analysis task's instance (common/plan/task-handoff.ts decides which jobs): instead
 * of queueing the short once the analysis completed, and starting a second container for it, the job's object
 * answers the analysis' `completed` event with the short's task request; the renderer that ran the analysis runs
 * it next. The short is recorded as dispatched to that instance exactly as the queue consumer would record it
 * (claimed and confirmed: its own attempt, storage scope, callback and watchdog deadline), the instance's
 * Container assignment moves to it (so the activity check and a lost-task notice name the short), and the
 * instance is not released. A renderer that does not run it (lost answer, a fault) leaves the attempt silent: the
 * watchdog gives it up as lost and it runs again through the queue on an instance of its own.
 *
 * Runs under JobState's serial chain, from task-reports.ts. Returns the request for the answer, or null when the
 * short goes through the queue as usual (another kind of job, an analysis sent as an older contract, the
 * instance gone, a Worker without dispatch settings: the queue consumer then meets that error as always).
 */
export async function handOffToAnalysisInstance(o: JobObject, analysis: TaskRecord, created: readonly TaskRecord[], plan: JobPlan): Promise<RenderTaskRequest | null> {
  const spec = handedOffTask(plan);
  if (!spec || !analysis.instance) return null;
  // Only a renderer that took a contract reading `next_task` is handed one; and the request is built as this
  // Worker's contract, so the attempt must have been sent as that very version (not by a Worker before a deploy).
  if ((analysis.contract ?? 1) < HANDOFF_CONTRACT || analysis.contract !== TASK_CONTRACT_VERSION) return null;
  const short = created.find((t) => t.id === spec.id && t.state === "queued");
  const state = await loadState(o);
  if (!short || !state) return null;
  const attempt = short.attempt + 1;
  let request: RenderTaskRequest;
  try {
    const row = await findJobById(openDb(o.env.DB), state.job_id);
    if (!row) return null;
    request = await buildTaskRequest(o.env, dispatchSettings(o.env), row, { id: short.id, kind: short.kind, attempt }, plan);
    const moved = await handOverInstance(o.env, analysis.instance, { job_id: state.job_id, task_id: analysis.id, attempt: analysis.attempt }, { job_id: state.job_id, task_id: short.id, attempt });
    if (!moved) return null;
  } catch (error) {
    logError("hand-off to the analysis' instance not possible; the task goes through the queue", o, error);
    return null;
  }
  // What claimTask and confirmDispatch would have written, in one step: running on the analysis' instance.
  Object.assign(short, {
    state: "running",
    attempt,
    seq: 0,
    fraction: 0,
    instance: analysis.instance,
    heard_at: Date.now(),
    ...SCOPED_ATTEMPT,
    contract: TASK_CONTRACT_VERSION,
    unreachable: 0,
    waiting_since: null,
    offered_at: null,
  });
  console.log(JSON.stringify({ level: "info", msg: "task handed off", job_id: state.job_id, task_id: short.id, attempt, from_task: analysis.id, instance: analysis.instance }));
  return request;
}

/**
 * A repeated completion of the analysis whose first answer handed the short over: the renderer retries a report
 * whose answer it did not get, so it never saw `next_task`. While the short's handed attempt has not been heard
 * from (attempt 1, on that instance, no report yet) the same request is answered again; the renderer runs a task
 * attempt at most once, so an answer that did arrive the first time starts nothing twice. Otherwise null.
 */
export async function repeatHandOff(o: JobObject, taskId: string, attempt: number): Promise<RenderTaskRequest | null> {
  const book = await loadBook(o);
  const analysis = book.find((t) => t.id === taskId);
  if (!analysis || analysis.kind !== "analyse" || analysis.state !== "done" || analysis.attempt !== attempt || !analysis.instance) return null;
  const plan = await loadPlan(o);
  const spec = plan ? handedOffTask(plan) : null;
  const short = spec ? book.find((t) => t.id === spec.id) : undefined;
  if (!plan || !short || short.state !== "running" || short.attempt !== 1 || short.failures !== 0 || short.interruptions !== 0 || short.seq !== 0 || short.instance !== analysis.instance) return null;
  const state = await loadState(o);
  try {
    const row = state ? await findJobById(openDb(o.env.DB), state.job_id) : null;
    return row ? await buildTaskRequest(o.env, dispatchSettings(o.env), row, { id: short.id, kind: short.kind, attempt: short.attempt }, plan) : null;
  } catch (error) {
    logError("hand-off not repeated", o, error);
    return null;
  }
}
