import type { AudioAnalysis, SilenceRange } from "../types";
import { loudnessOverStreamDb } from "../local-baseline";
import type { Stretch } from "./candidate-stretches";
import { readPcm, SPEECH_PROBABILITY } from "./measure-voice";
import { loadVoiceModel, SILERO, type VoiceModel } from "./silero-model";
import { speechProbabilities } from "./speech-probabilities";

/**
 * Pauses in speech heard by the voice-activity model, where the voice-band envelope cannot tell them: under a
 * busy music bed (an arpeggio's notes rise and fall at syllable pace) the envelope never falls to its floor, so
 * it finds no pause at all and every clip edge lands in a sentence.
 *
 * A 32 ms window is quiet when the model hears no speech in it (probability below its threshold), or when the
 * model is unsure (below `unsureProbability`) and the level has dropped `dipDb` under the speech around it (the
 * 80th percentile of the 256 ms level over `referenceSeconds` either side): some music reads as speech to the
 * model at a moderate level, but the voice's own loudness leaves with the voice. A run of quiet windows lasting
 * `minSeconds` is a pause; shorter runs are the gaps between words. A second louder than `maxLoudDb` over the
 * stream's baseline (on both readings: over the level around it and over the whole stream's median) holds no
 * pause: the model hears no speech under an explosion or a siren as loud as a shout, but the streamer may be
 * talking under it (the first source's game noise with calm talk under it).
 *
 * Measured against the sentences planted in evaluation streams of two speech engines (9 streams, 1,020 gaps of
 * 0.3-3 s, music and game audio under them): the model alone at 0.3 s found 91-97 % of the gaps and split 1
 * sentence in 100; with the level's dip, at 0.35 s, 96-97 %, splitting 1 in 70 (espeak 1 in 170); the envelope's
 * own rule found 65 % and none under an arpeggio.
 */
export const SPEECH_PAUSE = { minSeconds: 0.35, unsureProbability: 0.9, dipDb: 10, levelWindows: 8, referenceSeconds: 3, referenceQuantile: 0.8, maxLoudDb: 6 } as const;

/**
 * A pause is where it is quiet. Where a sound starts inside a run the model hears no speech in (a music sting, an
 * impact), after a quiet part of it, a voice may have begun under the sound that the model does not hear, and the
 * pause ends where the quiet did. A sound: `minWindows` or more (a quarter second: the 256 ms level smears a word's
 * end `levelWindows / 2` windows into the pause) at `overFloorDb` or more over the run's quiet (its `floorQuantile`
 * level) and within `underSpeechDb` of the speech level around (SPEECH_PAUSE.referenceQuantile); quiet before it:
 * `minWindows` under the run's quiet + `quietDb`, at most `levelWindows` before the sound's first window. Measured on
 * source c: a sting at 166.9 s over the start of "We will do one more run and then take a short break." (167.0-169.1)
 * — the model heard no speech until 168.5, the pause ran 165.6-168.5, and a clip started at 168.0 inside the
 * sentence (three variants of seed 189; seed 188 the same through loudnorm and a compressor, where the sting rose
 * only 8 dB over the pause's quiet). Not a sound: one already playing where the pause begins (a sting's tail, an
 * alarm's beeps over the gap after a sentence: the model heard that gap right, and without it a cut went into the
 * next sentence), ambience a few dB over a moment of near silence (more than `underSpeechDb` under the talk: seed
 * 193, a 0.9 s pause between two sentences of a duo), a pause it would leave shorter than SPEECH_PAUSE.minSeconds.
 */
export const PAUSE_SOUND = { overFloorDb: 6, minWindows: 8, underSpeechDb: 6, quietDb: 3, floorQuantile: 0.1 } as const;

/**
 * Windows each lane of the model's batched run reads before its own part, when listening for pauses (2 s; the
 * model's default is 0.5 s: speech-probabilities.ts). The model's state settles in a few hundred ms on clear speech
 * but not on speech that starts it unsure (two voices at once, a voice through a normaliser): against one pass over
 * the whole, lanes warmed on 0.5 s called 0.35-0.5 s of speech quiet at the start of their part 7 times over five
 * source c streams (220,000 windows) — a pause inside a sentence for a clip edge to be put in (seed 188 at 1031 s,
 * two voices) — and none warmed on 1 or 2 s. Warming costs steps, not lanes: 48 more model calls per listening.
 */
