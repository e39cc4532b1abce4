import type { ClipInput } from "./types";

export interface CutRange {
  /** Offsets inside the clip file, seconds. */
  from: number;
  to: number;
  duration: number;
}

export class CutRangeError extends Error {
  readonly code = "render_range_invalid";
  constructor(message: string) {
    super(message);
    this.name = "CutRangeError";
  }
}

/**
 * Maps VOD times onto offsets in the clip file. A range that overlaps the clip only partly is clamped to the
 * clip (the source layer pads its clips, so this only trims rounding); one outside the clip is a bug upstream.
 * Ranges shorter than 0.1 s after clamping are rejected: nothing sensible can be rendered from them.
 */
export function cutRange(clip: ClipInput, start: number, end: number): CutRange {
  if (!(Number.isFinite(start) && Number.isFinite(end)) || end <= start) {
    throw new CutRangeError(`invalid range ${start}..${end}`);
  }
  const clipLength = clip.media_end_seconds - clip.media_start_seconds;
  const from = Math.max(0, start - clip.media_start_seconds);
  const to = Math.min(clipLength, end - clip.media_start_seconds);
  if (to - from <= 0.1) {
    throw new CutRangeError(`range ${start}..${end} does not overlap the clip (${clip.media_start_seconds}..${clip.media_end_seconds})`);
  }
  return { from: round(from), to: round(to), duration: round(to - from) };
}

function round(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/**
 * Frame-accurate cut inside the filtergraph (seeking on joined TS lands on keyframes, see MEDIA.md). Reading
 * stops shortly after the range so a short cut from a long clip does not decode the rest of the file.
 */
export function cutInputArgs(clip: ClipInput, range: CutRange): string[] {
  return ["-t", (range.to + 1).toFixed(3), "-i", clip.path];
}

/**
 * Trim on the source's own timestamps (exact to the frame), then fix the frame rate, then trim again to the
 * planned length. The order matters: `fps` before the trim re-stamps frames onto its grid, which moved the
 * cut a frame early on sources whose audio starts before the video (AAC priming); `fps` alone after the trim
 * pads the end with repeated frames (4 extra on a 6 s cut in this ffmpeg).
 */
export function videoTrim(input: string, range: CutRange, fps: number): string {
  return `${input}trim=start=${range.from}:end=${range.to},setpts=PTS-STARTPTS,fps=${fps},trim=end=${range.duration}`;
}

export function audioTrim(input: string, range: CutRange): string {
  return `${input}atrim=start=${range.from}:end=${range.to},asetpts=PTS-STARTPTS`;
}
