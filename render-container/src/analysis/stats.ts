/** Small numeric helpers shared by the analysis and selection passes. */

export function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

/** Linear ramp: 0 at or below `lo`, 1 at or above `hi`. */
export function ramp(v: number, lo: number, hi: number): number {
  if (hi <= lo) return v >= hi ? 1 : 0;
  return clamp((v - lo) / (hi - lo), 0, 1);
}

/** The q-quantile (0..1) with linear interpolation; NaN for an empty input. Non-finite values are ignored. */
export function quantile(values: ArrayLike<number>, q: number): number {
  // A typed array sorts numerically in native code: ~5x faster than a comparator on the half million envelope
  // frames of a 3-hour span.
  const all = new Float64Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isFinite(v)) all[n++] = v;
  }
  if (n === 0) return Number.NaN;
  const xs = all.subarray(0, n).sort();
  const pos = clamp(q, 0, 1) * (xs.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return xs[lo]! + (xs[hi]! - xs[lo]!) * (pos - lo);
}

export function median(values: ArrayLike<number>): number {
  return quantile(values, 0.5);
}

/** Centered moving average over `2*radius+1` samples, shrinking at the edges. */
export function movingAverage(values: ArrayLike<number>, radius: number): number[] {
  const n = values.length;
  const out = new Array<number>(n);
  if (radius <= 0) {
    for (let i = 0; i < n; i++) out[i] = values[i]!;
    return out;
  }
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i]! + values[i]!;
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, i - radius);
    const b = Math.min(n, i + radius + 1);
    out[i] = (prefix[b]! - prefix[a]!) / (b - a);
  }
  return out;
}

/** Converts a power ratio to decibels, with a floor so digital silence stays finite. */
export function powerToDb(power: number, floorDb = -120): number {
  return power > 0 ? Math.max(floorDb, 10 * Math.log10(power)) : floorDb;
}

export function round(v: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** Index of the first of `sorted` (ascending) at or after `t`: a binary search. */
export function firstAtOrAfter(sorted: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
