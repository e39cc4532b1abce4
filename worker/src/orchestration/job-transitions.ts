import { taskKey } from "../../../common/contract/job-plan";
import type { JobTransition } from "../domain/job-transition";
import { movementStatements } from "../storage/credits";
import { nowIso, openDb } from "../storage/db";
import { lifecycleUpdate } from "../storage/jobs";
import { enqueueWebhooks } from "../webhooks/enqueue";
import { deleteReelParts } from "./finalise";
import { armJobAlarm, jobOutbox } from "./job-alarm";
import { isTerminal, type JobLifecycle, type Step } from "./job-lifecycle";
import { loadBook, loadState, saveState, type JobObject, type Locked } from "./job-storage";
import { cancelTask, releaseInstance } from "./renderers";
import { activeTasks } from "./task-book";
import { clearWatchdog, extendWatchdog } from "./watchdog";

/**
 * A job's status changes, carried out: the rules are job-lifecycle.ts's pure steps; this writes their outcome
 * (D1 first, with any refund, then the object's storage, so a failed D1 write changes nothing), keeps the
 * watchdog in step, stops what still renders for a job that ended, and after the serial chain is released
 * puts the changes' webhook events into the job's outbox.
 */

/** Answer of every lifecycle call: what changed, or why nothing did (late calls after the end say `terminal`). */
export type TransitionResult =
  | { changed: true; state: JobLifecycle; refund_credits: number }
  | { changed: false; reason: "terminal" | "invalid_transition" | "unchanged" | "not_found"; state: JobLifecycle | null };

export type StepRule = (s: JobLifecycle, now: string) => Step;

/** A lifecycle step taken while holding the serial chain; its transitions' webhooks are enqueued after the chain is released. */
export type StepFn = (cause: JobTransition["cause"], fn: StepRule, resultJson?: string) => Promise<void>;

/** One lifecycle step; callers hold the serial chain and pass the returned transitions to `announce` after it. */
export async function transition(o: JobObject, cause: JobTransition["cause"], step: StepRule, resultJson?: string): Promise<Locked<TransitionResult>> {
  const current = await loadState(o);
  if (!current) return { result: { changed: false, reason: "not_found", state: null }, transitions: [] };
  const now = nowIso();
  const next = step(current, now);
  if (!next.ok) return { result: { changed: false, reason: next.reason, state: current }, transitions: [] };

  const db = openDb(o.env.DB);
  const mirror = lifecycleUpdate(db, next.next, cause === "completed" ? resultJson : undefined);
  const parts = next.refund <= 0 ? [] : (next.parts ?? [{ amount: next.refund, purpose: null, reason: cause === "cancelled" ? "cancelled by user" : `job failed: ${next.next.error?.code ?? "error"}` }]);
  if (parts.length > 0) {
    const movements = parts.flatMap((p) => {
      const { update, entry } = movementStatements(db, { accountId: current.account_id, amount: p.amount, kind: "refund", purpose: p.purpose, jobId: current.job_id, reason: p.reason, at: now });
      return [update, entry];
    });
    await db.batch([mirror, ...movements]);
  } else {
    await mirror;
  }
  await saveState(o, next.next);
  if (next.next.status === "running" && current.status !== "running") await extendWatchdog(o);
  if (isTerminal(next.next.status)) {
    await clearWatchdog(o);
    // Whatever ended the job (cancel, a failure, the watchdog), nothing keeps rendering for it.
    if (next.next.status === "failed") await stopTasks(o, next.next.job_id);
  }
  const change: JobTransition | null =
    next.next.status === current.status
      ? null
      : { job_id: current.job_id, account_id: current.account_id, from: current.status, to: next.next.status, cause, refund_credits: next.refund, state: next.next };
  return { result: { changed: true, state: next.next, refund_credits: next.refund }, transitions: change ? [change] : [] };
}

/**
 * A `step` for code that takes several steps under one hold of the chain: each step's transitions are collected
 * in `into`, to be announced once the chain is released.
 */
export function collectingStep(o: JobObject, into: JobTransition[]): StepFn {
  return async (cause, fn, resultJson) => {
    const done = await transition(o, cause, fn, resultJson);
    into.push(...done.transitions);
  };
}

/**
 * The job failed: every task still running is stopped and reel parts are deleted. Best effort and not awaited:
 * the state and the refund are already durable, and a renderer that misses the stop gets 409 for its next report.
 */
async function stopTasks(o: JobObject, jobId: string): Promise<void> {
  for (const t of activeTasks(await loadBook(o))) {
    const instance = t.instance!;
    o.waitUntil(cancelTask(o.env, instance, taskKey(jobId, t.id)).then(() => releaseInstance(o.env, instance)));
  }
  o.waitUntil(deleteReelParts(o.env.ARTIFACTS, jobId).catch(() => 0));
}

/**
 * Follow-up of status changes, after they are durable: their webhook events go into the job's outbox and the
 * alarm is armed to deliver them. An event that cannot be built is logged; it does not undo the change, and
 * whatever was enqueued before it still goes out.
 */
export async function announce(o: JobObject, transitions: readonly JobTransition[]): Promise<void> {
  if (transitions.length === 0) return;
  const outbox = jobOutbox(o.storage, o.env);
  for (const t of transitions) {
    try {
      await enqueueWebhooks(o.env, outbox, t);
    } catch (error) {
      console.error(JSON.stringify({ level: "error", msg: "job webhook not enqueued", job_id: t.job_id, to: t.to, error: error instanceof Error ? error.message : String(error) }));
    }
  }
  await armJobAlarm(o.storage, o.env);
}
