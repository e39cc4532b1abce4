import type { ProfileTuning } from "../../../common/contract/normalized-request";
import { clamp, movingAverage, quantile, ramp } from "../analysis/stats";
import type { AudioAnalysis, ChatBurst, ChatSignals } from "../analysis/types";
import { loudnessScale } from "../analysis/loudness-range";
import { loudnessOverStreamDb } from "../analysis/local-baseline";
import { NO_PITCH_RISE, NO_VOICE_RISE } from "../analysis/voice-activity/measure-voice";
import { streamerEventLevel } from "./evidence";
import { estimateReactionLag, LAG_RULES, streamerEventOnsets, type ReactionLag } from "./reaction-lag";
import type { SecondScores } from "./types";

/**
 * Signal -> 0..1 mappings. Each is relative to the stream's own baseline, so a quiet streamer's shout and a
 * loud streamer's shout score alike, and a 20-viewer chat's burst counts like a 20 000-viewer one.
 */
export const SCORE_RAMPS = {
  /** Loudness above the stream's median: +4 dB is still talking, +16 dB is shouting. */
  loudDb: [4, 16],
  /** Syllable peaks per second: excited, fast speech. */
  speechRate: [3.5, 6],
  /**
   * Syllable peaks per second (3 s average) that say a loud stretch is a voice: speech moves at 3-6 syllables
   * a second, explosions and music rise and fall far slower. Below the first value loudness is not the streamer.
   */
  voicedRate: [1.6, 2.8],
  /**
   * Share of a second's energy the voice-activity model hears as speech (AudioAnalysis.voiceShare): a shout
   * over an explosion measures 0.85-0.9, the explosion alone, gunfire or music 0, calm talk under a loud impact
   * 0.05 (its energy is the impact's). Below the first value the loudness is not the streamer.
   */
  voiceShare: [0.3, 0.6],
  /** log2 of chat rate vs baseline: 1.4x is noise, 5.7x is a burst. */
  log2RateRatio: [0.5, 2.5],
  /** log2 of distinct chatters vs typical: many people reacting, not one spammer. */
  log2UniqueRatio: [0.5, 2],
  hypeDensity: [0.15, 0.6],
  /** Absolute distinct chatters needed before a chat burst is believed (small channels spike on 2 messages). */
  chattersForConfidence: [1, 4],
  /** Poisson z-score of the windowed message count: below 2 it is chance, above 6 it is a burst. */
  burstZ: [2, 6],
} as const;

/**
 * Audio excitement: how far the loudness rises over the stream's baseline, from `startDb` (the ramp's start, scaled
 * to the stream's loudness range: loudness-range.ts) to `fullDb` (see shoutLevelDb).
 */
export function audioHypeScore(loudDbAboveBaseline: number, fullDb: number = SCORE_RAMPS.loudDb[1], startDb: number = SCORE_RAMPS.loudDb[0]): number {
  return ramp(loudDbAboveBaseline, startDb, fullDb);
}

/**
 * How loud this streamer's shouting is, over the stream's baseline: the top tenth of the seconds the voice model
 * heard as loud speech, kept between 10 and 16 dB. Mixes differ: under a music bed, or from a streamer whose
 * microphone is compressed, a shout rises 8-11 dB over the median where a bare voice over quiet game audio
 * rises 16 or more; a fixed 16 dB would take the first streamer's every shout for talk. Never below 10 dB, so
 * a streamer who never shouts does not have ordinary talk raised to excitement; without the model's measure
 * (or with fewer than `minSeconds` loud voiced seconds), 16 dB as before. All three scale with the stream's
 * loudness range (`scale`, loudness-range.ts): a mix compressed as a whole rises less for everything.
 */
export const SHOUT_LEVEL = { minDb: 10, quantile: 0.9, minSeconds: 5, voicedShare: 0.5 } as const;

/**
 * How loud the streamer's voice is over the stream's baseline, per second, where the voice model measured the
 * voice's own rise over its usual talking level (voiceRiseDb); elsewhere the loudness alone.
 * - Louder than the voice rose: no more than the voice's rise. A second made loud by gunfire or an explosion
 *   under calm talk keeps the voice's own small rise.
 * - The voice rose more than the loudness: halfway between the two. A shout's effort shows in more than its
 *   level: the voice climbs in pitch and brightens, and its voiced power (pre-emphasised: periodicity.ts) rises
 *   far more than the mix's loudness — through a compressed microphone, or from a streamer whose shout is pitch
 *   more than volume (measured: shouts 5-6 dB over the stream's baseline whose voice rose 11-15 dB). The rise alone
 *   is read on a second's few speech windows and now and then jumps where nobody shouted; halfway takes up most
 *   of a real shout and half of such a jump.
 * - Plus the voice's pitch rise over its usual pitch (pitchEffortDb): what a squeezed mix leaves of a shout.
 */
