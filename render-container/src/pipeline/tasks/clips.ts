import { insideSpeech } from "../../selection/boundaries";
import type { ClipSource } from "../../source";
import { JobError } from "../job-error";

/** The downloaded clip that holds a whole VOD range. */
export function clipFor(clips: readonly ClipSource[], start: number, end: number): ClipSource {
  const clip = clips.find((c) => c.media_start_seconds <= start + 1e-3 && c.media_end_seconds >= end - 1e-3);
  if (!clip) throw new JobError("render_failed", `No downloaded video covers ${start.toFixed(2)}-${end.toFixed(2)} s.`);
  return clip;
}

/** How far a short's start may move to a scene cut (earlier or later). */
export const SHORT_SNAP_SECONDS = 1.5;

/**
 * Shorts keep their length (they were sized around the peak); a nearby cut before the peak only nudges the
 * start, and the short stays inside the clip that holds it. With the moment's pauses between sentences known,
 * the nudge is taken only when neither end then lies inside speech (the end moves with the start).
 */
export function refineShort<M extends { start: number; end: number; peak: number }>(
  m: M,
  cuts: readonly number[],
  clip: { media_start_seconds: number; media_end_seconds: number },
  pauses?: readonly { start: number; end: number }[],
): M {
  const len = m.end - m.start;
  const near = cuts.filter((c) => Math.abs(c - m.start) <= SHORT_SNAP_SECONDS && c < m.peak);
  for (const cut of near) {
    const start = Math.max(clip.media_start_seconds, Math.min(cut, clip.media_end_seconds - len));
    if (insideSpeech(start, pauses) || insideSpeech(start + len, pauses)) continue;
    return { ...m, start, end: start + len };
  }
  return m;
}
