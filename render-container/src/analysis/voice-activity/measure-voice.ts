import { closeSync, openSync, readSync } from "node:fs";
import { quantile } from "../stats";
import type { AudioAnalysis, PcmSpan } from "../types";
import { loudnessOverStreamDb } from "../local-baseline";
import { CANDIDATE_RULES, candidateStretches, type Stretch } from "./candidate-stretches";
import { voicedPower } from "./periodicity";
import { voiceWindows, type PitchedWindow } from "./pitch-climb";
import { spectralLikeness, unheldShares, windowSpectra, type WindowSpectra } from "./unheld-share";
import { loadVoiceModel, SILERO, type VoiceModel } from "./silero-model";
import { speechProbabilities } from "./speech-probabilities";
import { levelOf, referenceStretches, talkSecondsOf, usualLevels, wholeUsualPower, type ReferenceSecond } from "./usual-level";

/** A window the model gives at least this probability is speech (Silero's own default threshold). */
export const SPEECH_PROBABILITY = 0.5;
/** Audio read before each stretch and discarded: the model's state settles on it. */
const PRE_ROLL_SECONDS = 0.5;

export interface VoiceActivityResult {
  /** voiceShare per second (-1: not measured); see AudioAnalysis.voiceShare. */
  voiceShare: number[];
  /** voiceRiseDb per second (NO_VOICE_RISE: not measured or no speech); see AudioAnalysis.voiceRiseDb. */
  voiceRiseDb: number[];
  /** voicePitchRise per second (NO_PITCH_RISE: not measured); see AudioAnalysis.voicePitchRise. */
  voicePitchRise: number[];
  stretches: Stretch[];
  measuredSeconds: number;
  /** What the rises were read against; for diagnosis (scripts/highlight-eval/inspect-stream.ts), not stored. */
  usual: UsualReading;
}

export interface UsualReading {
  /** The usual pitch and a second voice's (semitones; null: unclear or none). */
  pitch: number | null;
  otherPitch: number | null;
  /** Reference seconds read, and how many of them are talk (usual-level.ts TALK). */
  referenceSeconds: number;
  talkSeconds: number;
  /** The usual level around a VOD second (dB of voiced power), null where nothing was read. */
  levelDbAt: (t: number) => number | null;
}

/** voiceRiseDb where the second was not measured, or held too little speech to say. */
export const NO_VOICE_RISE = -99;
/** voicePitchRise where the second was not measured, held too few clearly voiced windows, or the usual pitch is unclear. */
export const NO_PITCH_RISE = -99;

/**
 * The voice's pitch: read on speech windows at least `minPeriodicity` periodic (clearly voiced; a window the
 * game fills reads the game's pitch, if any) and not an instrument's (the held-pitch rules). A second needs
 * `minWindows` of them; the usual pitch is the median over the reference stretches' windows, and is unclear —
 * two voices taking turns (a streamer and a guest an octave apart), or no voiced talk to read — where their
 * quartiles lie more than `maxUsualSpread` semitones apart: then no second gets a pitch rise.
 *
 * A window pitched more than `maxSemitones` (an octave) over the usual pitch is not this voice: a shout's median
 * pitch climbs 5-10 semitones, while a music bed's notes under the talk — a fast arpeggio changes note every
 * sixteenth, too fast for the held- and recurring-pitch rules — sit one to two octaves over a low voice and the
 * voice model hears them as speech (Silero's median 0.94 on source c's arpeggio swells). Such windows count
 * neither in the second's pitch nor in its voiced power; where no usual pitch is known, all count as before.
 * Measured on source c's tuning seeds: a music swell read 14-19 semitones up with its voice "rising" 11 dB, a
 * streamer-profile clip on it; without those windows it rose not at all and the clip went, no shout of the
 * evaluation was lost. But a shout can climb more than an octave (a low voice's "WE DID IT!" at +12-15): windows over
 * it joined to the voice's own range by small steps are the voice climbing and count (pitch-climb.ts); notes jump
 * there and do not. The reference stretches' power keeps all its windows: their pitch is what the usual pitch is
 * read from.
 */
