/** Per-second signals of one VOD, the input of moment selection. Index i covers [i, i+1) seconds of the VOD. */

export interface SilenceRange {
  start: number;
  end: number;
}

export interface AudioAnalysis {
  durationSeconds: number;
  /** Loudest EBU R128 momentary loudness within each second, LUFS. */
  loudnessLufs: number[];
  /** The whole stream's typical loudness (median of the gated `loudnessLufs`). */
  baselineLufs: number;
  /**
   * `loudnessLufs` minus the typical loudness of the two minutes around each second (local-baseline.ts), dB; what
   * "the streamer got loud" means at that point of this stream, as its levels wander.
   */
  loudnessAboveBaselineDb: number[];
  /** Voice-band (300-3000 Hz) energy per second, dBFS. */
  voiceDb: number[];
  /** Voice-band level the stream sits at when nobody speaks (a low percentile of 20 ms frames), dBFS. */
  voiceFloorDb: number;
  /** Share (0..1) of 20 ms frames in each second whose voice-band energy is well above the floor. */
  speechActivity: number[];
  /** Syllable-like voice-envelope peaks per second (an excitement / speech-rate proxy). */
  speechRate: number[];
  /** Silences from silencedetect (absolute threshold), seconds. */
  silences: SilenceRange[];
  /** Good cut points in seconds, sorted: silence midpoints and pauses between words. */
  quietPoints: number[];
  /**
   * Pauses between sentences (voice-band envelope near its floor for at least 0.35 s), sorted. A clip cut
   * inside one does not cut through speech. Absent in analyses made before it existed: then ends snap to
   * `quietPoints`.
   */
  pauses?: SilenceRange[];
  /**
   * Share (0..1) of each second's audio energy that lies in windows the voice-activity model (Silero) hears as
   * speech; -1 where it was not measured (only stretches loud enough to be a moment are: voice-activity/).
   * Absent when the model was not run: the streamer's signal then falls back to the voice-band syllables.
   */
  voiceShare?: number[];
  /**
   * How far the voice itself rises over this streamer's usual talking level, dB: the top quarter of the
   * second's speech windows' voiced power (voice-band power x periodicity) against that of ordinary stretches
   * (voice-activity/measure-voice.ts, periodicity.ts). A shout lifts it; calm talk through gunfire or under an
   * explosion does not, however loud the second. -99 where not measured or the second held too little speech.
   */
  voiceRiseDb?: number[];
  /**
   * How far the voice's pitch rises over this streamer's usual pitch, semitones: the median pitch of the second's
   * clearly voiced speech windows against that of ordinary stretches (voice-activity/measure-voice.ts, PITCH_RISE).
   * A shout climbs in pitch even where a compressed or normalised mix keeps its level near the talk's.
   * -99 where not measured, too few voiced windows, or the usual pitch is unclear (two voices taking turns).
   */
  voicePitchRise?: number[];
  /** Where the decoded PCM was kept (analyzeAudio's keepPcm), span by span on the VOD's clock. */
  pcm?: PcmSpan[];
}

/** A file of s16le mono PCM whose first sample is at VOD time `start`. */
export interface PcmSpan {
  file: string;
  start: number;
  sampleRate: number;
  samples: number;
}

/** The fields of a chat replay comment that the analysis reads (structurally a subset of common/twitch ChatComment). */
export interface ChatCommentInput {
  offset_seconds: number;
  commenter_login: string | null;
  text: string;
  emote_count: number;
}

export interface ChatSignals {
  /** False when the replay was empty or missing: chat scores are then absent rather than zero. */
  available: boolean;
  reactionLagSeconds: number;
  totalMessages: number;
  /** Messages per second, smoothed and shifted back by the reaction lag (index = moment time, not chat time). */
  messageRate: number[];
  /** The stream's typical smoothed message rate (robust to long quiet stretches). */
  baselineRate: number;
  /** messageRate / baselineRate. */
  rateRatio: number[];
  /** Distinct chatters in the window around each (shifted) second. */
  uniqueChatters: number[];
  /** uniqueChatters relative to the stream's typical value. */
  uniqueChattersRatio: number[];
  /** 0..1: share of windowed messages carrying emotes, laughter or hype words. */
  hypeDensity: number[];
  /**
   * How unlikely the windowed message count is for this stream: (count - expected) / sqrt(expected + 1), a
   * Poisson-style z-score. Three messages where one is usual is a ratio of 3 but no burst.
   */
  burstZ: number[];
  windowSeconds: number;
  /**
   * Reaction bursts found in chat time (before any lag shift), strongest first. Absent in signals built by
   * hand; selection then reads the per-second arrays above.
   */
  bursts?: ChatBurst[];
}

/** A stretch where many distinct chatters post at once: the audience reacting to something. */
export interface ChatBurst {
  /** Chat time (VOD seconds) the burst rises from its baseline, its busiest second, and where it has died down. */
  onset: number;
  peak: number;
  end: number;
  /**
   * Distinct voices posting in the window around the peak (5 s, or 13 s where a small chat reads likelier: BURST_RULES; crowdVoices: accounts on a loop left out, a line pasted
   * by several accounts counted once), and what this stream typically has there.
   */
  chatters: number;
  expectedChatters: number;
  /** Messages in the burst, and how many came from its busiest account. */
  messages: number;
  topAccountMessages: number;
  /** Share of the burst's messages that are reactions (emotes, laughter, hype words, shouting)... */
  reactionShare: number;
  /** ...and of the messages outside every burst: what this stream's chat usually says. */
  usualReactionShare: number;
  /** 0..1: how sure the burst is a crowd reacting (many more distinct chatters than usual, reacting). */
  score: number;
}
