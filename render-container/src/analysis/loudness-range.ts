import { movingAverage } from "./stats";

/**
 * How far this stream's loudness moves, against an uncompressed broadcast's. Every loudness threshold of the
 * streamer's signal is in dB over the stream's baseline (a shout starts counting at +4 dB and is full at its
 * streamer's shouting level, 10-16 dB; the voice model listens from +4 dB). A broadcast chain that compresses the
 * whole mix — a common OBS setup — squeezes every rise: shouts 5-7 dB over calm talk end 2-3.5 dB over it, game
 * sounds likewise, and with thresholds made for an open mix the streamer shows almost no event at all (source c
 * through such a compressor: 3 of 37 streamer-only shouts and 17 of 53 hype moments over the stream's event level).
 *
 * The range is the loudest 3 s of the whole stream over its baseline: 9.8-16.7 dB on every stream of the
 * evaluation's open-mix sources (a, b, c: 104 streams), 4.7-7.5 dB on source c through a compressor. Below `openDb`
 * the thresholds shrink in proportion, never below `minScale` of themselves. The loudest stretch rather than a
 * share of the stream: a long VOD with a few big moments has them in a tiny share of its seconds and must keep
 * its thresholds; a compressed stream one impact punches through keeps them too (its shouts then stay small: the
 * safe way to be wrong). A stream where nothing at all rises far — compressed, or calm from end to end — gets
 * lower thresholds, and its most emphatic talk can then count as the streamer's event.
 */
export const LOUDNESS_RANGE = { smoothSeconds: 3, openDb: 10, minScale: 0.5 } as const;

/** The factor (minScale..1) the streamer signal's loudness thresholds take on this stream. */
export function loudnessScale(loudnessAboveBaselineDb: readonly number[]): number {
  if (loudnessAboveBaselineDb.length === 0) return 1;
  const smooth = movingAverage(loudnessAboveBaselineDb.map((db) => (Number.isFinite(db) ? db : 0)), (LOUDNESS_RANGE.smoothSeconds - 1) / 2);
  const top = Math.max(...smooth);
  return Math.min(1, Math.max(LOUDNESS_RANGE.minScale, top / LOUDNESS_RANGE.openDb));
}