export const PITCH_RISE = { minPeriodicity: 0.5, minWindows: 3, maxUsualSpread: 4, minUsualWindows: 30, maxSemitones: 12 } as const;

/** The lowest rise a measured second gets (its speech windows held no voiced power: music's held notes). */
const MIN_VOICE_RISE = -60;

/** A second needs this many speech windows for its voice level to mean anything. */
const MIN_SPEECH_WINDOWS = 3;

/**
 * Measures, on the loud stretches of the VOD, how much of each second's energy the voice-activity model hears
 * as speech (a shout over an explosion is mostly speech, the explosion alone or a music swell is not), and how
 * far the voice itself rises over this streamer's usual talking level: the top quarter of the second's speech
 * windows' voiced power (their power in the voice's band times their periodicity: periodicity.ts) against the
 * same read on the ordinary stretches' seconds of talk around it (usual-level.ts). Voiced power is what tells a shout from calm talk through
 * gunfire or under an explosion: a shout's windows are loud and periodic, the game's cracks and rumble are
 * neither periodic nor in the voice's band. Reads the PCM the analysis kept (AudioAnalysis.pcm), so nothing is
 * decoded twice.
 */
export async function measureVoiceActivity(audio: AudioAnalysis, opts: { model?: VoiceModel; signal?: AbortSignal } = {}): Promise<VoiceActivityResult> {
  const seconds = audio.loudnessAboveBaselineDb.length;
  const voiceShare = new Array<number>(seconds).fill(-1);
  const voiceRiseDb = new Array<number>(seconds).fill(NO_VOICE_RISE);
  const voicePitchRise = new Array<number>(seconds).fill(NO_PITCH_RISE);
  const stretches = candidateStretches(audio.loudnessAboveBaselineDb, CANDIDATE_RULES, loudnessOverStreamDb(audio));
  const unread: UsualReading = { pitch: null, otherPitch: null, referenceSeconds: 0, talkSeconds: 0, levelDbAt: () => null };
  if (stretches.length === 0 || !audio.pcm?.length) return { voiceShare, voiceRiseDb, voicePitchRise, stretches: [], measuredSeconds: 0, usual: unread };
  const model = opts.model ?? (await loadVoiceModel());
  const rate = SILERO.sampleRate;
  const W = SILERO.window;
  const references = referenceStretches(audio.loudnessAboveBaselineDb, stretches);

  // All stretches, each after its pre-roll, in one array whose pieces start on window boundaries: one batched run.
  const pieces = [...stretches.map((s) => ({ s, reference: false })), ...references.map((s) => ({ s, reference: true }))].map(({ s, reference }) => {
    const from = Math.max(0, s.start - PRE_ROLL_SECONDS);
    return { stretch: s, reference, from, samples: readPcm(audio.pcm!, from, s.end, rate) };
  });
  const windowsOf = (p: (typeof pieces)[number]) => Math.ceil(p.samples.length / W);
  const all = new Float32Array(pieces.reduce((n, p) => n + windowsOf(p) * W, 0));
  let at = 0;
  for (const p of pieces) {
    all.set(p.samples, at);
    at += windowsOf(p) * W;
  }
  opts.signal?.throwIfAborted();
  const probs = await speechProbabilities(model, all);

  // Per second of each piece: total energy, energy in speech windows, and the speech windows' powers.
  // `contour`: the piece's pitched windows in order; `pitches` (per second) index it, `powerWindows` says which of
  // them each of `powers` is (-1: not clearly voiced).
  const measured: { start: number; energy: Float64Array; speech: Float64Array; speechWindows: Uint16Array; powers: number[][]; powerWindows: number[][]; pitches: number[][]; contour: PitchedWindow[] }[] = [];
  const referenceSeconds: ReferenceSecond[] = [];
  const usualPitches: number[] = [];
  let firstWindow = 0;
  for (const p of pieces) {
    const n = p.stretch.end - p.stretch.start;
    const m = {
      start: p.stretch.start,
      energy: new Float64Array(n),
      speech: new Float64Array(n),
      speechWindows: new Uint16Array(n),
      powers: Array.from({ length: n }, () => [] as number[]),
      powerWindows: Array.from({ length: n }, () => [] as number[]),
      pitches: Array.from({ length: n }, () => [] as number[]),
      contour: [] as PitchedWindow[],
    };
    // Each speech window's voiced power and period; windows inside a held pitch (music) lose their voiced power.
    const perWindow: { w: number; s: number; voiced: number; period: number; periodicity: number; pitch: number }[] = [];
    const spectra = windowSpectra(p.samples, W);
    const unheld = unheldShares(p.samples, W, spectra);
    for (let w = 0; w < windowsOf(p); w++) {
      const s = Math.floor(p.from + (w * W + W / 2) / rate) - p.stretch.start;
      if (s < 0 || s >= n) continue;
      let power = 0;
      for (let i = w * W; i < Math.min(p.samples.length, (w + 1) * W); i++) power += p.samples[i]! * p.samples[i]!;
      m.energy[s] += power;
      if ((probs[firstWindow + w] ?? 0) < SPEECH_PROBABILITY) continue;
      m.speech[s] += power;
      // The voice's own level: the window's voiced power (periodicity.ts), so gunfire or an impact under calm
      // talk does not pass for a raised voice.
      const vp = voicedPower(p.samples, w * W, Math.min(W, p.samples.length - w * W), rate);
      perWindow.push({
        w,
        s,
        voiced: vp.power * vp.periodicity * unheld[w]!,
        period: vp.periodicity >= HELD_PITCH.minPeriodicity ? vp.period : 0,
        periodicity: vp.periodicity,
        pitch: vp.periodicity >= PITCH_RISE.minPeriodicity && vp.pitchPeriod > 0 ? semitones(rate / vp.pitchPeriod) : Number.NaN,
      });
    }
    const held = new Uint8Array(perWindow.length);
    for (const run of heldPitchRuns(perWindow.map((x) => x.period))) held.fill(1, run.from, run.to);
    recurringPitch(perWindow).forEach((r, k) => {
      if (r) held[k] = 1;
    });
    // A held or recurring pitch is an instrument's only if its sound recurs too: a monotone voice keeps its pitch
    // but not its vowels.
    held.set(toneWindows(perWindow, held, spectra));
    const usual: ReferenceSecond[] = Array.from({ length: n }, (_, s) => ({ at: p.stretch.start + s, voiced: [], pitch: [] }));
    perWindow.forEach((x, k) => {
      const pitched = !held[k] && Number.isFinite(x.pitch);
      if (p.reference) {
        if (!held[k]) {
          usual[x.s]!.voiced.push(x.voiced);
          usual[x.s]!.pitch.push(pitched ? x.pitch : Number.NaN);
        }
        if (pitched) usualPitches.push(x.pitch);
      } else {
        m.speechWindows[x.s]!++;
        const at = pitched ? m.contour.push({ w: x.w, pitch: x.pitch }) - 1 : -1;
        if (!held[k]) {
          m.powers[x.s]!.push(x.voiced);
          m.powerWindows[x.s]!.push(at);
        }
        if (pitched) m.pitches[x.s]!.push(at);
      }
    });
    if (p.reference) referenceSeconds.push(...usual);
    else measured.push(m);
    firstWindow += windowsOf(p);
  }
  const usualPitch = usualPitchOf(usualPitches);
  const otherPitch = usualPitch === null ? null : otherVoicePitchOf(usualPitches, usualPitch);
  // Over this a window is the voice's only where it climbed there (pitch-climb.ts); nothing is over it where no
  // usual pitch is known. The reference seconds are calm talk: there a window over it is never the voice's.
  const ceiling = usualPitch === null ? Infinity : usualPitch + PITCH_RISE.maxSemitones;
  const readable = referenceSeconds.map((r) => {
    const keep = r.pitch.map((p) => !(p > ceiling));
    return { at: r.at, voiced: r.voiced.filter((_, k) => keep[k]), pitch: r.pitch.filter((_, k) => keep[k]) };
  });
  const voices = [usualPitch, otherPitch].filter((p): p is number => p !== null);
  const wholePower = wholeUsualPower(referenceSeconds);
  const usualAround = usualLevels(readable, voices, MIN_SPEECH_WINDOWS);
  // The usual level at a time (usual-level.ts: a microphone's level wanders); NaN where nothing was read.
  const usualPowerAt = (t: number) => (usualAround ? usualAround(t) : wholePower);
  for (const m of measured) {
    // Read where the stretch is; a stretch is seconds long.
    const usualPower = usualPowerAt(m.start + m.energy.length / 2);
    const voice = voiceWindows(m.contour, ceiling);
    for (let s = 0; s < m.energy.length; s++) {
      // Windows pitched far above any voice's rise and not climbed to are not the voice (music's notes): neither its
      // pitch nor its power.
      const pitches = m.pitches[s]!.filter((i) => voice[i]).map((i) => m.contour[i]!.pitch);
      if (usualPitch !== null && pitches.length >= PITCH_RISE.minWindows) voicePitchRise[m.start + s] = pitchRiseOver(quantile(pitches, 0.5), usualPitch, otherPitch);
      voiceShare[m.start + s] = m.energy[s]! > 0 ? m.speech[s]! / m.energy[s]! : 0;
      const powers = m.powers[s]!.filter((_, k) => {
        const i = m.powerWindows[s]![k]!;
        return i < 0 || voice[i] === 1;
      });
      if (powers.length >= MIN_SPEECH_WINDOWS && usualPower > 0) voiceRiseDb[m.start + s] = Math.max(MIN_VOICE_RISE, 10 * Math.log10(levelOf(powers) / usualPower));
      // Speech heard, but held notes fill the second: the voice never rises above the music there.
      else if (m.speechWindows[s]! >= MIN_SPEECH_WINDOWS && usualPower > 0) voiceRiseDb[m.start + s] = MIN_VOICE_RISE;
    }
  }
  const usual: UsualReading = {
    pitch: usualPitch,
    otherPitch,
    referenceSeconds: readable.length,
    talkSeconds: talkSecondsOf(readable, voices, MIN_SPEECH_WINDOWS).length,
    levelDbAt: (t) => {
      const power = usualPowerAt(t);
      return power > 0 ? 10 * Math.log10(power) : null;
    },
  };
  return { voiceShare, voiceRiseDb, voicePitchRise, stretches, measuredSeconds: stretches.reduce((n, s) => n + s.end - s.start, 0), usual };
}

