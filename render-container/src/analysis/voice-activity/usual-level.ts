/**
 * The streamer's usual talking level, which a second's voice rise is read against: the voiced power of speech
 * windows in short ordinary pieces of the VOD (near the baseline loudness, outside the loud stretches).
 *
 * The level is read around each second, not over the whole VOD: a microphone's level wanders (the streamer leans
 * back for a quarter of an hour, turns the gain up, moves the microphone), and against one level for the whole
 * stream calm talk where the microphone sits 5 dB up read as a raised voice 5 dB up, and with the game's own
 * level down at the time, as a shout (source c `--levels drift`, held-out seeds 145 and 149: streamer-profile
 * clips on calm talk reading +8-10 dB where the voice's drift stood 8 dB over the game's).
 */
import { quantile } from "../stats";
import type { Stretch } from "./candidate-stretches";

/**
 * The pieces: `seconds` long, one every `spacingSeconds` of the VOD (at least `minPieces`, at most `maxPieces`:
 * a 6-hour VOD gets one every 2.25 minutes, 640 s of model time, ~1.5 CPU s), each the first run of ordinary
 * seconds (loudness within `withinDb` of the level around) in its slot. Where too few talk seconds are heard, the
 * usual level is read over all their windows at once, which needs `minSpeechWindows`.
 */
export const REFERENCE = { minPieces: 24, maxPieces: 160, spacingSeconds: 60, seconds: 4, withinDb: 3, minSpeechWindows: 30 } as const;

/**
 * The level around a second: the median level of the talk seconds (TALK) within `seconds` of it (more, nearest
 * first, until there are `minSeconds`), and never more than `maxApartDb` from the whole VOD's median — where the
 * streamer says nothing for minutes there is nothing around to read (the same bound as the loudness's own level
 * around: local-baseline.ts). A slow swing of 6 dB either way is followed.
 */
export const LOCAL_USUAL = { seconds: 150, minSeconds: 8, maxApartDb: 8 } as const;

/**
 * A reference second is talk where the model hears speech in at least `minSpeechWindows` of its ~31 windows (two
 * thirds of the second) and its clearly voiced windows are a usual voice's: at least `minVoiceWindows` of them,
 * and at least `voiceShare` of them, pitched within `semitones` of the streamer's or a guest's usual pitch
 * (measure-voice.ts). Its level is read exactly as a measured second's (the top quarter of its windows' voiced
 * power), so calm talk reads a rise near 0 whatever else the ordinary stretches hold. Read over all their windows
 * at once, the usual level was a mixture: the model also hears a music bed's notes and the game's murmur between
 * sentences as speech (their voiced power far under the voice's), and the fewer sentences the pieces caught, the
 * lower the usual level and the higher calm talk read (source c `--levels drift` with a music bed: pieces a minute
 * apart read 8 dB apart, calm talk +8-13 dB).
 *
 * How many windows are clearly voiced is the voice's own trait, not a sign of talk: a low or breathy voice reads
 * few (source c, spent seed 146: 0-5 of 31 in most seconds of calm talk, against 10-24 for others). Asking for 8
 * of them kept 4 of that stream's 66 talk seconds (the mixture stood in, calm talk read +11-14 dB) and, on other
 * low voices, only their most clearly voiced (loudest) seconds: the usual level 1.5-5 dB high. Counted against
 * the truth of the streams (source c's tuning and spent held-out seeds, source b's tuning seeds), these rules keep
 * about every reference second of the streamer's talk, 0-2 seconds without talk per stream (9 of 86 on one), and
 * the median of what they keep lies within 0.5 dB of the talk's own level on every stream whose microphone holds
 * its level.
 */
export const TALK = { minSpeechWindows: 20, minVoiceWindows: 2, voiceShare: 0.75, semitones: 6 } as const;

/**
 * The voice's level in a second (and the usual one): this quantile of its speech windows' voiced power. Voiced
 * power (periodicity.ts) leaves out what is not the voice, so the windows a shout fills sit near the top and the
 * top quarter is the voice's loudness; the gaps between words, and windows the game fills (their voiced power
 * near nothing), sit below it and do not drag a shout down the way they would drag a median.
 */
export const VOICE_LEVEL_QUANTILE = 0.75;

