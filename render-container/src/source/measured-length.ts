import type { MediaPlaylist } from "../../../common/twitch/m3u8";
import { SourceError } from "./source-error";

/**
 * The VOD's length as the renderer measured it: the sum of its playlist's segment durations. It is what the job
 * is billed on ("analysed" event), so it never falls back to another number: Twitch's metadata can be 0 or stale,
 * and the job's own length may be the client's claim (accepted while Twitch was unreachable), which is exactly
 * what must not be billed. A playlist without media has nothing to analyse or measure: the job fails.
 */
export function measuredLength(playlist: MediaPlaylist): number {
  if (playlist.total_duration > 0) return playlist.total_duration;
  throw new SourceError("vod_segment_unavailable", "Twitch's playlist for this VOD lists no media, so there is nothing to analyse; no credits were charged.");
}
