/**
 * The naive approaches the selection must beat: rank seconds by one raw signal and take the top `k` peaks
 * (at least 45 s apart), each as a fixed window 10 s before to 20 s after. No threshold, no setup logic, no lag
 * correction, no spam handling.
 */
import { movingAverage } from "../../render-container/src/analysis/stats";
import type { AudioAnalysis, ChatCommentInput } from "../../render-container/src/analysis/types";
import type { Clip } from "./metrics";

const BEFORE = 10;
const AFTER = 20;
const MIN_APART = 45;

export function topPeaks(signal: readonly number[], k: number, duration: number): Clip[] {
  const order = signal.map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const peaks: number[] = [];
  for (const [, i] of order) {
    if (peaks.length >= k) break;
    if (peaks.some((p) => Math.abs(p - i) < MIN_APART)) continue;
    peaks.push(i);
  }
  return peaks
    .map((i) => ({ start: Math.max(0, i + 0.5 - BEFORE), end: Math.min(duration, i + 0.5 + AFTER) }))
    .sort((a, b) => a.start - b.start);
}

/** Messages per second (5 s average), at the time they were typed. */
export function chatRateSignal(comments: readonly ChatCommentInput[], seconds: number): number[] {
  const counts = new Array<number>(seconds).fill(0);
  for (const c of comments) {
    const s = Math.floor(c.offset_seconds);
    if (s >= 0 && s < seconds) counts[s]!++;
  }
  return movingAverage(counts, 2);
}

/** Loudness above the stream's median (3 s average). */
export function loudnessSignal(audio: AudioAnalysis): number[] {
  return movingAverage(audio.loudnessAboveBaselineDb, 1);
}