export const PAUSE_LANE_WARMUP_WINDOWS = 64;

export interface HeardPauses {
  /** The stretches listened to, merged, in VOD order. */
  heard: Stretch[];
  /** Pauses inside them (a pause cut by a stretch's edge is kept for its heard part). */
  pauses: SilenceRange[];
}

/** Seconds of audio read before each stretch and discarded: the model's state settles on it. */
const PRE_ROLL_SECONDS = 0.5;

/** Listens to `ranges` of the VOD (from the PCM the analysis kept) and returns the pauses in speech there. */
export async function speechPausesIn(audio: Pick<AudioAnalysis, "pcm" | "loudnessAboveBaselineDb" | "loudnessLufs" | "baselineLufs">, ranges: readonly Stretch[], opts: { model?: VoiceModel } = {}): Promise<HeardPauses> {
  const overStream = loudnessOverStreamDb(audio);
  const heard = mergeStretches(ranges);
  if (heard.length === 0 || !audio.pcm?.length) return { heard: [], pauses: [] };
  const model = opts.model ?? (await loadVoiceModel());
  const rate = SILERO.sampleRate;
  const W = SILERO.window;
  const pieces = heard.map((s) => {
    const from = Math.max(0, s.start - PRE_ROLL_SECONDS);
    const samples = readPcm(audio.pcm!, from, s.end, rate);
    return { s, from, samples, windows: Math.ceil(samples.length / W) };
  });
  // One batched run over all pieces, each starting on a window boundary.
  const all = new Float32Array(pieces.reduce((n, p) => n + p.windows * W, 0));
  let at = 0;
  for (const p of pieces) {
    all.set(p.samples, at);
    at += p.windows * W;
  }
  const probs = await speechProbabilities(model, all, { warmupWindows: PAUSE_LANE_WARMUP_WINDOWS });
  const pauses: SilenceRange[] = [];
  let first = 0;
  const windowSeconds = W / rate;
  for (const p of pieces) {
    const level = windowLevels(p.samples, p.windows, W);
    const { dips, speech } = levelDips(level, windowSeconds);
    let from = -1;
    const own: SilenceRange[] = [];
    // Loud on both readings: over the level around the second (levels that wander) and over the whole stream's
    // median. Where the streamer says little for a minute the level around is the game's ambience, and calm talk
    // reads 15 dB over it: on that reading alone its pauses went unheard (source c seed 108, an edge at 350.00
    // inside a sentence, with the pauses either side of it not heard).
    const loudAt = (t: number) => {
      const i = Math.floor(t + windowSeconds / 2);
      return Math.min(audio.loudnessAboveBaselineDb[i] ?? 0, overStream[i] ?? 0) > SPEECH_PAUSE.maxLoudDb;
    };
    for (let w = 0; w <= p.windows; w++) {
      const t = p.from + w * windowSeconds;
      const prob = probs[first + w] ?? 0;
      const quiet = w < p.windows && t + windowSeconds > p.s.start && !loudAt(t) && (prob < SPEECH_PROBABILITY || (prob < SPEECH_PAUSE.unsureProbability && dips[w] === 1));
      if (quiet && from < 0) from = w;
      else if (!quiet && from >= 0) {
        for (const [a, b] of quietParts(level, speech, from, w, Math.ceil(SPEECH_PAUSE.minSeconds / windowSeconds))) {
          const start = Math.max(p.s.start, p.from + a * windowSeconds);
          const end = Math.min(p.s.end, p.from + b * windowSeconds);
          if (end - start >= SPEECH_PAUSE.minSeconds - 1e-9) own.push({ start: round3(start), end: round3(end) });
        }
        from = -1;
      }
    }
    const quietest = softPauses(own, { start: p.s.start, end: p.s.end }, (t) => level[Math.floor((t - p.from) / windowSeconds)], loudAt, windowSeconds);
    pauses.push(...[...own, ...quietest].sort((a, b) => a.start - b.start));
    first += p.windows;
  }
  return { heard, pauses };
}

