import type { Span } from "./similarity";

/**
 * Fits a window around `peak` into the gap between already-taken ranges (manual highlights, chosen moments):
 * automatic moments make room rather than overlap. Returns null when the gap cannot hold `minLength`.
 */
export function fitBetween(w: Span, peak: number, taken: readonly Span[], minLength: number, durationSeconds: number): Span | null {
  let lo = 0;
  let hi = durationSeconds;
  for (const r of taken) {
    if (r.start <= peak && peak < r.end) return null;
    if (r.end <= peak) lo = Math.max(lo, r.end);
    else if (r.start > peak) hi = Math.min(hi, r.start);
  }
  const need = Math.min(minLength, durationSeconds);
  if (hi - lo < need - 1e-9) return null;
  let start = Math.max(w.start, lo);
  let end = Math.min(w.end, hi);
  if (end - start < need) {
    // Grow inside the gap, before the peak first (setup), then after.
    const missing = need - (end - start);
    const grow = Math.min(missing, start - lo);
    start -= grow;
    end = Math.min(hi, end + (missing - grow));
  }
  return end - start >= need - 1e-9 ? { start, end } : null;
}
