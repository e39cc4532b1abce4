import { sleep } from "../../common/sleep";

/**
 * The renderer's one retry helper for its HTTP calls (uploads, Workers AI or any OpenAI-compatible speech and text
 * API): network errors, 5xx, 408 and 429 are tried again with exponential backoff; a PermanentError is not.
 */

/** A refusal that another attempt cannot change (a 4xx other than 408 and 429, an unusable answer): reported at once. */
export class PermanentError extends Error {}

/**
 * Runs `fn` up to `attempts` times, waiting `firstDelayMs`, then twice as long each time (0.5 s, 1 s, 2 s by
 * default) after a failure that is not a PermanentError. A cancel (the signal) stops it at once with the cancel's
 * reason, also in the middle of a backoff.
 */
export async function withRetries<T>(what: string, fn: (attempt: number) => Promise<T>, signal?: AbortSignal, attempts = 4, firstDelayMs = 500): Promise<T> {
  let lastError: unknown;
  for (let i = 0; i < attempts; i++) {
    signal?.throwIfAborted();
    try {
      return await fn(i + 1);
    } catch (err) {
      lastError = err;
      if (err instanceof PermanentError) throw err;
      signal?.throwIfAborted();
      if (i < attempts - 1) await sleep(firstDelayMs * 2 ** i, signal);
    }
  }
  throw new Error(`${what} failed after ${attempts} attempts: ${String(lastError)}`);
}

/** Statuses worth asking again: the server's trouble, a timeout or a rate limit. */
export function isTransientStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/** The error for a refused HTTP answer, permanent unless isTransientStatus; reads (and so releases) the body. */
export async function failure(what: string, res: Response): Promise<Error> {
  const text = (await res.text()).slice(0, 300);
  const msg = `${what}: HTTP ${res.status} ${text}`;
  return isTransientStatus(res.status) ? new Error(msg) : new PermanentError(msg);
}
