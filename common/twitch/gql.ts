import { TwitchUnavailableError } from "./errors";
import { withRetries, type RetryOptions } from "./retry";

export const DEFAULT_GQL_URL = "https://gql.twitch.tv/gql";
export const DEFAULT_USHER_URL = "https://usher.ttvnw.net";
/** The public web player's client id; GQL refuses requests without a known one. */
export const TWITCH_WEB_CLIENT_ID = "kimne78kx3ncx6brgo4mv6wki5h1ko";

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface GqlOptions extends RetryOptions {
  gqlUrl?: string;
  fetch?: FetchLike;
  signal?: AbortSignal;
}

export interface GqlOperation {
  query?: string;
  operationName?: string;
  variables?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
}

export interface GqlError {
  message: string;
  path?: (string | number)[];
}

export interface GqlResult<T = unknown> {
  data: T | null;
  errors: GqlError[];
}

/** JSON string literal safe for splicing an id into a raw query. */
export function gqlString(value: string): string {
  return JSON.stringify(value);
}

function toResult(raw: unknown): GqlResult {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new TwitchUnavailableError("Twitch GQL answered with an unexpected JSON shape", { transient: false });
  }
  const obj = raw as { data?: unknown; errors?: unknown };
  const errors = Array.isArray(obj.errors)
    ? obj.errors.map((e) => ({
        message: String((e as { message?: unknown })?.message ?? "unknown error"),
        path: Array.isArray((e as { path?: unknown })?.path) ? ((e as { path: (string | number)[] }).path) : undefined,
      }))
    : [];
  const data = obj.data === undefined ? null : (obj.data as unknown);
  return { data, errors };
}

/**
 * Sends one operation or a batch (Twitch accepts an array and answers with an array in the same order).
 * Transport-level failures throw TwitchUnavailableError (after retrying the transient ones: network, 5xx, 408,
 * 429); GraphQL-level errors are returned for the caller to judge.
 */
export function gqlRequest(opts: GqlOptions, operations: GqlOperation[]): Promise<GqlResult[]> {
  return withRetries(opts, () => gqlAttempt(opts, operations));
}

async function gqlAttempt(opts: GqlOptions, operations: GqlOperation[]): Promise<GqlResult[]> {
  const url = opts.gqlUrl ?? DEFAULT_GQL_URL;
  const doFetch: FetchLike = opts.fetch ?? ((input, init) => fetch(input, init));
  const batched = operations.length !== 1;
  let response: Response;
  try {
    response = await doFetch(url, {
      method: "POST",
      headers: { "Client-ID": TWITCH_WEB_CLIENT_ID, "Content-Type": "text/plain;charset=UTF-8" },
      body: JSON.stringify(batched ? operations : operations[0]),
      signal: opts.signal,
    });
  } catch (cause) {
    if (opts.signal?.aborted) throw cause;
    throw new TwitchUnavailableError(`Twitch GQL is unreachable (${errorText(cause)})`, { cause });
  }
  const text = await readText(response, "Twitch GQL", opts.signal);
  if (!response.ok) {
    throw new TwitchUnavailableError(`Twitch GQL answered HTTP ${response.status}: ${text.slice(0, 200)}`, {
      status: response.status,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new TwitchUnavailableError("Twitch GQL answered with something that is not JSON", {
      status: response.status,
      cause,
      transient: false,
    });
  }
  const list = batched ? parsed : [parsed];
  if (!Array.isArray(list) || list.length !== operations.length) {
    throw new TwitchUnavailableError("Twitch GQL answered a batch with the wrong number of results", { transient: false });
  }
  return list.map(toResult);
}

/**
 * The whole body as text. A body cut off by `signal` (the request's own) rejects with the signal's reason, not
 * as a broken connection: a cancelled job must not be retried or reported as Twitch being unavailable.
 */
export async function readText(response: Response, what: string, signal?: AbortSignal): Promise<string> {
  try {
    // Decoded by hand: workerd warns on .text() for playlist content types (application/vnd.apple.mpegurl).
    return new TextDecoder().decode(await response.arrayBuffer());
  } catch (cause) {
    if (signal?.aborted) throw signal.reason;
    // The status line arrived but the body did not: as transient as a failed connection.
    throw new TwitchUnavailableError(`${what} connection broke while reading the answer (${errorText(cause)})`, {
      status: response.status,
      cause,
      transient: true,
    });
  }
}

export function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}
