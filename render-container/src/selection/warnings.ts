import type { RunProfile } from "../../../common/contract/enums";
import type { NormalizedManualHighlight, ProfileTuning } from "../../../common/contract/normalized-request";
import type { EvidenceSignal } from "./evidence";
import type { SelectionOutcome } from "./select-moments";
import { momentDuration } from "./types";

const s0 = (x: number) => `${Math.round(x)} s`;

/**
 * What a client should know about one profile's reel (manifest `warnings`): no reel because nothing beat
 * highlight_min_score (the threshold is honoured, never silently lowered), or a reel well short of its target,
 * with the reason (the VOD is shorter, bucket_size_seconds allows few moments, few moments scored high enough).
 */
export function reelWarnings(profile: RunProfile, outcome: SelectionOutcome, tuning: ProfileTuning, durationSeconds: number, maxHighlightSeconds: number): string[] {
  const autos = outcome.moments.filter((m) => m.source === "auto");
  const min = tuning.highlight_min_score;
  const hint = `lower highlight_min_score in run_overrides.${profile} to take more`;
  const nothingBeat = `No moment of the VOD scored above highlight_min_score ${min} for the ${profile} profile (the best scored ${outcome.bestScore.toFixed(2)})`;
  const unsupported = outcome.withoutEvidence ?? 0;
  const noEvent = `No moment of the VOD showed an event in ${ownSignalsText(outcome.ownSignals)} for the ${profile} profile (${unsupported} stretch(es) scored above highlight_min_score ${min} without one)`;
  if (outcome.moments.length === 0) {
    if (outcome.candidates === 0) return [unsupported > 0 ? `${noEvent}, so it has no reel.` : `${nothingBeat}, so it has no reel; ${hint}.`];
    return [`No moment fitted the ${profile} profile's target, so it has no reel.`];
  }
  const total = outcome.moments.reduce((s, m) => s + momentDuration(m), 0);
  const target = tuning.target_duration_seconds;
  // Within one clip of the target (or manual ranges filling it): nothing to say.
  if (total >= target - maxHighlightSeconds) return [];
  if (outcome.candidates === 0) return [unsupported > 0 ? `${noEvent}, so its reel holds only the manual highlights.` : `${nothingBeat}, so its reel holds only the manual highlights; ${hint}.`];
  const buckets = Math.ceil(durationSeconds / tuning.bucket_size_seconds);
  const why =
    durationSeconds < target
      ? `the VOD is only ${s0(durationSeconds)} long`
      : buckets * maxHighlightSeconds < outcome.autoBudgetSeconds
        ? `bucket_size_seconds ${tuning.bucket_size_seconds} allows at most ${buckets} automatic moment(s) in this ${s0(durationSeconds)} VOD`
        : (outcome.withoutEvidence ?? 0) > 0
          ? `only ${autos.length} distinct moment(s) showed an event in ${ownSignalsText(outcome.ownSignals)}; ${outcome.withoutEvidence} other stretch(es) scored above highlight_min_score ${min} but showed no such event, and a reel is never padded with them`
          : `only ${autos.length} distinct moment(s) scored above highlight_min_score ${min} (${hint})`;
  return [`The ${profile} reel runs ${s0(total)} of its ${s0(target)} target: ${why}.`];
}

/** "the streamer's voice or chat's reaction": the signals a profile takes moments on. */
function ownSignalsText(own: readonly EvidenceSignal[] | undefined): string {
  const names = (own ?? ["streamer", "audience"]).map((s) => (s === "streamer" ? "the streamer's voice" : "chat's reaction"));
  return names.join(" or ");
}

/** Manual ranges past the VOD's real end (vod_length_hours can overstate it): cut there, or left out. */
export function manualRangeWarnings(manual: readonly NormalizedManualHighlight[], durationSeconds: number): string[] {
  const out: string[] = [];
  manual.forEach((m, i) => {
    if (m.end_seconds <= durationSeconds) return;
    const range = `manual_highlights[${i}] (${m.start_seconds}-${m.end_seconds} s)`;
    out.push(
      m.start_seconds >= durationSeconds
        ? `${range} starts after the VOD's end (${s0(durationSeconds)}) and was left out.`
        : `${range} runs past the VOD's end (${s0(durationSeconds)}) and was cut there.`,
    );
  });
  return out;
}

/** Fewer shorts than num_shorts: there were not enough distinct moments. */
export function shortsWarning(made: number, asked: number): string | null {
  if (made >= asked) return null;
  return `${made} of the ${asked} shorts asked for were made: the VOD had no more distinct moments above highlight_min_score.`;
}