export function voiceLoudnessDb(audio: Pick<AudioAnalysis, "loudnessAboveBaselineDb" | "voiceRiseDb" | "voicePitchRise">): number[] {
  const rise = audio.voiceRiseDb;
  const pitch = audio.voicePitchRise;
  return audio.loudnessAboveBaselineDb.map((db, i) => {
    const r = rise?.[i];
    const level = r === undefined || r <= NO_VOICE_RISE ? db : r <= db ? r : (db + r) / 2;
    return level + pitchEffortDb(pitch?.[i]);
  });
}

/**
 * A voice raised in pitch: `dbPerSemitone` for each semitone beyond `freeSemitones` over the streamer's usual
 * pitch, at most `maxDb`. A shout climbs 3-8 semitones (the Lombard effect and plain effort); a normalised or
 * compressed mix can squeeze its level to 3-4 dB over calm talk, which alone no longer reads as a shout, while its
 * pitch is untouched. Talk varies its pitch by a couple of semitones, which adds nothing.
 */
export const PITCH_EFFORT = { freeSemitones: 2, dbPerSemitone: 1, maxDb: 6 } as const;

export function pitchEffortDb(semitones: number | undefined): number {
  if (semitones === undefined || semitones <= NO_PITCH_RISE) return 0;
  return clamp((semitones - PITCH_EFFORT.freeSemitones) * PITCH_EFFORT.dbPerSemitone, 0, PITCH_EFFORT.maxDb);
}

export function shoutLevelDb(audio: Pick<AudioAnalysis, "loudnessAboveBaselineDb" | "voiceShare" | "voiceRiseDb" | "voicePitchRise">, scale = 1): number {
  const full = SCORE_RAMPS.loudDb[1] * scale;
  if (!audio.voiceShare) return full;
  const voicedLoud: number[] = [];
  voiceLoudnessDb(audio).forEach((db, i) => {
    if (db >= SCORE_RAMPS.loudDb[0] * scale && (audio.voiceShare![i] ?? -1) >= SHOUT_LEVEL.voicedShare) voicedLoud.push(db);
  });
  if (voicedLoud.length < SHOUT_LEVEL.minSeconds) return full;
  return clamp(quantile(voicedLoud, SHOUT_LEVEL.quantile), SHOUT_LEVEL.minDb * scale, full);
}

/**
 * The streamer's own presence: excitement in the voice (loudness, carried by speech, and speech pace). Loudness
 * without syllables (game audio: explosions, music, sirens) is not the streamer and scores nothing.
 */
export function streamerScore(audioHype: number, speechActivity: number, speechRate: number, voiceShare = -1): number {
  const fast = ramp(speechRate, SCORE_RAMPS.speechRate[0], SCORE_RAMPS.speechRate[1]);
  const voiced = voicedness(speechRate, voiceShare);
  if (voiceShare >= 0) speechActivity = Math.max(speechActivity, voiceShare);
  return clamp(voiced * (audioHype * (0.75 + 0.25 * speechActivity) + 0.15 * fast * speechActivity * Math.min(1, audioHype * 3)), 0, 1);
}

/**
 * How sure it is that a second's loudness is a voice: the voice-activity model's share where it listened (the
 * loud stretches), else the voice band's syllable pace, which holds in quiet audio but takes a shout over loud
 * game audio for noise (the game's energy fills the dips between syllables).
 */
export function voicedness(speechRate: number, voiceShare = -1): number {
  if (voiceShare >= 0) return ramp(voiceShare, SCORE_RAMPS.voiceShare[0], SCORE_RAMPS.voiceShare[1]);
  return ramp(speechRate, SCORE_RAMPS.voicedRate[0], SCORE_RAMPS.voicedRate[1]);
}

/**
 * Chat's reaction credited to the moments it may be reacting to: a burst whose first messages come at chat time
 * c reacts to something between c - lag.max and c - lag.min (the stream's delay plus reading and typing; read
 * from the stream itself by estimateReactionLag, else 3-15 s). The whole range gets the burst's score, so the audio decides where in it the moment is when the
 * streamer reacted too, and a clip covering the range keeps the moment when only chat did.
 */
