import { loadBook, loadState, type JobObject } from "./job-storage";
import type { TaskRecord } from "./task-book";

/**
 * Whom a renderer's call speaks for, besides its files (those: task-storage-scope.ts). The renderer parses media
 * from the internet, so a task attempt's token (links.ts' rendererTaskToken) lets it report only its own events
 * and call Workers AI only while it is the current attempt of a running job (issue 23, point 6). Runs in the
 * job's Durable Object, next to the book, so the answer and what it allows cannot be told apart by a claim in
 * between.
 *
 *   events      the route holds the attempt to its path (the token is made for that task and attempt); the
 *               object then applies only the current attempt's events (task-reports.ts): a superseded one gets 409
 *   Workers AI  aiAccess below: the job running, the attempt current
 *
 * The job's token (rendererJobToken) on the job-wide paths of before is served only for attempts claimed by the
 * previous Worker version (records without `scoped_calls`), as the storage routes do: remove with the next release.
 */

/** Who calls: one attempt of one task (its own token on its own path), or the job's token on a legacy path. */
export type TaskCaller = { task_id: string; attempt: number } | { legacy: true };

/** Allowed, or the refusal the route sends as it is (status, code, one sentence, extra fields). */
export type CallVerdict =
  | { ok: true }
  | { ok: false; status: 403 | 404 | 409; code: string; message: string; extra?: Record<string, unknown> };

export const refuse = (status: 403 | 404 | 409, code: string, message: string, extra?: Record<string, unknown>): CallVerdict => ({ ok: false, status, code, message, ...(extra ? { extra } : {}) });

/** An attempt a renderer may be working on: claimed and not yet ended. */
export const currentAttempt = (t: TaskRecord) => t.state === "running" || t.state === "dispatching";

/** Refusals of a task attempt that is not (or no longer) the current one of a task of this job. */
export function attemptVerdict(book: TaskRecord[], caller: { task_id: string; attempt: number }): CallVerdict {
  const task = book.find((t) => t.id === caller.task_id);
  if (!task) return refuse(404, "task_not_found", `This job has no task ${caller.task_id}.`);
  if (task.attempt !== caller.attempt || !currentAttempt(task)) {
    return refuse(409, "task_superseded", `Attempt ${caller.attempt} of task ${caller.task_id} is no longer current; stop it.`);
  }
  return { ok: true };
}

/** A Workers AI call, billed to the job's account: only for the current attempt of a task of a running job. */
export async function aiAccess(o: JobObject, caller: TaskCaller): Promise<CallVerdict> {
  const state = await loadState(o);
  if (!state) return refuse(404, "job_not_found", "No job with this id exists.");
  if (state.status !== "running") {
    return refuse(409, "job_not_running", `Workers AI is used only while the job is running; it is ${state.status}.`, { status: state.status });
  }
  const book = await loadBook(o);
  if (!("legacy" in caller)) return attemptVerdict(book, caller);
  if (book.some((t) => !t.scoped_calls && currentAttempt(t))) return { ok: true };
  return refuse(403, "outside_task_scope", "No task of this job that still uses the job-wide token is running: each task calls Workers AI on its own URL and token, given in its ai endpoint.");
}

/**
 * An event on the job-wide legacy path, for attempt `attempt` of task `taskId`: refused when that attempt is
 * current and was handed its own token (the job's token speaks only for attempts claimed before). Any other
 * attempt number goes on to the usual checks, which answer a superseded attempt 409 as before.
 */
export async function legacyEventAllowed(o: JobObject, taskId: string, attempt: number): Promise<boolean> {
  const task = (await loadBook(o)).find((t) => t.id === taskId);
  return !(task && task.scoped_calls && task.attempt === attempt && currentAttempt(task));
}