/** A frequency in semitones (above 1 Hz: only differences matter). */
const semitones = (hz: number) => 12 * Math.log2(hz);

/**
 * A second voice in the ordinary talk, pitched well over the streamer's (a guest or a teammate; often a higher
 * voice): a cluster of at least `minShare` of the reference windows' pitches, `minApart` to
 * PITCH_RISE.maxSemitones over the usual pitch. The usual-pitch rule sees a second voice only where its quartiles
 * spread (a guest who talks a quarter of the time or more); a guest who talks a tenth of the time leaves them as
 * they were, and every calm sentence of theirs read as the streamer's voice raised 8-11 semitones (source c, a
 * compressed duo stream: reference windows at 79.7-82.5 semitones and 10 % of them at 89-93, the guest's).
 */
export const OTHER_VOICE = { minApart: 5, minShare: 0.08, within: 2 } as const;

/** The median pitch of that cluster, or null where there is none. */
export function otherVoicePitchOf(pitches: readonly number[], usual: number): number | null {
  const above = pitches.filter((p) => p - usual >= OTHER_VOICE.minApart && p - usual <= PITCH_RISE.maxSemitones);
  return pitches.length > 0 && above.length >= OTHER_VOICE.minShare * pitches.length ? quantile(above, 0.5) : null;
}

