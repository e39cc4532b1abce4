import type { JobError, JobErrorCode } from "../../../common/contract";
import { JOB_ERROR_CODES } from "../../../common/contract/job-errors";
import type { RenderTaskRequest, TaskEvent, TaskResult } from "../../../common/contract/job-plan";
import type { JobTransition } from "../domain/job-transition";
import { finishJob } from "./job-completion";
import { failStep, isTerminal, progressStep, startStep, type JobLifecycle } from "./job-lifecycle";
import { loadBook, loadState, saveBook, savePlan, saveResult, type JobObject, type Locked } from "./job-storage";
import { collectingStep, transition, type StepFn } from "./job-transitions";
import { settleRealLength } from "./length-billing";
import { releaseInstance } from "./renderers";
import { handOffSlot, slotTaker } from "./slot-handoff";
import { sendTasks } from "./task-dispatch";
import { handOffToAnalysisInstance, repeatHandOff } from "./task-handoff";
import { allRenderTasksDone, jobPercent, releaseReady, renderTasksOf, retryOrGiveUp, type TaskRecord } from "./task-book";
import { armTaskWatchdog } from "./watchdog";

/**
 * What the renderers report about their tasks, applied to the task book: progress (the job's percent weighed
 * over its tasks), a result (the analysis' plan creates the render tasks; the last render task's result completes
 * the job) or an attempt that ended without one (retried, bounded, or the job fails). Every function here runs
 * while JobState holds its serial chain.
 */

/** Answer to a task event (POST /internal/jobs/:id/tasks/:task/events). */
export type TaskEventOutcome =
  /** `next_task`: the job's next task, handed to the instance that reported (task-handoff.ts), for the answer. */
  | { outcome: "applied" | "duplicate"; state: JobLifecycle; next_task?: RenderTaskRequest }
  /** The job is settled, or this attempt was superseded: the renderer stops the task (409). */
  | { outcome: "terminal" | "stale"; state: JobLifecycle }
  | { outcome: "not_found" | "task_not_found" }
  /** The job's token on the legacy path, for an attempt that has its own token (task-call-scope.ts): 403. */
  | { outcome: "outside_scope" };

/** How an attempt ended without a result: `fatal` when the input is the problem (e.g. no_highlights_found). */
export type AttemptEnd = "failed" | "lost" | "interrupted" | "fatal";

/** A started, progress or completed report. */
export async function applyTaskReport(o: JobObject, taskId: string, event: Extract<TaskEvent, { type: "started" | "progress" | "completed" }>): Promise<Locked<TaskEventOutcome>> {
  const pre = await currentAttempt(o, taskId, event.attempt, event.seq);
  if ("answer" in pre) {
    // The renderer repeats a completion whose answer it did not get: a task handed over in it is handed again.
    const again = pre.answer.outcome === "duplicate" && event.type === "completed" ? await repeatHandOff(o, taskId, event.attempt) : null;
    return { result: again && pre.answer.outcome === "duplicate" ? { ...pre.answer, next_task: again } : pre.answer, transitions: [] };
  }
  const { book, task } = pre;
  const transitions: JobTransition[] = [];
  const step = collectingStep(o, transitions);
  task.seq = event.seq;
  task.heard_at = Date.now();
  if (task.state === "dispatching") task.state = "running";
  if ((await loadState(o))!.status === "pending") await step("started", startStep);
  let next: RenderTaskRequest | null = null;
  if (event.type === "progress") {
    task.fraction = Math.max(task.fraction, event.fraction);
    task.stage = event.stage;
    await step("progress", (s, now) => progressStep(s, event.stage, jobPercent(book), now));
  } else if (event.type === "completed") {
    next = await completeTask(o, book, task, event.result, step);
  }
  await saveBook(o, book);
  await armTaskWatchdog(o, book);
  return { result: { outcome: "applied", state: (await loadState(o))!, ...(next ? { next_task: next } : {}) }, transitions };
}

/** Checks shared by every task event: the job and task exist, the job is not settled, the attempt is current, the event is new. */
async function currentAttempt(o: JobObject, taskId: string, attempt: number, seq: number | null): Promise<{ book: TaskRecord[]; task: TaskRecord } | { answer: TaskEventOutcome }> {
  const state = await loadState(o);
  if (!state) return { answer: { outcome: "not_found" } };
  if (isTerminal(state.status)) return { answer: { outcome: "terminal", state } };
  const book = await loadBook(o);
  const task = book.find((t) => t.id === taskId);
  if (!task) return { answer: { outcome: "task_not_found" } };
  if (task.attempt !== attempt || (task.state !== "running" && task.state !== "dispatching")) return { answer: { outcome: task.state === "done" && task.attempt === attempt ? "duplicate" : "stale", state } };
  if (seq !== null && seq <= task.seq) return { answer: { outcome: "duplicate", state } };
  return { book, task };
}

