/** Delay before the queue redelivers a task no renderer could be reached for: 15 s, 60 s, 240 s, then the job fails. */
export function dispatchRetryDelaySeconds(failures: number): number {
  return Math.min(900, 15 * 4 ** Math.max(0, failures - 1));
}

/**
 * Starts in a row that could not reach a renderer at all (not: find a free one) before the task's job fails.
 * Counted in the task's record in JobState (busy answers never count), not from the message's deliveries.
 */
export const UNREACHABLE_ATTEMPTS = 4;

/**
 * Delay while every renderer is busy (no container instance free, each pool process full): 5 to 10 s, jittered so
 * that tasks of many jobs waiting at once do not ask again in step. Short, because a wait ends when any slot
 * frees, and a task of the same job that ends hands its slot over at once (slot-handoff.ts); a busy answer costs
 * one Durable Object call and one refused start. Each wait is a new message (the message's own retries stay for
 * faults), so the queue's max_retries never bounds it: CAPACITY_WAIT_MS does.
 */
export function capacityRetryDelaySeconds(random: () => number = Math.random): number {
  return 5 + Math.floor(random() * 6);
}

/** How long a task may wait for a free renderer before its job fails with every credit back (3 hours, as before). */
export const CAPACITY_WAIT_MS = 3 * 60 * 60 * 1000;
