import type { NormalizedManualHighlight } from "../../../common/contract/normalized-request";
import type { RunProfile } from "../../../common/contract/enums";
import type { AudioAnalysis, ChatSignals } from "../analysis/types";
import { describeMoment } from "./moment-signals";
import type { Moment, SecondScores } from "./types";

/**
 * A manual highlight as a moment: the range exactly as given (even beyond the per-clip maximum),
 * with the signals inside it reported so the client sees what the stream did there.
 */
export function manualMoment(
  m: NormalizedManualHighlight,
  profile: RunProfile,
  scores: SecondScores,
  audio: AudioAnalysis,
  chat: ChatSignals | null,
  durationSeconds: number,
): Moment {
  const start = Math.max(0, Math.min(m.start_seconds, durationSeconds));
  const end = Math.max(start, Math.min(m.end_seconds, durationSeconds));
  let peakSecond = Math.floor(start);
  const last = Math.min(scores.combined.length - 1, Math.ceil(end) - 1);
  for (let i = Math.floor(start); i <= last; i++) if (scores.combined[i]! > (scores.combined[peakSecond] ?? -1)) peakSecond = i;
  const score = scores.combined[peakSecond] ?? 0;
  return {
    start,
    end,
    peak: Math.min(end, Math.max(start, peakSecond + 0.5)),
    score,
    profile,
    source: "manual",
    label: m.label,
    signals: describeMoment(peakSecond, score, scores, audio, chat, "manual"),
  };
}