/**
 * Where the model hears speech without a pause for longer than `SOFT_PAUSE.spanSeconds`, the quietest place in it,
 * as a short pause, when it lies `dipDb` or more under the speech level around it: a cut there is the least likely
 * to land in a word. Under a music bed pushed up by a compressor the model hears speech in every gap between
 * sentences (0.93 and more over a 1.5 s gap, where the same gap unsqueezed reads 0-0.3) and the gap's level falls
 * only 6-10 dB under the talk (the pause rule above needs 10), but for the whole gap, where a word's own dips
 * last a few windows; without this, an edge with no pause in reach was cut wherever the clip's length put it,
 * mid-word. Such a pause is `seconds` long, shorter than any heard pause, so cuts take it only where no pause is in
 * reach (boundaries.ts, firmPauseSeconds); none is made in a second loud enough to hide speech. Only in a stretch
 * of 5 s or more: in a shorter one the quietest place lay inside a sentence as often as not (measured over sampled
 * ranges of source c's compressed tuning streams: from 4 s, 102 of 377 soft pauses inside a sentence; from 5 s, 39
 * of 296, keeping 257 of the 275 that lay in a gap).
 */
export const SOFT_PAUSE = { spanSeconds: 5, windowSeconds: 0.32, edgeSeconds: 1, dipDb: 6, seconds: 0.2 } as const;

/**
 * The length that tells a soft pause from one heard as such: halfway between them, so the millisecond a heard
 * pause's rounded ends may take off it does not make it soft (the envelope's pauses are 0.45 s and more).
 */
export const FIRM_PAUSE_SECONDS = (SOFT_PAUSE.seconds + SPEECH_PAUSE.minSeconds) / 2;

/** A soft pause (SOFT_PAUSE) rather than one heard as such. */
export const isSoftPause = (p: SilenceRange): boolean => p.end - p.start < FIRM_PAUSE_SECONDS;

