/**
 * Twitch could not be asked (network failure, 5xx, an answer that is not the protocol we know). Distinct from
 * "the VOD is unusable", which is a normal answer: callers map this one to a 422 / retryable job error.
 */
export class TwitchUnavailableError extends Error {
  readonly status: number | null;
  /** Worth asking again: no answer at all, a broken transfer, 5xx, 408 or 429. Other 4xx are not. */
  readonly transient: boolean;
  constructor(message: string, options: { status?: number | null; cause?: unknown; transient?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "TwitchUnavailableError";
    this.status = options.status ?? null;
    this.transient = options.transient ?? isTransientStatus(this.status);
  }
}

/** null = no HTTP answer (network error, dropped connection). */
export function isTransientStatus(status: number | null): boolean {
  return status === null || status >= 500 || status === 408 || status === 429;
}
