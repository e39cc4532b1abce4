/**
 * Twitch could not be asked (network failure, 5xx, an answer that is not the protocol we know). Distinct from
 * "the VOD is unusable", which is a normal answer: callers map this one to a 422 / retryable job error.
 */
export class TwitchUnavailableError extends Error {
  readonly status: number | null;
  constructor(message: string, options: { status?: number | null; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "TwitchUnavailableError";
    this.status = options.status ?? null;
  }
}