/**
 * A second's pitch rise: over the usual pitch, or, for a second pitched near the other voice's usual pitch or over
 * it (OTHER_VOICE), over that voice's: a guest's calm sentence is no raised voice, and a guest who shouts climbs
 * over their own pitch. A streamer's shout that climbs to just the guest's pitch loses its pitch effort then
 * (its level and its voice's rise still count).
 */
export function pitchRiseOver(pitch: number, usual: number, other: number | null): number {
  return other !== null && pitch >= other - OTHER_VOICE.within ? pitch - other : pitch - usual;
}

/** The usual pitch (semitones) of the reference windows' pitches, or null where it is unclear (PITCH_RISE). */
export function usualPitchOf(pitches: readonly number[]): number | null {
  if (pitches.length < PITCH_RISE.minUsualWindows) return null;
  if (quantile(pitches, 0.75) - quantile(pitches, 0.25) > PITCH_RISE.maxUsualSpread) return null;
  return quantile(pitches, 0.5);
}

/**
 * A natural voice seldom holds its pitch: even a sustained shout wavers by a few per cent within a tenth of a
 * second. An instrument does (a music sting's notes, a synth pad, a siren's tone): consecutive speech windows whose
 * period stays within `tolerance` for at least `minWindows` are music playing under the talk, and their periodic
 * power is not the voice's — where their spectrum recurs too (HELD_TONE: a voice on one pitch does hold it).
 */
