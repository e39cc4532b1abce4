import type { MomentSignals } from "../../../common/contract/render";
import type { RunProfile } from "../../../common/contract/enums";

/** A chosen stretch of the VOD (seconds) and why it was chosen. */
export interface Moment {
  start: number;
  end: number;
  /** Where the moment's combined score is highest (the payoff the clip builds up to). */
  peak: number;
  /** Combined score 0..1 under the profile's weights (manual highlights: the score of their best second). */
  score: number;
  profile: RunProfile;
  source: "auto" | "manual";
  label: string | null;
  signals: MomentSignals;
  /**
   * Pauses between sentences around the moment (VOD seconds), when the audio analysis found them: later
   * re-snapping (refineBoundaries) moves an end only to a scene cut inside one, never into speech.
   */
  pauses?: { start: number; end: number }[];
}

export interface HighlightDurationParams {
  min_highlight_duration: number;
  max_highlight_duration: number;
}

/** Per-second scores under one profile's weights; index i covers [i, i+1). */
export interface SecondScores {
  combined: number[];
  audience: number[];
  streamer: number[];
  /** Loudness-driven excitement 0..1 (part of the streamer score). */
  audioHype: number[];
  chatAvailable: boolean;
  /** The chat lag the bursts were credited with (reaction-lag.ts), when chat had bursts. */
  reactionLag?: import("./reaction-lag").ReactionLag;
}

export const momentDuration = (m: { start: number; end: number }): number => m.end - m.start;
