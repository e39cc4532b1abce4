import type { JobRecord } from "../contract";
import { ApiError } from "./api-error";
import { sleep } from "../sleep";

export interface WaitForJobOptions {
  /** First delay between polls (ms). Default 2000. */
  intervalMs?: number;
  /** Longest delay between polls (ms). Default 30000. */
  maxIntervalMs?: number;
  /** Each poll that shows no change multiplies the delay by this. Default 1.5. */
  backoff?: number;
  /** Give up after this long (ms) with a WaitTimeoutError. Default: wait as long as it takes. */
  timeoutMs?: number;
  /** Transient failures in a row (network, 429, 5xx) tolerated before giving up. Default 5. */
  maxConsecutiveErrors?: number;
  signal?: AbortSignal;
  /** Called with the first record and whenever status, progress or stage changed. */
  onProgress?: (job: JobRecord) => void | Promise<void>;
  /** Replaces the timer (tests, custom schedulers). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export class WaitTimeoutError extends Error {
  constructor(readonly lastJob: JobRecord | null, timeoutMs: number) {
    super(`The job did not finish within ${timeoutMs} ms${lastJob ? ` (last status ${lastJob.status}, ${lastJob.progress} %)` : ""}.`);
    this.name = "WaitTimeoutError";
  }
}

const TERMINAL = new Set<JobRecord["status"]>(["completed", "failed"]);

export { sleep };

/** Worth trying again: the network, a rate limit or the server side, not the request itself. */
function isTransient(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 429 || error.status >= 500;
  return error instanceof TypeError;
}

const fingerprint = (job: JobRecord) => `${job.status}|${job.progress}|${job.stage ?? ""}`;

/**
 * Polls until the job is completed or failed and returns that record (a failed job is returned, not thrown:
 * its `error` says why). Polls back off while nothing changes and speed up again as soon as something does.
 */
export async function pollJob(getJob: (signal?: AbortSignal) => Promise<JobRecord>, options: WaitForJobOptions = {}): Promise<JobRecord> {
  const initial = options.intervalMs ?? 2000;
  const max = Math.max(initial, options.maxIntervalMs ?? 30_000);
  const factor = Math.max(1, options.backoff ?? 1.5);
  const maxErrors = options.maxConsecutiveErrors ?? 5;
  const wait = options.sleep ?? sleep;
  const deadline = options.timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + options.timeoutMs;

  let delay = initial;
  let last: JobRecord | null = null;
  let errors = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    try {
      const job = await getJob(options.signal);
      errors = 0;
      const changed = last === null || fingerprint(job) !== fingerprint(last);
      last = job;
      if (changed) await options.onProgress?.(job);
      if (TERMINAL.has(job.status)) return job;
      delay = changed ? initial : Math.min(max, delay * factor);
    } catch (error) {
      if (options.signal?.aborted || !isTransient(error) || ++errors > maxErrors) throw error;
      const retryAfterMs = error instanceof ApiError && error.retryAfterSeconds !== null ? error.retryAfterSeconds * 1000 : 0;
      delay = Math.min(max, Math.max(delay * factor, retryAfterMs));
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new WaitTimeoutError(last, options.timeoutMs!);
    await wait(Math.min(delay, remaining), options.signal);
  }
}