export const HELD_PITCH = { minWindows: 10, tolerance: 0.02, minPeriodicity: 0.3 } as const;

/**
 * A tone that sounds in bursts (a game's alarm or countdown beeps, 0.3 s on and 0.3 s off) never holds its pitch
 * for `HELD_PITCH.minWindows` windows in a row, but it comes back at the same period: a speech window whose period
 * recurs (within the held-pitch tolerance) in at least `RECURRING_PITCH.minWindows` speech windows within
 * `spanWindows` either side of it (about a second in all) is that tone, not the voice: a voice's pitch moves on
 * within a second. The period is read at twice or three times its length in some of a square tone's windows
 * (their sub-harmonics are as periodic): those count too.
 */
export const RECURRING_PITCH = { spanWindows: 16, minWindows: 10 } as const;

/** Periods within the held-pitch tolerance of each other, or of twice or three times the other. */
function samePitch(q: number, p: number): boolean {
  if (q <= 0 || p <= 0) return false;
  const [a, b] = q < p ? [q, p] : [p, q];
  return [1, 2, 3].some((k) => Math.abs(b - k * a) <= HELD_PITCH.tolerance * k * a + 1e-9);
}

/** Per entry (speech windows with their window index `w` and period, 0: none): true where its period recurs. */
export function recurringPitch(windows: readonly { w: number; period: number }[]): boolean[] {
  const out = new Array<boolean>(windows.length).fill(false);
  let lo = 0;
  let hi = 0;
  for (let k = 0; k < windows.length; k++) {
    const { w, period } = windows[k]!;
    while (windows[lo]!.w < w - RECURRING_PITCH.spanWindows) lo++;
    while (hi < windows.length && windows[hi]!.w <= w + RECURRING_PITCH.spanWindows) hi++;
    if (period <= 0 || hi - lo < RECURRING_PITCH.minWindows) continue;
    let same = 0;
    for (let j = lo; j < hi; j++) {
      if (samePitch(windows[j]!.period, period)) same++;
    }
    out[k] = same >= RECURRING_PITCH.minWindows;
  }
  return out;
}

/**
 * A held or recurring pitch is taken for an instrument (a note, a chord, an alarm's beeps) only where its sound
 * recurs with it. A tone repeats its harmonics at the same strengths; a voice speaking on one pitch (a monotone
 * synthetic voice, a chant) moves its formants with every vowel. Per flagged window, the median cosine of its
 * magnitude spectrum against the windows `minApart` to `RECURRING_PITCH.spanWindows` away at the same pitch
 * (closer ones are the same syllable); a flagged window stays flagged where the median of that over its group
 * (the flagged windows around it at its pitch) is at least `likeness`. Measured: a two-tone alarm under calm
 * talk 0.83-0.87 per group (its windows 0.75-0.96: talk over some of them makes them unlike the rest); monotone
 * flite voices' windows 0.58-0.75 at the median, 0.80-0.86 at the 90th percentile; natural voices' windows the
 * recurring rule took 0.73. Without it a monotone voice lost most of its windows to the pitch rules, its usual
 * level was read on the few left, and calm talk under gunfire rose 24 dB. At 0.85 a group of the alarm's
 * windows fell under the line and calm talk under it scored as a shout.
 */