export function audienceFromBursts(bursts: readonly ChatBurst[], seconds: number, lag: Pick<ReactionLag, "min" | "max"> & Partial<Pick<ReactionLag, "reach">> = LAG_RULES.defaultRange, streamerEvents: readonly number[] = []): number[] {
  const out = new Array<number>(seconds).fill(0);
  const credit = (from: number, to: number, score: number) => {
    for (let i = Math.max(0, Math.floor(from)); i <= Math.min(seconds - 1, Math.floor(to)); i++) out[i] = Math.max(out[i]!, score);
  };
  // A crowd reacts in waves: a burst starting within a few seconds of the previous one's end is the same reaction,
  // and which event it reacts to is read from the first wave's onset.
  let chain: { onset: number; end: number; late: number | null } | null = null;
  for (const b of [...bursts].sort((x, y) => x.onset - y.onset)) {
    if (!chain || b.onset > chain.end + LAG_RULES.waveGapSeconds) chain = { onset: b.onset, end: b.end, late: lateEventFor(b.onset, lag, streamerEvents) };
    else chain.end = Math.max(chain.end, b.end);
    if (chain.late !== null) credit(chain.late, chain.late + LAG_RULES.lateEventCreditSeconds, b.score);
    else credit(b.onset - lag.max, b.onset - lag.min, b.score);
  }
  return out;
}

/**
 * On a stream that does not show its lag (reach beyond the usual range), a burst with no streamer event in the
 * usual range but one further back, within reach, is chat reacting late to that event: the onset of the latest
 * such event, else null. Crediting the usual range instead would make chat's late reaction a clip of its own,
 * beside the shout's and holding nothing but chat.
 */
export function lateEventFor(burstOnset: number, lag: Pick<ReactionLag, "min" | "max"> & Partial<Pick<ReactionLag, "reach">>, streamerEvents: readonly number[]): number | null {
  const reach = lag.reach ?? lag.max;
  if (reach <= lag.max || streamerEvents.length === 0) return null;
  const slack = LAG_RULES.onsetSlackSeconds;
  if (streamerEvents.some((e) => e >= burstOnset - lag.max - slack && e <= burstOnset - lag.min + slack)) return null;
  // The reach gets the same slack as the usual range: a small chat's first messages are counted a second or two
  // after they start, so a burst 30 s after a shout can be measured 31-32 s after it.
  const late = streamerEvents.filter((e) => e >= burstOnset - reach - slack && e < burstOnset - lag.max - slack);
  return late.length > 0 ? Math.max(...late) : null;
}

/** The audience's reaction: a burst of messages from many chatters, full of emotes and laughter. */
export function audienceScore(rateRatio: number, uniqueRatio: number, uniqueChatters: number, hypeDensity: number, burstZ = Infinity): number {
  const rate = ramp(Math.log2(Math.max(rateRatio, 1e-6)), SCORE_RAMPS.log2RateRatio[0], SCORE_RAMPS.log2RateRatio[1]);
  const unique = ramp(Math.log2(Math.max(uniqueRatio, 1e-6)), SCORE_RAMPS.log2UniqueRatio[0], SCORE_RAMPS.log2UniqueRatio[1]);
  const hype = ramp(hypeDensity, SCORE_RAMPS.hypeDensity[0], SCORE_RAMPS.hypeDensity[1]);
  const confidence = Math.min(
    ramp(uniqueChatters, SCORE_RAMPS.chattersForConfidence[0], SCORE_RAMPS.chattersForConfidence[1]),
    ramp(burstZ, SCORE_RAMPS.burstZ[0], SCORE_RAMPS.burstZ[1]),
  );
  // A burst needs volume: hype words alone in a slow chat are conversation, not a reaction.
  return clamp(confidence * (0.55 * rate + 0.25 * unique + 0.2 * hype * Math.max(rate, unique)), 0, 1);
}

/**
 * Scores every second under a profile's weights. Without chat the audience weight has nothing to weigh, so
 * the audio score carries the whole score rather than capping every moment at the streamer weight.
 */
