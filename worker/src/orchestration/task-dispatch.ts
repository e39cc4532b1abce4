import { ANALYSE_TASK_ID, type JobPlan, type TaskKind } from "../../../common/contract/job-plan";
import { TASK_CONTRACT_VERSION } from "../../../common/contract/task-contract";
import { failStep, isTerminal, startStep } from "./job-lifecycle";
import { loadBook, loadPlan, loadState, logError, saveBook, type JobObject, type Locked } from "./job-storage";
import { transition } from "./job-transitions";
import { analysisTask, SCOPED_ATTEMPT, type TaskRecord } from "./task-book";
import { armTaskWatchdog } from "./watchdog";

/**
 * The task book's side of dispatch: the queue consumer (dispatch-task.ts) claims a queued task, hands it to a
 * renderer and confirms it, or gives the claim back; tasks ready to run go out as queue messages. Every function
 * here runs while JobState holds its serial chain.
 */

/** Answer to the queue consumer's claim of a task: start it (this attempt, this request) or why not. */
export type TaskClaim = { ok: true; attempt: number; kind: TaskKind; plan: JobPlan | null } | { ok: false; reason: string };

/**
 * Queues deliver at least once: only a queued task is claimed, so a duplicate message starts nothing twice. The
 * claim counts as an attempt only once a renderer takes it (`releaseClaim` gives a busy renderer's claim back).
 */
export async function claimTask(o: JobObject, taskId: string): Promise<TaskClaim> {
  const state = await loadState(o);
  if (!state) return { ok: false, reason: "no such job" };
  if (isTerminal(state.status)) return { ok: false, reason: `job is already ${state.status}` };
  const book = await loadBook(o);
  if (book.length === 0 && taskId === ANALYSE_TASK_ID) book.push(analysisTask());
  const task = book.find((t) => t.id === taskId);
  if (!task) return { ok: false, reason: "no such task" };
  if (task.state !== "queued") return { ok: false, reason: `task is ${task.state}` };
  const plan = task.kind === "analyse" ? null : await loadPlan(o);
  const attempt = task.attempt + 1;
  // SCOPED_ATTEMPT: this attempt is handed its own URLs and token for its files, events and Workers AI (render-job.ts).
  // contract: the version its request speaks (render-job.ts sends this code's), which decides a hand-off (task-handoff.ts).
  Object.assign(task, { state: "dispatching", attempt, seq: 0, fraction: 0, instance: null, heard_at: Date.now(), ...SCOPED_ATTEMPT, contract: TASK_CONTRACT_VERSION });
  await saveBook(o, book);
  await armTaskWatchdog(o, book);
  return { ok: true, attempt, kind: task.kind, plan };
}

/** Why a claimed attempt did not start: every renderer busy (or on an older contract), none reachable, or refused. */
export type ReleaseReason = "busy" | "unreachable" | "refused";

/** Where a task stands in its waits after a release (the queue consumer decides from it how to go on). */
export interface ReleasedClaim {
  /** Starts in a row that could not reach a renderer. */
  unreachable: number;
  /** Epoch ms since which the task has been waiting for a free renderer, or null. */
  waiting_since: number | null;
}

/**
 * No renderer could take the claimed attempt: the task waits in the queue again. The two kinds of wait are
 * counted apart in the task's record, so that waiting for capacity never uses up the budget for "cannot reach a
 * renderer" (the queue message's own delivery count mixes them).
 */
export async function releaseClaim(o: JobObject, taskId: string, attempt: number, why: ReleaseReason): Promise<ReleasedClaim> {
  const book = await loadBook(o);
  const task = book.find((t) => t.id === taskId);
  if (!task || task.attempt !== attempt || task.state !== "dispatching") return { unreachable: task?.unreachable ?? 0, waiting_since: task?.waiting_since ?? null };
  const now = Date.now();
  Object.assign(task, { state: "queued", attempt: attempt - 1, heard_at: now });
  if (why === "busy") task.waiting_since ??= now;
  if (why === "unreachable") task.unreachable = (task.unreachable ?? 0) + 1;
  await saveBook(o, book);
  return { unreachable: task.unreachable ?? 0, waiting_since: task.waiting_since ?? null };
}

/**
 * A renderer took the attempt. Answers `stop: true` when the job ended (e.g. was cancelled) or the attempt was
 * superseded meanwhile: the caller then stops it on the renderer. The first task taken starts the job.
 */
export async function confirmDispatch(o: JobObject, taskId: string, attempt: number, instance: string): Promise<Locked<{ stop: boolean }>> {
  const state = await loadState(o);
  const book = await loadBook(o);
  const task = book.find((t) => t.id === taskId);
  if (!state || isTerminal(state.status) || !task || task.attempt !== attempt || (task.state !== "dispatching" && task.state !== "running")) return { result: { stop: true }, transitions: [] };
  // Taken: the next start (a retry) begins with a fresh budget and no wait.
  Object.assign(task, { instance, unreachable: 0, waiting_since: null, offered_at: null });
  if (task.state === "dispatching") Object.assign(task, { state: "running", heard_at: Date.now() });
  await saveBook(o, book);
  // A renderer picked the job up: pending -> running (job.running, once).
  const started = state.status === "pending" ? await transition(o, "started", startStep) : null;
  await armTaskWatchdog(o, book);
  return { result: { stop: false }, transitions: started?.transitions ?? [] };
}

/** Whether a task's attempt is still running here (a container keeps its instance alive while it is). */
export async function isTaskRunning(o: JobObject, taskId: string, attempt: number): Promise<boolean> {
  const state = await loadState(o);
  if (!state || isTerminal(state.status)) return false;
  const task = (await loadBook(o)).find((t) => t.id === taskId);
  return !!task && task.attempt === attempt && (task.state === "running" || task.state === "dispatching");
}

/**
 * The queue gave up starting a task (its retries are spent) or the renderer rejected it outright: the job fails
 * with every credit back. Only while the task was still waiting to start.
 */
export async function failUndispatchable(o: JobObject, taskId: string, message: string): Promise<Locked<boolean>> {
  const book = await loadBook(o);
  // No task yet: the analysis was never claimed; only a pending job fails then.
  const state = await loadState(o);
  const task = book.find((t) => t.id === taskId) ?? (taskId === ANALYSE_TASK_ID && book.length === 0 && state?.status === "pending" ? analysisTask() : undefined);
  if (!task || (task.state !== "queued" && task.state !== "dispatching")) return { result: false, transitions: [] };
  const done = await transition(o, "failed", (s, now) => failStep(s, { code: "dispatch_failed", message }, "full", now));
  return { result: done.result.changed, transitions: done.transitions };
}

/** One queue message per task; a message that cannot be sent now is sent again by the watchdog (REQUEUE_AFTER_MS). */
export async function sendTasks(o: JobObject, tasks: readonly TaskRecord[]): Promise<void> {
  if (tasks.length === 0) return;
  const state = await loadState(o);
  if (!state) return;
  const messages = tasks.map((t) => ({ body: { job_id: state.job_id, task_id: t.id } }));
  try {
    // sendBatch takes up to 100 messages.
    for (let i = 0; i < messages.length; i += 100) await o.env.JOBS_QUEUE.sendBatch(messages.slice(i, i + 100));
  } catch (error) {
    logError("task messages not sent; the alarm sends them again", o, error);
  }
}