export const HELD_TONE = { likeness: 0.8, minApart: 4 } as const;

/** [lo, hi): the speech windows (ordered by `w`) within `RECURRING_PITCH.spanWindows` of window k. */
function around(windows: readonly { w: number }[], k: number): [number, number] {
  const w = windows[k]!.w;
  let lo = k;
  while (lo > 0 && windows[lo - 1]!.w >= w - RECURRING_PITCH.spanWindows) lo--;
  let hi = k + 1;
  while (hi < windows.length && windows[hi]!.w <= w + RECURRING_PITCH.spanWindows) hi++;
  return [lo, hi];
}

/** The median spectral likeness of speech window k to the others at its pitch (1 where there are none to compare). */
export function toneLikeness(windows: readonly { w: number; period: number }[], k: number, spectra: WindowSpectra): number {
  const { w, period } = windows[k]!;
  const [lo, hi] = around(windows, k);
  const values: number[] = [];
  for (let j = lo; j < hi; j++) {
    const other = windows[j]!;
    if (Math.abs(other.w - w) < HELD_TONE.minApart || !samePitch(other.period, period)) continue;
    values.push(spectralLikeness(spectra, w, other.w));
  }
  return values.length > 0 ? quantile(values, 0.5) : 1;
}

/**
 * Which of the `held` windows (flagged by the pitch rules) are an instrument's (HELD_TONE): judged on the group
 * rather than the window, as talk over an alarm makes some of its windows unlike the others and they are still
 * the alarm's.
 */
export function toneWindows(windows: readonly { w: number; period: number }[], held: Uint8Array, spectra: WindowSpectra): Uint8Array {
  const likeness = new Float64Array(windows.length);
  held.forEach((h, k) => {
    if (h) likeness[k] = toneLikeness(windows, k, spectra);
  });
  const out = new Uint8Array(windows.length);
  held.forEach((h, k) => {
    if (!h) return;
    const [lo, hi] = around(windows, k);
    const group: number[] = [];
    for (let j = lo; j < hi; j++) if (held[j] && samePitch(windows[j]!.period, windows[k]!.period)) group.push(likeness[j]!);
    out[k] = quantile(group, 0.5) >= HELD_TONE.likeness ? 1 : 0;
  });
  return out;
}

/** Runs [from, to) of consecutive windows (indexes into `periods`, 0: no period) holding one period. */
export function heldPitchRuns(periods: readonly number[]): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  let from = 0;
  for (let i = 1; i <= periods.length; i++) {
    const a = periods[from]!;
    const b = periods[i];
    const same = b !== undefined && a > 0 && b > 0 && Math.abs(b - a) <= HELD_PITCH.tolerance * a + 1e-9;
    if (same) continue;
    if (i - from >= HELD_PITCH.minWindows && a > 0) out.push({ from, to: i });
    from = i;
  }
  return out;
}

/** Samples (-1..1) of VOD time [from, to) from the kept PCM spans; zeros where no span has them. */
export function readPcm(spans: readonly PcmSpan[], from: number, to: number, rate: number): Float32Array {
  const out = new Float32Array(Math.max(0, Math.round((to - from) * rate)));
  for (const span of spans) {
    const a = Math.max(from, span.start);
    const b = Math.min(to, span.start + span.samples / span.sampleRate);
    if (b <= a || span.sampleRate !== rate) continue;
    const first = Math.round((a - span.start) * rate);
    const count = Math.min(span.samples - first, Math.round((b - a) * rate));
    if (count <= 0) continue;
    const buf = Buffer.alloc(count * 2);
    const fd = openSync(span.file, "r");
    try {
      readSync(fd, buf, 0, buf.length, first * 2);
    } finally {
      closeSync(fd);
    }
    const offset = Math.round((a - from) * rate);
    for (let i = 0; i < count && offset + i < out.length; i++) out[offset + i] = buf.readInt16LE(2 * i) / 32768;
  }
  return out;
}
