import { median } from "./stats";
import type { AudioAnalysis } from "./types";

/** Loudness below this is gated out of the baseline (ebur128 reports -120 LUFS for digital silence). */
export const GATE_LUFS = -70;

/**
 * What "usual loudness" means around each second. A stream's levels are not fixed from start to end: the
 * streamer leans back from the microphone for a quarter of an hour or turns its gain up, a game's scenes are louder
 * than others. Against one median of the whole stream, calm talk at the top of such a swing reads as a shout and a
 * shout at its bottom as calm talk (measured with `--levels drift`, voice ±3-6 dB and game ±2-5 dB over 6-16
 * minutes: the `streamer` profile's precision fell from 1.00 to 0.79, ten empty clips). The median of the gated
 * seconds within `halfWindowSeconds` either side follows such a swing and stays put under a moment: a fight of
 * 20 s or a shout of 9 s is a sixth of the window at most, and the median ignores it. Where the window holds
 * fewer than `minGatedSeconds` of sound (a silent stretch), the whole stream's median stands in.
 * Read every `stepSeconds` and joined by straight lines, so six hours cost a few milliseconds.
 *
 * Never more than `maxBelowStreamDb` under the whole stream's median: where the streamer says little for a minute
 * (long silences under the game's ambience, 15-20 dB under the talk) the window's median is the ambience, and the
 * next sentence read 15 dB over it, as loud as a shout (source c, `--moments none`: a greeting wave at seed 103's
 * start became a `streamer` clip). A voice that wanders by 3-6 dB (the drift above) stays inside the bound; a
 * quiet minute's ambience does not.
 *
 * Tried and not kept: following only the seconds of talk (the voice band's activity, which would say which seconds
 * are talk, is unreliable under loud game audio, and a guest's voice at its own level dilutes it: `--levels drift`
 * `streamer` precision 0.83), and leaving out the seconds under a relative gate 10 dB below the stream's median
 * (0.91: where the game's ambience swings across the gate, the median jumps).
 */
export const LOCAL_BASELINE = { halfWindowSeconds: 60, stepSeconds: 5, minGatedSeconds: 30, maxBelowStreamDb: 8 } as const;

export interface Baseline {
  /** The whole stream's median of the gated seconds (the gate itself when nothing passes it). */
  overallLufs: number;
  /** Per second: the median of the gated seconds around it, LUFS. */
  perSecondLufs: number[];
}

export function loudnessBaseline(loudnessLufs: readonly number[], gateLufs: number, rules = LOCAL_BASELINE): Baseline {
  const n = loudnessLufs.length;
  const gated = loudnessLufs.filter((v) => v > gateLufs);
  const overallLufs = gated.length > 0 ? median(gated) : gateLufs;
  const at = (centre: number) => {
    const values: number[] = [];
    for (let i = Math.max(0, centre - rules.halfWindowSeconds); i <= Math.min(n - 1, centre + rules.halfWindowSeconds); i++) {
      if (loudnessLufs[i]! > gateLufs) values.push(loudnessLufs[i]!);
    }
    return values.length >= rules.minGatedSeconds ? Math.max(overallLufs - rules.maxBelowStreamDb, median(values)) : overallLufs;
  };
  const step = rules.stepSeconds;
  const knots: number[] = [];
  for (let c = 0; c < n + step; c += step) knots.push(at(Math.min(c, n - 1)));
  const perSecondLufs = Array.from({ length: n }, (_, i) => {
    const k = Math.floor(i / step);
    const f = (i - k * step) / step;
    return knots[k]! + (knots[k + 1]! - knots[k]!) * f;
  });
  return { overallLufs, perSecondLufs };
}

/** Each second's loudness over the baseline around it, dB; a second under the gate counts as the gate. */
export function aboveBaseline(loudnessLufs: readonly number[], baseline: Baseline, gateLufs: number): number[] {
  return loudnessLufs.map((v, i) => Math.max(v, gateLufs) - baseline.perSecondLufs[i]!);
}

/**
 * Each second's loudness over the whole stream's median: what tells how far the mix lets anything rise at all
 * (loudness-range.ts), a property of the broadcast chain that does not wander with the levels.
 */
export function loudnessOverStreamDb(audio: Pick<AudioAnalysis, "loudnessLufs" | "baselineLufs">): number[] {
  return audio.loudnessLufs.map((v) => Math.max(v, GATE_LUFS) - audio.baselineLufs);
}
