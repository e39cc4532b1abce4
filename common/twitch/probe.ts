import { TwitchUnavailableError } from "./errors";
import type { FetchLike } from "./gql";
import type { Variant } from "./m3u8";
import { getVideoMetadata, type VideoMetadata } from "./metadata";
import { getPlaybackToken, readTokenAccess, type PlaybackToken } from "./playback-token";
import type { RetryOptions } from "./retry";
import { fetchMasterPlaylist, fetchMediaPlaylist } from "./usher";

export type VodUnusableReason = "private" | "subscriber_only" | "deleted" | "live";

export interface VodProbe {
  vod_id: string;
  title: string;
  duration_seconds: number;
  streamer_login: string | null;
  streamer_name: string | null;
  game_name: string | null;
  created_at: string | null;
  language: string | null;
  broadcast_type: string | null;
  usable: boolean;
  reason: VodUnusableReason | null;
}

export interface ProbeOptions extends RetryOptions {
  gqlUrl?: string;
  usherUrl?: string;
  fetch?: FetchLike;
  signal?: AbortSignal;
}

/** A probe plus what was learnt on the way, so a caller that goes on to download does not ask twice. */
export interface VodInspection {
  probe: VodProbe;
  metadata: VideoMetadata | null;
  token: PlaybackToken | null;
  /** Present only when the VOD is usable. */
  variants: Variant[] | null;
  masterUrl: string | null;
}

function baseProbe(vodId: string, meta: VideoMetadata | null): VodProbe {
  return {
    vod_id: vodId,
    title: meta?.title ?? "",
    duration_seconds: meta?.lengthSeconds ?? 0,
    streamer_login: meta?.owner?.login || null,
    streamer_name: meta?.owner?.displayName || null,
    game_name: meta?.game?.displayName || null,
    created_at: meta?.createdAt ?? null,
    language: meta?.language ?? null,
    broadcast_type: meta?.broadcastType ?? null,
    usable: false,
    reason: null,
  };
}

export async function inspectVod(opts: ProbeOptions, vodId: string): Promise<VodInspection> {
  const [metadata, token] = await Promise.all([getVideoMetadata(opts, vodId), getPlaybackToken(opts, vodId)]);
  const probe = baseProbe(vodId, metadata);
  const unusable = (reason: VodUnusableReason): VodInspection => ({
    probe: { ...probe, reason },
    metadata,
    token,
    variants: null,
    masterUrl: null,
  });

  if (metadata === null || token === null) return unusable("deleted");
  if (metadata.status.toUpperCase() === "RECORDING") return unusable("live");
  const access = readTokenAccess(token.value);
  if (access.forbidden) return unusable("private");

  const master = await fetchMasterPlaylist(opts, vodId, token);
  if (!master.ok) {
    if (master.restricted !== "unknown") return unusable(master.restricted);
    if (master.status === 404 || master.status === 410) return unusable("deleted");
    if (master.status === 401 || master.status === 403) return unusable("private");
    throw new TwitchUnavailableError(`Twitch usher refused VOD ${vodId} with HTTP ${master.status}`, {
      status: master.status,
    });
  }
  const video = master.variants.filter((v) => !v.audio_only);
  const restricted = new Set(access.restrictedBitrates);
  if (video.length > 0 && video.every((v) => restricted.has(v.group_id))) return unusable("subscriber_only");
  if (video.length === 0) {
    if (restricted.size > 0) return unusable("subscriber_only");
    throw new TwitchUnavailableError(`Twitch usher listed no video rendition for VOD ${vodId}`);
  }

  let duration = metadata.lengthSeconds;
  if (!(duration > 0)) {
    // Twitch reports 0 for some archives; the playlist knows the real length.
    const pick = master.variants.find((v) => v.audio_only) ?? video[0]!;
    duration = (await fetchMediaPlaylist(opts, pick.url)).total_duration;
  }
  return {
    probe: { ...probe, duration_seconds: duration, usable: true, reason: null },
    metadata,
    token,
    variants: master.variants,
    masterUrl: master.url,
  };
}

/**
 * Finds out whether a VOD can be processed, and why not. Throws TwitchUnavailableError when Twitch cannot be
 * asked at all; every definite answer (deleted, live, private, subscriber-only) is a normal result.
 */
export async function probeVod(opts: ProbeOptions, vodId: string): Promise<VodProbe> {
  return (await inspectVod(opts, vodId)).probe;
}