function softPauses(pauses: SilenceRange[], piece: Stretch, levelAt: (t: number) => number | undefined, loudAt: (t: number) => boolean, step: number): SilenceRange[] {
  const P = SOFT_PAUSE;
  const out: SilenceRange[] = [];
  const spans: Stretch[] = [];
  let at = piece.start;
  for (const q of pauses) {
    spans.push({ start: at, end: q.start });
    at = q.end;
  }
  spans.push({ start: at, end: piece.end });
  const n = Math.round(P.windowSeconds / step);
  while (spans.length) {
    const span = spans.pop()!;
    if (span.end - span.start < P.spanSeconds) continue;
    const levels: number[] = [];
    for (let t = span.start; t < span.end; t += step) levels.push(levelAt(t) ?? -Infinity);
    const speech = [...levels].sort((x, y) => x - y)[Math.floor(levels.length * SPEECH_PAUSE.referenceQuantile)]!;
    // The quietest `windowSeconds` (mean power), its centre at least `edgeSeconds` from either end of the span.
    let best = Infinity;
    let bestAt = -1;
    for (let c = span.start + P.edgeSeconds; c <= span.end - P.edgeSeconds; c += step) {
      let power = 0;
      let loud = false;
      for (let k = 0; k < n; k++) {
        const t = c - P.windowSeconds / 2 + k * step;
        power += 10 ** ((levelAt(t) ?? speech) / 10);
        loud ||= loudAt(t);
      }
      const db = 10 * Math.log10(power / n);
      if (!loud && db < best) [best, bestAt] = [db, c];
    }
    if (bestAt < 0 || best > speech - P.dipDb) continue;
    const half = P.seconds / 2;
    out.push({ start: round3(bestAt - half), end: round3(bestAt + half) });
    spans.push({ start: span.start, end: bestAt - half }, { start: bestAt + half, end: span.end });
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * The pause in the windows [from, to) of a run the model hears no speech in (PAUSE_SOUND): the run up to the end
 * of its quiet before a sound that starts inside it, or the whole run. `minWindows`: the shortest pause to leave
 * (a shorter one keeps the whole run).
 */
export function quietParts(level: ArrayLike<number>, speech: ArrayLike<number>, from: number, to: number, minWindows = 0): [number, number][] {
  const P = PAUSE_SOUND;
  // The run's quiet: its tenth-lowest level (a window of digital silence, -120 dB, is no floor to rise over).
  const sorted = Array.from({ length: to - from }, (_, k) => level[from + k]!).sort((a, b) => a - b);
  const floor = sorted[Math.floor(sorted.length * P.floorQuantile)]!;
  const sound = (w: number) => level[w]! >= floor + P.overFloorDb && level[w]! >= speech[w]! - P.underSpeechDb;
  const quiet = (w: number) => level[w]! < floor + P.quietDb;
  let quietEnd = -1; // the end of the last run of `minWindows` quiet windows
  let quietRun = 0;
  for (let w = from; w < to; w++) {
    quietRun = quiet(w) ? quietRun + 1 : 0;
    if (quietRun >= P.minWindows) quietEnd = w + 1;
    if (!sound(w) || quietEnd < 0 || w - quietEnd > SPEECH_PAUSE.levelWindows) continue;
    let end = w;
    while (end < to && sound(end)) end++;
    // A pause it would leave too short to be one stays whole: under the sound or not, a cut is then no worse off.
    if (end - w >= P.minWindows) return quietEnd - from >= minWindows ? [[from, quietEnd]] : [[from, to]];
    w = end - 1;
    quietRun = 0;
  }
  return [[from, to]];
}

/** The level of every 32 ms window, dB: the power over `levelWindows` windows around it. */
function windowLevels(samples: Float32Array, windows: number, W: number): Float64Array {
  const power = new Float64Array(windows);
  for (let w = 0; w < windows; w++) {
    let sum = 0;
    for (let i = w * W; i < Math.min(samples.length, (w + 1) * W); i++) sum += samples[i]! * samples[i]!;
    power[w] = sum / W;
  }
  const level = new Float64Array(windows);
  const h = SPEECH_PAUSE.levelWindows / 2;
  for (let w = 0; w < windows; w++) {
    let sum = 0;
    let n = 0;
    for (let k = Math.max(0, w - h); k < Math.min(windows, w + h); k++, n++) sum += power[k]!;
    level[w] = 10 * Math.log10(sum / Math.max(1, n) + 1e-12);
  }
  return level;
}

/**
 * Per window: the speech level around it (the `referenceQuantile` of the 256 ms level over `referenceSeconds` either
 * side), and 1 in `dips` where the 256 ms level lies `dipDb` or more under it.
 */
function levelDips(level: Float64Array, windowSeconds: number): { dips: Uint8Array; speech: Float64Array } {
  const P = SPEECH_PAUSE;
  const windows = level.length;
  const dips = new Uint8Array(windows);
  const reference = new Float64Array(windows);
  const half = Math.round(P.referenceSeconds / windowSeconds);
  const step = Math.max(1, Math.round(0.5 / windowSeconds));
  for (let c = 0; c < windows; c += step) {
    const around = Array.from(level.subarray(Math.max(0, c - half), Math.min(windows, c + half))).sort((a, b) => a - b);
    const speech = around[Math.floor(around.length * P.referenceQuantile)]!;
    for (let w = c; w < Math.min(windows, c + step); w++) {
      reference[w] = speech;
      if (level[w]! <= speech - P.dipDb) dips[w] = 1;
    }
  }
  return { dips, speech: reference };
}

/**
 * The analysis' pauses with the heard ones in place of the envelope's inside the heard stretches (an envelope
 * pause reaching into one is left out: the model has heard that place).
 */
export function withHeardPauses(pauses: readonly SilenceRange[] | undefined, heard: HeardPauses): SilenceRange[] {
  const outside = (pauses ?? []).filter((p) => !heard.heard.some((h) => p.start < h.end && p.end > h.start));
  return [...outside, ...heard.pauses].sort((a, b) => a.start - b.start);
}

/** Stretches sorted and joined where they touch or overlap. */
export function mergeStretches(ranges: readonly Stretch[]): Stretch[] {
  const sorted = ranges.filter((r) => r.end > r.start).map((r) => ({ start: Math.max(0, r.start), end: r.end })).sort((a, b) => a.start - b.start);
  const out: Stretch[] = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
