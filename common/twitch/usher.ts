import { TwitchUnavailableError, isTransientStatus } from "./errors";
import { DEFAULT_USHER_URL, errorText, readText, type FetchLike } from "./gql";
import { parseMasterPlaylist, parseMediaPlaylist, type MediaPlaylist, type Variant } from "./m3u8";
import type { PlaybackToken } from "./playback-token";
import { withRetries, type RetryOptions } from "./retry";

export interface UsherOptions extends RetryOptions {
  usherUrl?: string;
  fetch?: FetchLike;
  signal?: AbortSignal;
}

export type MasterPlaylistResult =
  | { ok: true; variants: Variant[]; url: string }
  | { ok: false; restricted: "subscriber_only" | "private" | "unknown"; status: number; error_code: string | null };

const SUBSCRIBER_ONLY_CODES = new Set(["vod_manifest_restricted", "unauthorized_entitlements"]);

export function masterPlaylistUrl(usherUrl: string, vodId: string, token: PlaybackToken): string {
  const url = new URL(`${usherUrl.replace(/\/+$/, "")}/vod/${encodeURIComponent(vodId)}.m3u8`);
  url.searchParams.set("sig", token.signature);
  url.searchParams.set("token", token.value);
  url.searchParams.set("allow_source", "true");
  url.searchParams.set("allow_audio_only", "true");
  url.searchParams.set("playlist_include_framerate", "true");
  url.searchParams.set("player", "twitchweb");
  // Cache buster, as the web player sends.
  url.searchParams.set("p", String(Math.floor(Math.random() * 1_000_000)));
  return url.toString();
}

async function get(doFetch: FetchLike, url: string, what: string, signal?: AbortSignal): Promise<Response> {
  try {
    return await doFetch(url, { method: "GET", signal });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new TwitchUnavailableError(`${what} is unreachable (${errorText(cause)})`, { cause });
  }
}

function firstErrorCode(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as unknown;
    const list = Array.isArray(parsed) ? parsed : [parsed];
    for (const item of list) {
      const code = (item as { error_code?: unknown } | null)?.error_code;
      if (typeof code === "string") return code;
    }
  } catch {
    // Not JSON: the status alone has to do.
  }
  return null;
}

/** The master playlist, or usher's definite refusal (4xx). Transient failures are retried, then thrown. */
export function fetchMasterPlaylist(opts: UsherOptions, vodId: string, token: PlaybackToken): Promise<MasterPlaylistResult> {
  return withRetries(opts, () => masterAttempt(opts, vodId, token));
}

async function masterAttempt(opts: UsherOptions, vodId: string, token: PlaybackToken): Promise<MasterPlaylistResult> {
  const url = masterPlaylistUrl(opts.usherUrl ?? DEFAULT_USHER_URL, vodId, token);
  const response = await get(opts.fetch ?? ((i, init) => fetch(i, init)), url, "Twitch usher", opts.signal);
  const body = await readText(response, "Twitch usher", opts.signal);
  if (isTransientStatus(response.status)) {
    throw new TwitchUnavailableError(`Twitch usher answered HTTP ${response.status}`, { status: response.status });
  }
  if (!response.ok) {
    const error_code = firstErrorCode(body);
    const restricted =
      error_code !== null && SUBSCRIBER_ONLY_CODES.has(error_code)
        ? "subscriber_only"
        : error_code !== null && /private|forbidden/i.test(error_code)
          ? "private"
          : "unknown";
    return { ok: false, restricted, status: response.status, error_code };
  }
  try {
    return { ok: true, variants: parseMasterPlaylist(body, url), url };
  } catch (cause) {
    throw new TwitchUnavailableError(`Twitch usher answered with an unreadable playlist (${errorText(cause)})`, {
      cause,
      transient: false,
    });
  }
}

export function fetchMediaPlaylist(opts: { fetch?: FetchLike } & RetryOptions, url: string): Promise<MediaPlaylist> {
  return withRetries(opts, () => mediaPlaylistAttempt(opts, url));
}

async function mediaPlaylistAttempt(opts: { fetch?: FetchLike; signal?: AbortSignal }, url: string): Promise<MediaPlaylist> {
  const response = await get(opts.fetch ?? ((i, init) => fetch(i, init)), url, "Twitch media playlist", opts.signal);
  const body = await readText(response, "Twitch media playlist", opts.signal);
  if (!response.ok) {
    throw new TwitchUnavailableError(`Twitch media playlist answered HTTP ${response.status}`, {
      status: response.status,
    });
  }
  try {
    return parseMediaPlaylist(body, url);
  } catch (cause) {
    throw new TwitchUnavailableError(`Twitch media playlist is unreadable (${errorText(cause)})`, { cause, transient: false });
  }
}
