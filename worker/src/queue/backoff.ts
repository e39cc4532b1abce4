/** Delay before the queue redelivers a task no renderer could be reached for: 15 s, 60 s, 240 s, then the job fails. */
export function dispatchRetryDelaySeconds(attempts: number): number {
  return Math.min(900, 15 * 4 ** Math.max(0, attempts - 1));
}

/** Attempts at reaching a renderer at all (not: finding a free one) before the task's job fails. */
export const UNREACHABLE_ATTEMPTS = 4;

/**
 * Delay while every renderer is busy (no container instance free, each pool process full): 5 s doubling to
 * 2 min. The queue's max_retries (100) then lets a task wait about three hours for capacity before its job fails;
 * lack of capacity never fails a job early.
 */
export function capacityRetryDelaySeconds(attempts: number): number {
  return Math.min(120, 5 * 2 ** Math.max(0, attempts - 1));
}
