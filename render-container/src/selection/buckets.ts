/** One scoring bucket: its best second and that second's score. */
export interface BucketPeak {
  /** Second index of the highest score in the bucket. */
  peakSecond: number;
  score: number;
}

/**
 * Splits the per-second scores into buckets of `bucketSize` seconds and keeps each bucket's best second.
 * A bucket's score is its maximum, not its mean: a 5 s shout inside a 60 s bucket is still a moment.
 */
export function bucketPeaks(scores: readonly number[], bucketSize: number): BucketPeak[] {
  const size = Math.max(1, Math.floor(bucketSize));
  const out: BucketPeak[] = [];
  for (let a = 0; a < scores.length; a += size) {
    let best = a;
    const b = Math.min(scores.length, a + size);
    for (let i = a + 1; i < b; i++) if (scores[i]! > scores[best]!) best = i;
    out.push({ peakSecond: best, score: scores[best]! });
  }
  return out;
}

/** Buckets whose score beats the threshold, best first (ties: earlier first, so results are stable). */
export function candidatePeaks(scores: readonly number[], bucketSize: number, minScore: number): BucketPeak[] {
  return bucketPeaks(scores, bucketSize)
    .filter((b) => b.score > minScore)
    .sort((x, y) => y.score - x.score || x.peakSecond - y.peakSecond);
}