/**
 * A task's attempt ended without a result. `failed`/`lost`/`interrupted` run it again (bounded, see
 * task-book.ts); `fatal` and a spent budget fail the job with every credit back and an error naming the output.
 */
export async function endAttempt(o: JobObject, taskId: string, attempt: number, why: AttemptEnd, error: { code: string; message: string }, seq: number | null = null): Promise<Locked<TaskEventOutcome>> {
  const pre = await currentAttempt(o, taskId, attempt, seq);
  if ("answer" in pre) return { result: pre.answer, transitions: [] };
  const { book, task } = pre;
  if (seq !== null) task.seq = seq;
  const instance = task.instance;
  let jobError: JobError | null = null;
  if (why === "fatal") {
    jobError = { code: knownCode(error.code), message: error.message };
  } else if (retryOrGiveUp(task, why, error) === "give_up") {
    const tries = why === "interrupted" ? `was interrupted ${task.interruptions} times` : `failed ${task.failures} times`;
    jobError = {
      code: why === "lost" ? "renderer_stalled" : knownCode(error.code),
      message: `Rendering ${task.label} ${tries} (last: ${error.message}), so the job was stopped. All credits were refunded; please submit it again.`,
    };
  }
  if (instance) o.waitUntil(releaseInstance(o.env, instance));
  if (jobError) {
    const failure = jobError;
    const done = await transition(o, "failed", (s, now) => failStep(s, failure, "full", now));
    await saveBook(o, book);
    return { result: { outcome: "applied", state: (await loadState(o))! }, transitions: done.transitions };
  }
  await saveBook(o, book);
  // Says why an attempt runs again (a renderer's failure or interruption report, or the watchdog finding it
  // lost): the one place that tells a SIGTERM handled by the renderer from a crash found minutes later.
  console.log(JSON.stringify({ level: "info", msg: "task retried", job_id: (await loadState(o))?.job_id, task_id: taskId, why, ended_attempt: attempt, error: error.code }));
  await sendTasks(o, [task]);
  await armTaskWatchdog(o, book);
  return { result: { outcome: "applied", state: (await loadState(o))! }, transitions: [] };
}

/**
 * A task's result: the plan (render tasks created and sent, or the one handed to the analysis' instance, which is
 * returned for the answer) or a render task's files (then its dependants, or the end).
 */
async function completeTask(o: JobObject, book: TaskRecord[], task: TaskRecord, result: TaskResult, step: StepFn): Promise<RenderTaskRequest | null> {
  Object.assign(task, { state: "done", fraction: 1 });
  // Its slot goes to the job's task that has waited longest for one, at once (slot-handoff.ts); unless the
  // instance itself runs the job's next task (task-handoff.ts), it is released.
  const taker = slotTaker(book);
  let handedOff: RenderTaskRequest | null = null;
  const ready: TaskRecord[] = [];
  try {
    if (result.kind === "analyse") {
      await savePlan(o, result.plan);
      // The real length is known now: it is paid for before any render task exists (or the job fails here).
      if (!(await settleRealLength(o, result.plan.source.duration_seconds, step))) return null;
      const created = renderTasksOf(result.plan).filter((t) => !book.some((b) => b.id === t.id));
      book.push(...created);
      handedOff = await handOffToAnalysisInstance(o, task, created, result.plan);
      ready.push(...created.filter((t) => t.state === "queued"));
    }
  } finally {
    o.waitUntil(handOffSlot(o, handedOff ? null : task.instance, taker));
  }
  if (result.kind !== "analyse") {
    await saveResult(o, task.id, result);
  }
  ready.push(...releaseReady(book));
  for (const t of ready) t.heard_at = Date.now();
  await step("progress", (s, now) => progressStep(s, task.stage ?? "rendering", jobPercent(book), now));
  // The last render task done, or a plan with none: the finalising step completes the job.
  if (allRenderTasksDone(book) || (result.kind === "analyse" && result.plan.tasks.length === 0)) {
    await finishJob(o, book, step);
    return null;
  }
  await sendTasks(o, ready);
  return handedOff;
}

/** Task errors carry renderer codes; the job's error.code is always one of the documented ones. */
function knownCode(code: string): JobErrorCode {
  return (code in JOB_ERROR_CODES ? code : "render_failed") as JobErrorCode;
}
