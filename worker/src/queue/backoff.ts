/** Delay before the queue redelivers a job the renderer could not take: 15 s, 60 s, 240 s, then the dead-letter queue. */
export function dispatchRetryDelaySeconds(attempts: number): number {
  return Math.min(900, 15 * 4 ** Math.max(0, attempts - 1));
}
