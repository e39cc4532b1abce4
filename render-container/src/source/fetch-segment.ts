import type { FetchLike, MediaSegment } from "../../../common/twitch";
import type { ByteCounter } from "./byte-counter";
import { SourceError } from "./source-error";
import { sleep } from "../../../common/sleep";

export interface SegmentFetchOptions {
  fetch?: FetchLike;
  /** Attempts after the first one, for network errors, truncated bodies, 5xx, 408 and 429. */
  retries?: number;
  /** First backoff; doubles each retry, with jitter. */
  retryDelayMs?: number;
  signal?: AbortSignal;
  counter?: ByteCounter;
}

export interface FetchedSegment {
  data: Buffer;
  /** Served as a muted part (listed so, or only its -muted twin exists any more). */
  muted: boolean;
}

class RetryableError extends Error {}


/** Twitch mutes parts after the fact: a listed N.ts may only exist as N-muted.ts now, and the other way round. */
export function mutedTwin(uri: string): string {
  return /-muted\.(ts|mp4)(\?|$)/.test(uri)
    ? uri.replace(/-muted\.(ts|mp4)/, ".$1")
    : uri.replace(/(\d+)\.(ts|mp4)(\?|$)/, "$1-muted.$2$3");
}

async function readBody(response: Response, counter: ByteCounter | undefined): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = response.body?.getReader();
  if (reader) {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.byteLength;
        counter?.add(value.byteLength);
      }
    } catch (error) {
      throw new RetryableError(`connection broke after ${received} bytes (${(error as Error).message})`);
    }
  }
  const expected = Number(response.headers.get("content-length"));
  if (Number.isFinite(expected) && expected > 0 && received !== expected) {
    throw new RetryableError(`got ${received} of ${expected} bytes`);
  }
  return Buffer.concat(chunks);
}

async function attempt(url: string, opts: SegmentFetchOptions): Promise<{ status: number; data: Buffer | null }> {
  const doFetch: FetchLike = opts.fetch ?? ((input, init) => fetch(input, init));
  let response: Response;
  try {
    response = await doFetch(url, { signal: opts.signal });
  } catch (error) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    throw new RetryableError(`request failed (${(error as Error).message})`);
  }
  if (response.status >= 500 || response.status === 408 || response.status === 429) {
    await response.body?.cancel().catch(() => undefined);
    throw new RetryableError(`HTTP ${response.status}`);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status, data: null };
  }
  try {
    return { status: response.status, data: await readBody(response, opts.counter) };
  } catch (error) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    throw error;
  }
}

/** Runs `once` until it returns, retrying RetryableErrors with exponential backoff and jitter. */
async function withRetries<T>(opts: SegmentFetchOptions, giveUp: (lastError: string, attempts: number) => Error, once: () => Promise<T>): Promise<T> {
  const retries = opts.retries ?? 4;
  const base = opts.retryDelayMs ?? 250;
  let lastError = "";
  for (let i = 0; i <= retries; i++) {
    if (i > 0) await sleep(base * 2 ** (i - 1) * (0.75 + Math.random() * 0.5), opts.signal);
    try {
      return await once();
    } catch (error) {
      if (!(error instanceof RetryableError)) throw error;
      lastError = error.message;
    }
  }
  throw giveUp(lastError, retries + 1);
}

/** Downloads one segment, retrying transient failures with exponential backoff. */
export function fetchSegment(segment: MediaSegment, opts: SegmentFetchOptions): Promise<FetchedSegment> {
  return withRetries(
    opts,
    (lastError, attempts) =>
      new SourceError(
        "vod_segment_unavailable",
        `Part ${segment.index} of the VOD could not be downloaded after ${attempts} attempts (${lastError}). Please try again later.`,
      ),
    async () => {
      const first = await attempt(segment.uri, opts);
      if (first.data) return { data: first.data, muted: segment.muted };
      if (first.status === 403 || first.status === 404) {
        const twin = await attempt(mutedTwin(segment.uri), opts);
        if (twin.data) return { data: twin.data, muted: !segment.muted };
      }
      throw new SourceError(
        "vod_segment_unavailable",
        `Twitch refused part ${segment.index} of the VOD (HTTP ${first.status}); the VOD may have been removed meanwhile.`,
      );
    },
  );
}

/** Downloads an fMP4 initialisation section (#EXT-X-MAP), with the same retries as a segment. */
export function fetchInitSection(uri: string, opts: SegmentFetchOptions): Promise<Buffer> {
  const name = new URL(uri).pathname.split("/").pop();
  return withRetries(
    opts,
    (lastError, attempts) =>
      new SourceError("vod_segment_unavailable", `The VOD's ${name} could not be downloaded after ${attempts} attempts (${lastError}). Please try again later.`),
    async () => {
      const answer = await attempt(uri, opts);
      if (answer.data) return answer.data;
      throw new SourceError("vod_segment_unavailable", `Twitch refused the VOD's ${name} (HTTP ${answer.status}); the VOD may have been removed meanwhile.`);
    },
  );
}
