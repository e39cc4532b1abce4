import { TwitchUnavailableError } from "./errors";
import { sleep } from "../sleep";

export interface RetryOptions {
  /** Attempts after the first, for transient failures only (network, 5xx, 408, 429). Default 2. */
  retries?: number;
  /** First backoff in ms; doubles each retry. Default 250. */
  retryDelayMs?: number;
  signal?: AbortSignal;
}


/**
 * Runs one Twitch request, asking again after a transient TwitchUnavailableError. Definite answers (4xx, a
 * deleted VOD, GraphQL errors) are never repeated: asking again would get the same answer.
 */
export async function withRetries<T>(opts: RetryOptions, request: () => Promise<T>): Promise<T> {
  const retries = Math.max(0, opts.retries ?? 2);
  for (let attempt = 0; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (opts.signal?.aborted || attempt >= retries) throw error;
      if (!(error instanceof TwitchUnavailableError) || !error.transient) throw error;
      await sleep((opts.retryDelayMs ?? 250) * 2 ** attempt, opts.signal);
    }
  }
}