export function computeSecondScores(audio: AudioAnalysis, chat: ChatSignals | null, tuning: ProfileTuning, seconds: number): SecondScores {
  const chatAvailable = Boolean(chat?.available);
  // Loudness is a max over 400 ms windows; a 3 s average keeps one clap from looking like a moment. Only the
  // rise above the baseline is averaged: the breath of silence before a shout must not cancel the shout.
  const loud = movingAverage(padTo(audio.loudnessAboveBaselineDb, seconds, 0).map((d) => Math.max(0, d)), 1);
  const activity = movingAverage(padTo(audio.speechActivity, seconds, 0), 1);
  // A compressed mix squeezes every rise: the loudness thresholds shrink with the stream's range (loudness-range.ts).
  const scale = loudnessScale(loudnessOverStreamDb(audio));
  const start = SCORE_RAMPS.loudDb[0] * scale;
  const shout = shoutLevelDb(audio, scale);
  const audioHype = loud.map((d) => audioHypeScore(d, shout, start));
  // Each second's loudness counts only with that second's syllables, averaged afterwards: averaging them apart
  // would lend an explosion the syllables of the talk just before it.
  const rawLoud = padTo(voiceLoudnessDb(audio), seconds, 0).map((d) => audioHypeScore(Math.max(0, d), shout, start));
  const rawRate = padTo(audio.speechRate, seconds, 0);
  const share = audio.voiceShare ? padTo(audio.voiceShare, seconds, -1) : null;
  const streamer = movingAverage(rawLoud.map((h, i) => streamerScore(h, activity[i]!, rawRate[i]!, share ? share[i]! : -1)), 1).map((v) => clamp(v, 0, 1));
  // The streamer's events the lag is read from are the ones evidence calls events: judged against this stream.
  const eventLevel = streamerEventLevel(streamer);
  const lag = chatAvailable && chat!.bursts ? estimateReactionLag(chat!.bursts, streamer, LAG_RULES, eventLevel) : undefined;
  const audience = !chatAvailable
    ? new Array<number>(seconds).fill(0)
    : chat!.bursts
      ? audienceFromBursts(chat!.bursts, seconds, lag, lag && lag.reach > lag.max ? streamerEventOnsets(streamer, eventLevel) : [])
      : Array.from({ length: seconds }, (_, i) =>
          audienceScore(chat!.rateRatio[i] ?? 0, chat!.uniqueChattersRatio[i] ?? 0, chat!.uniqueChatters[i] ?? 0, chat!.hypeDensity[i] ?? 0, chat!.burstZ[i] ?? 0),
        );

  let wa = chatAvailable ? tuning.audience_weight : 0;
  let ws = tuning.streamer_weight;
  if (wa + ws <= 0) {
    // Both weights zero: nothing says which signal matters, so both count equally.
    wa = chatAvailable ? 1 : 0;
    ws = 1;
  }
  const combined = audience.map((a, i) => combineScores(a, streamer[i]!, wa, ws));
  return { combined, audience, streamer, audioHype, chatAvailable, ...(lag ? { reactionLag: lag } : {}) };
}

/** How much a moment backed by only one of the two signals is marked down when both weigh the same. */
export const CORROBORATION_PENALTY = 0.25;

/**
 * Weighted quadratic mean of the audience and streamer scores, marked down when only one of them reacts: a
 * shout chat ignores is weaker evidence than both at once. The quadratic mean lets a strong single signal
 * through under even weights (balanced takes a streamer-only or chat-only moment, after the ones both
 * signals back), and ranks by the heavier-weighted signal under uneven ones; the markdown shrinks as the
 * weights diverge. Everything moves continuously with the weights (at 1/0 only chat counts).
 */
export function combineScores(audience: number, streamer: number, wa: number, ws: number): number {
  if (wa + ws <= 0) return 0;
  // One signal alone is that signal (exactly: no rounding through the square root).
  if (ws <= 0) return clamp(audience, 0, 1);
  if (wa <= 0) return clamp(streamer, 0, 1);
  const mean = Math.sqrt((wa * audience * audience + ws * streamer * streamer) / (wa + ws));
  const balance = Math.min(wa, ws) / Math.max(wa, ws);
  const hi = Math.max(audience, streamer);
  const agreement = hi > 0 ? Math.min(audience, streamer) / hi : 1;
  return clamp(mean * (1 - CORROBORATION_PENALTY * balance * (1 - agreement)), 0, 1);
}

function padTo(values: readonly number[], n: number, fill: number): number[] {
  const out = values.slice(0, n);
  while (out.length < n) out.push(fill);
  return out;
}