/** One second of a reference piece: its speech windows' voiced power and pitch (windows of a held tone left out). */
export interface ReferenceSecond {
  /** VOD second. */
  at: number;
  voiced: number[];
  /** Each window's pitch, semitones (NaN: not clearly voiced). */
  pitch: number[];
}

/** The level of a second's windows, as the voice's rise reads it. */
export const levelOf = (voiced: readonly number[]) => quantile(voiced, VOICE_LEVEL_QUANTILE);

/** Short ordinary stretches (near the baseline loudness, outside the loud ones) spread evenly over the VOD. */
export function referenceStretches(loudnessAboveBaselineDb: readonly number[], loud: readonly Stretch[]): Stretch[] {
  const n = loudnessAboveBaselineDb.length;
  const inLoud = new Uint8Array(n);
  for (const s of loud) for (let i = Math.max(0, s.start - 2); i < Math.min(n, s.end + 2); i++) inLoud[i] = 1;
  const ordinary = (i: number) => !inLoud[i] && Math.abs(loudnessAboveBaselineDb[i]!) <= REFERENCE.withinDb;
  const out: Stretch[] = [];
  // A short VOD gets fewer pieces, each in a slot of its own.
  const wanted = Math.min(REFERENCE.maxPieces, Math.max(REFERENCE.minPieces, Math.ceil(n / REFERENCE.spacingSeconds)));
  const count = Math.min(wanted, Math.floor(n / (2 * REFERENCE.seconds)));
  const step = n / Math.max(1, count);
  for (let k = 0; k < count; k++) {
    // The first run of ordinary seconds long enough from this piece's place on.
    for (let t = Math.floor(k * step); t + REFERENCE.seconds <= Math.min(n, Math.floor((k + 1) * step)); t++) {
      let ok = true;
      for (let i = t; i < t + REFERENCE.seconds && ok; i++) ok = ordinary(i);
      if (ok) {
        out.push({ start: t, end: t + REFERENCE.seconds });
        break;
      }
    }
  }
  return out;
}

/** The level over all the reference seconds' windows at once (NaN: too few): where too few talk seconds were heard. */
export function wholeUsualPower(seconds: readonly ReferenceSecond[]): number {
  const all = seconds.flatMap((l) => l.voiced);
  return all.length >= REFERENCE.minSpeechWindows ? levelOf(all) : Number.NaN;
}

/**
 * The usual talking level around any VOD second, from the reference seconds. `voices`: the usual pitches known
 * (empty: unclear, then any clearly voiced window counts). `minWindows`: a second's level needs this many windows.
 * Null where too few talk seconds were heard.
 */
export function usualLevels(seconds: readonly ReferenceSecond[], voices: readonly number[], minWindows: number): ((t: number) => number) | null {
  const talk = talkSecondsOf(seconds, voices, minWindows);
  if (talk.length < LOCAL_USUAL.minSeconds) return null;
  const whole = quantile(talk.map((x) => x.level), 0.5);
  const bound = 10 ** (LOCAL_USUAL.maxApartDb / 10);
  return (t: number) => {
    const byDistance = [...talk].sort((a, b) => Math.abs(a.at - t) - Math.abs(b.at - t));
    const levels: number[] = [];
    for (const x of byDistance) {
      if (Math.abs(x.at - t) > LOCAL_USUAL.seconds && levels.length >= LOCAL_USUAL.minSeconds) break;
      levels.push(x.level);
    }
    return Math.min(whole * bound, Math.max(whole / bound, quantile(levels, 0.5)));
  };
}

/** The reference seconds that are talk (TALK), each with its level. */
export function talkSecondsOf(seconds: readonly ReferenceSecond[], voices: readonly number[], minWindows: number): { at: number; level: number }[] {
  const talk: { at: number; level: number }[] = [];
  for (const r of seconds) {
    if (r.voiced.length < Math.max(minWindows, TALK.minSpeechWindows)) continue;
    const pitched = r.pitch.filter((p) => Number.isFinite(p));
    const near = pitched.filter((p) => voices.length === 0 || voices.some((v) => Math.abs(p - v) <= TALK.semitones)).length;
    if (near >= TALK.minVoiceWindows && near >= TALK.voiceShare * pitched.length) talk.push({ at: r.at, level: levelOf(r.voiced) });
  }
  return talk;
}
