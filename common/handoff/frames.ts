/**
 * Frames and timecodes for the editor hand-off files (docs/RENDERER.md#editor-hand-off). One integer edit rate per
 * file: the VOD's frame rate as Twitch lists it, rounded (30 or 60 on Twitch), or 30 when it says none. Timecodes
 * are non-drop-frame: a timecode counts VOD seconds × rate, which is what an editor's NLE shows for the file.
 */

/** Edit rate when the VOD's frame rate is not known. */
export const DEFAULT_EDIT_RATE = 30;

/** The integer edit rate for a VOD's frame rate (Twitch's FRAME-RATE, e.g. 60.000); 30 when unknown or absurd. */
export function editRate(frameRate: number | null | undefined): number {
  if (typeof frameRate !== "number" || !Number.isFinite(frameRate)) return DEFAULT_EDIT_RATE;
  const rate = Math.round(frameRate);
  return rate >= 1 && rate <= 120 ? rate : DEFAULT_EDIT_RATE;
}

/** Seconds to the nearest frame (the tiny epsilon keeps 100.1 × 30 = 3002.9999… from rounding the wrong way). */
export function toFrames(seconds: number, rate: number): number {
  return Math.round(seconds * rate + 1e-9);
}

const FRAMES_PER_DAY = (rate: number) => 24 * 3600 * rate;
const two = (n: number) => String(n).padStart(2, "0");

/**
 * `HH:MM:SS:FF`, non-drop-frame. The format has two hour digits (00-23): a position past 24 hours wraps, as a tape
 * clock does (only VODs longer than a day reach it; the .otio file has no such limit).
 */
export function timecode(frames: number, rate: number): string {
  if (!Number.isInteger(frames) || frames < 0) throw new Error(`timecode of ${frames} frames`);
  const f = frames % FRAMES_PER_DAY(rate);
  const totalSeconds = Math.floor(f / rate);
  return `${two(Math.floor(totalSeconds / 3600))}:${two(Math.floor(totalSeconds / 60) % 60)}:${two(totalSeconds % 60)}:${two(f % rate)}`;
}

/**
 * Where each of consecutive pieces starts and the last ends, in frames, when pieces of `seconds` are played one
 * after another in a video `totalSeconds` long: each boundary is the running sum rounded once (never a sum of
 * rounded lengths, so no error accumulates over many pieces), and the last is the video's own length, so the
 * pieces' frames add up to it exactly. Every piece keeps at least one frame.
 */
export function pieceBoundaries(seconds: readonly number[], totalSeconds: number, rate: number): number[] {
  const out = [0];
  let sum = 0;
  seconds.forEach((s, i) => {
    sum += s;
    const at = i === seconds.length - 1 ? toFrames(totalSeconds, rate) : toFrames(sum, rate);
    out.push(Math.max(at, out[i]! + 1));
  });
  return out;
}
