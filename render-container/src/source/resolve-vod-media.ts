import {
  TwitchUnavailableError,
  fetchMediaPlaylist,
  inspectVod,
  readTokenAccess,
  type FetchLike,
  type MediaPlaylist,
  type RetryOptions,
  type Variant,
  type VodProbe,
  type VodUnusableReason,
} from "../../../common/twitch";
import { SourceError, type SourceErrorCode } from "./source-error";

export interface ResolvedVodMedia {
  probe: VodProbe;
  variants: Variant[];
  /** Best video the token allows: Twitch's "chunked" source rendition, else the highest bandwidth. */
  source: Variant;
  /** Every video rendition the token allows, highest bandwidth first (a small one is enough to find the facecam). */
  videoVariants: Variant[];
  /** The audio-only rendition (or, if a VOD lacks one, the smallest video rendition, which carries the audio). */
  audio: Variant;
  videoPlaylist: MediaPlaylist;
  audioPlaylist: MediaPlaylist;
}

/** Transient Twitch failures (network, 5xx, 429) are retried `retries` times (default 2). */
export interface ResolveOptions extends RetryOptions {
  gqlUrl?: string;
  usherUrl?: string;
  fetch?: FetchLike;
  signal?: AbortSignal;
}

const UNUSABLE: Record<VodUnusableReason, { code: SourceErrorCode; message: string }> = {
  deleted: { code: "vod_deleted", message: "The VOD no longer exists on Twitch (deleted or expired)." },
  live: { code: "vod_live", message: "The broadcast is still live; submit the VOD again after the stream has ended." },
  subscriber_only: { code: "vod_subscriber_only", message: "The VOD is for subscribers only; only public VODs can be processed." },
  private: { code: "vod_private", message: "The VOD is private; only public VODs can be processed." },
};

function unavailable(error: unknown): SourceError {
  const detail = error instanceof Error ? error.message : String(error);
  return new SourceError("twitch_unavailable", `Twitch could not be reached to read the VOD (${detail}). Please try again later.`, {
    cause: error,
  });
}

/** Probes the VOD and lists the renditions its token opens (qualities reserved for subscribers are left out). */
async function openRenditions(opts: ResolveOptions, vodId: string): Promise<{ probe: VodProbe; variants: Variant[]; open: Variant[] }> {
  const inspection = await inspectVod(opts, vodId);
  const { probe, variants, token } = inspection;
  if (!probe.usable || !variants) {
    const reason = UNUSABLE[probe.reason ?? "deleted"];
    throw new SourceError(reason.code, reason.message);
  }
  const restricted = new Set(token ? readTokenAccess(token.value).restrictedBitrates : []);
  return { probe, variants, open: variants.filter((v) => !restricted.has(v.group_id)) };
}

/** Twitch's own failures as SourceErrors with a code; anything else unchanged. */
async function asSourceErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof SourceError) throw error;
    if (error instanceof TwitchUnavailableError) throw unavailable(error);
    throw error;
  }
}

/** Probes the VOD, picks the renditions to use and reads their media playlists. */
export function resolveVodMedia(opts: ResolveOptions, vodId: string): Promise<ResolvedVodMedia> {
  return asSourceErrors(async () => {
    const { probe, variants, open } = await openRenditions(opts, vodId);
    // Qualities the token reserves for subscribers are never picked (the probe made sure one video rendition is left).
    const video = open.filter((v) => !v.audio_only).sort((a, b) => b.bandwidth - a.bandwidth);
    const source = video.find((v) => v.source) ?? video[0]!;
    const audio = open.find((v) => v.audio_only) ?? video[video.length - 1]!;
    const [videoPlaylist, audioPlaylist] = await Promise.all([
      fetchMediaPlaylist(opts, source.url),
      audio === source ? null : fetchMediaPlaylist(opts, audio.url),
    ]);
    return { probe, variants, source, videoVariants: video, audio, videoPlaylist, audioPlaylist: audioPlaylist ?? videoPlaylist };
  });
}

export interface ResolvedRendition {
  probe: VodProbe;
  variant: Variant;
  playlist: MediaPlaylist;
}

/**
 * Resolves the VOD again and reads the media playlist of one named rendition (its group id): what a render task
 * does with the rendition its job's analysis chose, so every task of a job cuts from the same video. A VOD that
 * has become unusable fails with its code; a rendition no longer offered fails as twitch_unavailable.
 */
export function resolveVideoRendition(opts: ResolveOptions, vodId: string, groupId: string): Promise<ResolvedRendition> {
  return asSourceErrors(async () => {
    const { probe, open } = await openRenditions(opts, vodId);
    const variant = open.find((v) => v.group_id === groupId && !v.audio_only);
    if (!variant) {
      throw new SourceError("twitch_unavailable", `Twitch no longer offers the VOD's "${groupId}" rendition that this job was planned on (it offers ${open.map((v) => v.group_id).join(", ") || "none"}). Please try again later.`);
    }
    return { probe, variant, playlist: await fetchMediaPlaylist(opts, variant.url) };
  });
}
