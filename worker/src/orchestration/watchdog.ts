import { workerConfig, type ConfigInput } from "../config";
import { isTerminal } from "./job-lifecycle";
import { armJobAlarm, WATCHDOG_KEY } from "./job-alarm";
import { loadBook, loadState, saveBook, type JobObject } from "./job-storage";
import { DISPATCH_CLAIM_MS, nextTaskDeadline, type TaskRecord } from "./task-book";

/**
 * The task watchdog: a running task silent for WATCHDOG_SECONDS is lost (the job's object retries it, bounded);
 * a claim the queue consumer never confirmed is queued again; a queued task whose message seems lost is sent
 * again. The object's one alarm (job-alarm.ts) fires at the earliest of these deadlines.
 */

/** A queued task whose message seems lost (no claim for this long) is sent again; duplicates are harmless. */
export const REQUEUE_AFTER_MS = 15 * 60 * 1000;

/** How long a running task may go without hearing from its renderer: WATCHDOG_SECONDS. */
export function watchdogMs(env: ConfigInput): number {
  return Math.round(workerConfig(env).watchdogSeconds * 1000);
}

/** What the job's error says of a task given up as lost. */
export const silenceReason = (limitMs: number): string => `the renderer stopped reporting for more than ${Math.round(limitMs / 1000)} seconds`;

/** Running tasks silent past the limit at `now`: each attempt is lost. */
export function silentTasks(book: readonly TaskRecord[], now: number, limitMs: number): TaskRecord[] {
  return book.filter((t) => t.state === "running" && t.heard_at !== null && now >= t.heard_at + limitMs);
}

/**
 * Claims never confirmed go back to the queue (their attempt not used up), and queued tasks whose message seems
 * lost are sent again; returns the tasks to send. Changes the book in place (the caller stores it).
 */
export function tasksToResend(book: TaskRecord[], now: number): TaskRecord[] {
  const resend: TaskRecord[] = [];
  for (const t of book) {
    if (t.state === "dispatching" && t.heard_at !== null && now >= t.heard_at + DISPATCH_CLAIM_MS) {
      Object.assign(t, { state: "queued", attempt: t.attempt - 1, heard_at: now });
      resend.push(t);
    } else if (t.state === "queued" && t.heard_at !== null && now >= t.heard_at + REQUEUE_AFTER_MS) {
      t.heard_at = now;
      resend.push(t);
    }
  }
  return resend;
}

/** Sets the alarm for the book's next deadline (a silent task, an unconfirmed claim, a message to send again). */
export async function armTaskWatchdog(o: JobObject, book: readonly TaskRecord[]): Promise<void> {
  const state = await loadState(o);
  if (!state || isTerminal(state.status)) return;
  const queued = book.filter((t) => t.state === "queued" && t.heard_at !== null).map((t) => t.heard_at! + REQUEUE_AFTER_MS);
  const at = [nextTaskDeadline(book, watchdogMs(o.env)), ...queued].filter((t): t is number => t !== null);
  if (at.length === 0) return;
  await o.storage.put(WATCHDOG_KEY, Math.min(...at));
  await armJobAlarm(o.storage, o.env);
}

/** The job just started: it has WATCHDOG_SECONDS until the next report (the task deadlines take over from there). */
export async function extendWatchdog(o: JobObject): Promise<void> {
  await o.storage.put(WATCHDOG_KEY, Date.now() + watchdogMs(o.env));
  await armJobAlarm(o.storage, o.env);
}

/** The job ended: no deadline is left (the alarm stays for webhook deliveries). */
export async function clearWatchdog(o: JobObject): Promise<void> {
  await o.storage.delete(WATCHDOG_KEY);
  await armJobAlarm(o.storage, o.env);
}

/** Under the serial chain: sends what tasksToResend picked and re-arms the alarm. */
export async function resendStale(o: JobObject, now: number, send: (tasks: readonly TaskRecord[]) => Promise<void>): Promise<void> {
  const book = await loadBook(o);
  if (book.length === 0) return;
  const resend = tasksToResend(book, now);
  if (resend.length) {
    await saveBook(o, book);
    await send(resend);
  }
  await armTaskWatchdog(o, book);
}
