import { median, movingAverage, powerToDb, quantile } from "./stats";
import type { SilenceRange } from "./types";

export interface VoiceFeatureOptions {
  /** dB above the voice floor a frame must reach to count as voiced. */
  activityMarginDb?: number;
  /** Dip (dB) the envelope must make between two syllable-like peaks. */
  syllableDipDb?: number;
  /** dB above the floor a syllable peak must reach. */
  syllableMarginDb?: number;
  /** A pause must fall to this many dB above the floor to be a cut point. */
  pauseMarginDb?: number;
  /**
   * A quiet run at least this long is a pause between sentences (default 0.45 s): the gaps inside a sentence
   * (stops, commas) are shorter, so a cut inside such a pause never cuts through a sentence.
   */
  minPauseSeconds?: number;
}

export interface VoiceFeatures {
  voiceDb: number[];
  voiceFloorDb: number;
  speechActivity: number[];
  speechRate: number[];
  quietPoints: number[];
  pauses: SilenceRange[];
}

/**
 * Derives speech signals from the voice-band energy envelope. Speech is the part of the envelope that rises
 * well above the stream's own floor and moves at syllable pace (peaks separated by dips), which steady game
 * audio or music does not do.
 */
export function deriveVoiceFeatures(
  envelopeDb: Float32Array,
  frameSeconds: number,
  seconds: number,
  silences: readonly SilenceRange[],
  opts: VoiceFeatureOptions = {},
): VoiceFeatures {
  const activityMargin = opts.activityMarginDb ?? 8;
  const dip = opts.syllableDipDb ?? 4;
  const syllableMargin = opts.syllableMarginDb ?? 10;
  const pauseMargin = opts.pauseMarginDb ?? 6;
  const perSecond = Math.round(1 / frameSeconds);

  // The 10th percentile: the level between words and in quiet stretches, whatever the background is.
  const floor = envelopeDb.length > 0 ? quantile(envelopeDb, 0.1) : -120;
  // 60 ms smoothing keeps syllable nuclei (~100-250 ms apart) while removing pitch-period ripple.
  const smooth = movingAverage(envelopeDb, 1);

  const localFloor = localFloors(smooth, floor, perSecond, seconds);
  const voiceDb = new Array<number>(seconds).fill(-120);
  const speechActivity = new Array<number>(seconds).fill(0);
  const speechRate = new Array<number>(seconds).fill(0);
  const quiet: number[] = [];

  for (let s = 0; s < seconds; s++) {
    const a = s * perSecond;
    const b = Math.min(envelopeDb.length, a + perSecond);
    if (b <= a) continue;
    let power = 0;
    let voiced = 0;
    let minIdx = a;
    for (let i = a; i < b; i++) {
      power += 10 ** (envelopeDb[i]! / 10);
      if (smooth[i]! > localFloor[s]! + activityMargin) voiced++;
      if (smooth[i]! < smooth[minIdx]!) minIdx = i;
    }
    voiceDb[s] = powerToDb(power / (b - a));
    speechActivity[s] = voiced / (b - a);
    if (smooth[minIdx]! <= floor + pauseMargin) quiet.push((minIdx + 0.5) * frameSeconds);
  }

  // Syllable nuclei: a peak counts when the envelope dipped by `dip` dB since the previous counted peak.
  let lastPeak = -Infinity;
  let minSince = Infinity;
  let lastPeakIdx = -1;
  for (let i = 1; i < smooth.length - 1; i++) {
    const v = smooth[i]!;
    if (v < minSince) minSince = v;
    const isPeak = v > smooth[i - 1]! && v >= smooth[i + 1]!;
    if (!isPeak || v < floor + syllableMargin) continue;
    if (lastPeakIdx < 0 || Math.min(lastPeak, v) - minSince >= dip) {
      const s = Math.floor(i / perSecond);
      if (s < seconds) speechRate[s]! += 1;
      lastPeak = v;
      lastPeakIdx = i;
      minSince = v;
    } else if (v > lastPeak) {
      // Same syllable, higher crest: move the nucleus instead of counting twice.
      const prevS = Math.floor(lastPeakIdx / perSecond);
      const s = Math.floor(i / perSecond);
      if (prevS !== s && s < seconds) {
        speechRate[prevS]! -= 1;
        speechRate[s]! += 1;
      }
      lastPeak = v;
      lastPeakIdx = i;
      minSince = v;
    }
  }

  for (const r of silences) quiet.push((r.start + r.end) / 2);
  quiet.sort((x, y) => x - y);
  const pauses = findPauses(smooth, localFloor, pauseMargin, frameSeconds, opts.minPauseSeconds ?? 0.45);
  return { voiceDb, voiceFloorDb: floor, speechActivity, speechRate, quietPoints: dedupeSorted(quiet, 0.25), pauses };
}

const DIGITAL_SILENCE_DB = -100;

/**
 * The level between words around each second: the median, over the minute around it, of each second's lowest
 * 60 ms (never below the stream's own floor). A stream with long quiet stretches (a break screen, the bed
 * turned down) has its overall floor there; the pauses in its talk sit well above that, at the local floor.
 * The median keeps a quiet stretch next door (up to half the window) from pulling the level down; digital
 * silence (a DMCA-muted segment) is left out.
 */
function localFloors(smooth: ArrayLike<number>, floor: number, perSecond: number, seconds: number): Float64Array {
  const minima: number[] = [];
  for (let sec = 0; sec < seconds; sec++) {
    let m = Infinity;
    for (let i = sec * perSecond; i < Math.min(smooth.length, (sec + 1) * perSecond); i++) if (smooth[i]! > DIGITAL_SILENCE_DB && smooth[i]! < m) m = smooth[i]!;
    minima.push(m);
  }
  const step = 10;
  const half = 30;
  const samples: number[] = [];
  for (let c = 0; c < Math.max(1, seconds); c += step) {
    const q = median(minima.slice(Math.max(0, c - half), Math.min(seconds, c + half + 1)));
    samples.push(Number.isFinite(q) ? Math.max(floor, q) : floor);
  }
  const out = new Float64Array(seconds);
  for (let sec = 0; sec < seconds; sec++) out[sec] = samples[Math.min(samples.length - 1, Math.round(sec / step))]!;
  return out;
}

/** Runs of envelope frames within `margin` dB of their second's local floor lasting at least `minSeconds`. */
function findPauses(envelope: ArrayLike<number>, floors: Float64Array, margin: number, frameSeconds: number, minSeconds: number): SilenceRange[] {
  const out: SilenceRange[] = [];
  const perSecond = Math.round(1 / frameSeconds);
  let from = -1;
  for (let i = 0; i <= envelope.length; i++) {
    const quiet = i < envelope.length && envelope[i]! <= floors[Math.min(floors.length - 1, Math.floor(i / perSecond))]! + margin;
    if (quiet && from < 0) from = i;
    else if (!quiet && from >= 0) {
      if ((i - from) * frameSeconds >= minSeconds - 1e-9) out.push({ start: from * frameSeconds, end: i * frameSeconds });
      from = -1;
    }
  }
  return out;
}

function dedupeSorted(xs: number[], minGap: number): number[] {
  const out: number[] = [];
  for (const x of xs) if (out.length === 0 || x - out[out.length - 1]! >= minGap) out.push(x);
  return out;
}
