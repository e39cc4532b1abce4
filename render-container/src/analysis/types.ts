/** Per-second signals of one VOD, the input of moment selection. Index i covers [i, i+1) seconds of the VOD. */

export interface SilenceRange {
  start: number;
  end: number;
}

export interface AudioAnalysis {
  durationSeconds: number;
  /** Loudest EBU R128 momentary loudness within each second, LUFS. */
  loudnessLufs: number[];
  /** The stream's own typical loudness (median of `loudnessLufs`). */
  baselineLufs: number;
  /** `loudnessLufs` minus the baseline, dB; what "the streamer got loud" means for this stream. */
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
}
