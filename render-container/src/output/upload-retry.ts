import { sleep } from "../../../common/sleep";

/** A refusal that another attempt cannot change (a 4xx other than 429): reported at once, never retried. */
export class PermanentUploadError extends Error {}

/**
 * Runs `fn` up to `attempts` times with exponential backoff (0.5 s, 1 s, 2 s) on network errors, 5xx and 429.
 * A cancel (the signal) stops it at once with the cancel's reason, also in the middle of a backoff.
 */
export async function withRetries<T>(what: string, fn: (attempt: number) => Promise<T>, signal?: AbortSignal, attempts = 4): Promise<T> {
  let lastError: unknown;
  for (let i = 0; i < attempts; i++) {
    signal?.throwIfAborted();
    try {
      return await fn(i + 1);
    } catch (err) {
      lastError = err;
      if (err instanceof PermanentUploadError) throw err;
      signal?.throwIfAborted();
      if (i < attempts - 1) await sleep(500 * 2 ** i, signal);
    }
  }
  throw new Error(`${what} failed after ${attempts} attempts: ${String(lastError)}`);
}

/** The error for a refused HTTP answer, permanent for 4xx other than 429; reads (and so releases) the body. */
export async function failure(what: string, res: Response): Promise<Error> {
  const text = (await res.text()).slice(0, 300);
  const msg = `${what}: HTTP ${res.status} ${text}`;
  return res.status >= 400 && res.status < 500 && res.status !== 429 ? new PermanentUploadError(msg) : new Error(msg);
}
