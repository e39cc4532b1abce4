import type { ProfileTuning } from "../../../common/contract/normalized-request";
import { quantile } from "../analysis/stats";
import type { SecondScores } from "./types";

/**
 * No clip without its own evidence: a profile takes a moment only where a signal it weighs shows an event —
 * the streamer's voice (loud speech the voice model heard) or chat's reaction (a burst of distinct voices) —
 * judged against this stream's own distribution. The combined score alone is not enough: under a profile's
 * weights a strong signal the profile barely weighs (a chat burst for `streamer`) still clears
 * highlight_min_score, and filling the reel's target then takes moments the profile has no reason to show.
 * With too few events the reel is shorter, and the manifest says why (warnings.ts).
 */
export const EVIDENCE_RULES = {
  /** A signal is one of the profile's own when its weight is at least this share of the two. */
  ownWeightShare: 0.35,
  /** The streamer score an event reaches at least (loud speech, about +8 dB over the stream's baseline)... */
  streamerEventScore: 0.3,
  /**
   * ...and it must stand out from what this stream usually does: above this quantile of the stream's own
   * streamer scores plus the margin. A streamer who shouts all the time shouts no moment.
   */
  streamerUsualQuantile: 0.9,
  streamerMargin: 0.15,
  /** The audience score an event reaches: a chat burst (already judged against the stream's own chat). */
  audienceEventScore: 0.3,
  /** Seconds around a peak searched for the event. */
  radiusSeconds: 3,
} as const;

export type EvidenceSignal = "streamer" | "audience";

export interface Evidence {
  /** The profile's own signals (both under balanced weights; the streamer's alone when chat is unavailable). */
  own: EvidenceSignal[];
  streamerLevel: number;
  audienceLevel: number;
  /** Which of the profile's own signals show an event around a second (empty: no evidence). */
  at(second: number): EvidenceSignal[];
}

/**
 * The streamer score at which this stream's streamer shows an event: at least `streamerEventScore`, and above
 * what the stream usually does. Evidence and the reaction-lag estimate (reaction-lag.ts) share it, so "the
 * streamer's event" means one thing.
 */
export function streamerEventLevel(streamer: readonly number[], rules: Pick<typeof EVIDENCE_RULES, "streamerEventScore" | "streamerUsualQuantile" | "streamerMargin"> = EVIDENCE_RULES): number {
  const usual = streamer.length > 0 ? quantile(streamer, rules.streamerUsualQuantile) : 0;
  return Math.max(rules.streamerEventScore, (Number.isFinite(usual) ? usual : 0) + rules.streamerMargin);
}

export function profileEvidence(scores: SecondScores, tuning: Pick<ProfileTuning, "audience_weight" | "streamer_weight">, rules = EVIDENCE_RULES): Evidence {
  const wa = scores.chatAvailable ? Math.max(0, tuning.audience_weight) : 0;
  const ws = Math.max(0, tuning.streamer_weight);
  const total = wa + ws;
  const own: EvidenceSignal[] = [];
  if (total <= 0) own.push("streamer", ...(scores.chatAvailable ? (["audience"] as const) : []));
  else {
    if (ws / total >= rules.ownWeightShare) own.push("streamer");
    if (wa / total >= rules.ownWeightShare) own.push("audience");
  }
  const streamerLevel = streamerEventLevel(scores.streamer, rules);
  const audienceLevel = rules.audienceEventScore;
  const reaches = (values: readonly number[], s: number, level: number) => {
    for (let i = Math.max(0, s - rules.radiusSeconds); i <= Math.min(values.length - 1, s + rules.radiusSeconds); i++) if (values[i]! >= level) return true;
    return false;
  };
  return {
    own,
    streamerLevel,
    audienceLevel,
    at(second) {
      const out: EvidenceSignal[] = [];
      if (own.includes("streamer") && reaches(scores.streamer, second, streamerLevel)) out.push("streamer");
      if (own.includes("audience") && reaches(scores.audience, second, audienceLevel)) out.push("audience");
      return out;
    },
  };
}
