import type { RunProfile } from "../../../common/contract/enums";
import type { NormalizedManualHighlight, ProfileTuning } from "../../../common/contract/normalized-request";
import type { AudioAnalysis, ChatSignals } from "../analysis/types";
import { isSoftPause } from "../analysis/voice-activity/speech-pauses";
import { insideSpeech, momentWindow, settleInPauses, type MomentWindow, type WindowContext } from "./boundaries";
import { fitToBudget } from "./budget";
import { candidatePeaks } from "./buckets";
import { fitBetween } from "./free-interval";
import { manualMoment } from "./manual-moments";
import { profileEvidence, type EvidenceSignal } from "./evidence";
import { describeMoment } from "./moment-signals";
import { computeSecondScores } from "./second-scores";
import { isNearDuplicate, overlapSeconds } from "./similarity";
import { momentDuration, type HighlightDurationParams, type Moment } from "./types";

export interface SelectMomentsInput {
  audio: AudioAnalysis;
  /** null or `available: false` when the chat replay could not be read. */
  chat: ChatSignals | null;
  durationSeconds: number;
  tuning: ProfileTuning;
  params: HighlightDurationParams;
  /** Manual highlights that apply to this profile. */
  manual: readonly NormalizedManualHighlight[];
  profile: RunProfile;
  /** Scene cuts in VOD seconds, when known; ends snap to them. */
  sceneCuts?: readonly number[];
}

/**
 * Chooses one profile's reel moments:
 * 1. score every second under the profile's weights, keep bucket peaks that beat highlight_min_score;
 * 2. give each peak a window: the setup found before it (talk after a pause, a build-up, a scene cut), the
 *    reaction after it, clamped to [min, max] and snapped to pauses between sentences / scene cuts, each end
 *    explained in the moment's reasons;
 * 3. drop near-duplicates (similarity_threshold, between the events rather than their clips) and make room
 *    for manual highlights;
 * 4. fill greedily by score up to the target length minus the manual seconds (the last moment may run over
 *    the target when that lands closer to it than leaving it out: never by a whole clip);
 * 5. return manual + automatic moments in chronological order.
 */
export function selectMoments(input: SelectMomentsInput): Moment[] {
  return selectProfileMoments(input).moments;
}

/** One profile's moments and what the scoring saw, for warnings when a reel comes out short or empty. */
export interface SelectionOutcome {
  moments: Moment[];
  /** Buckets whose best second beat highlight_min_score and showed an event in one of the profile's own signals. */
  candidates: number;
  /** Buckets that beat highlight_min_score but showed no event of the profile's own signals (left out). */
  withoutEvidence?: number;
  /** The signals the profile weighs enough to take a moment on (evidence.ts). */
  ownSignals?: EvidenceSignal[];
  /** The best combined score of any second (0 for an empty VOD). */
  bestScore: number;
  /** The profile's target minus its manual seconds (may be negative). */
  autoBudgetSeconds: number;
}

export function selectProfileMoments(input: SelectMomentsInput): SelectionOutcome {
  const { audio, chat, tuning, params, profile } = input;
  const duration = Math.max(0, input.durationSeconds);
  const seconds = Math.ceil(duration - 1e-6);
  const scores = computeSecondScores(audio, chat, tuning, seconds);
  const minLen = Math.max(1, Math.min(params.min_highlight_duration, params.max_highlight_duration));
  const maxLen = Math.max(minLen, params.max_highlight_duration);

  const manual = input.manual.map((m) => manualMoment(m, profile, scores, audio, chat, duration)).filter((m) => momentDuration(m) > 0);
  const manualSeconds = manual.reduce((s, m) => s + momentDuration(m), 0);
  let budget = tuning.target_duration_seconds - manualSeconds;

  const ctx: WindowContext = {
    scores: scores.combined,
    speechActivity: audio.speechActivity,
    quietPoints: audio.quietPoints,
    pauses: audio.pauses,
    loudnessDb: audio.loudnessAboveBaselineDb,
    audience: scores.audience,
    streamer: scores.streamer,
    chatReachSeconds: scores.reactionLag ? Math.max(0, scores.reactionLag.reach - scores.reactionLag.max) : 0,
    sceneCuts: input.sceneCuts ? [...input.sceneCuts].sort((a, b) => a - b) : undefined,
    durationSeconds: duration,
    minDuration: minLen,
    maxDuration: maxLen,
  };

  const autoBudgetSeconds = budget;
  // Only peaks where a signal the profile weighs shows an event (evidence.ts): never a clip with nothing in it.
  const evidence = profileEvidence(scores, tuning);
  const scored = candidatePeaks(scores.combined, tuning.bucket_size_seconds, tuning.highlight_min_score);
  const candidates = scored.filter((c) => evidence.at(c.peakSecond).length > 0);
  const chosen: Moment[] = [];
  const chosenEvents: { start: number; end: number; signals: Moment["signals"] }[] = [];
  for (const cand of candidates) {
    // Even the shortest clip would now overshoot the target by more than the shortfall it fills.
    if (2 * budget <= Math.min(minLen, duration) + 1e-9) break;
    const peak = cand.peakSecond + 0.5;
    const taken = [...manual, ...chosen];
    // A peak inside a range already in the reel is that range's moment, not a new one.
    if (taken.some((t) => t.start <= peak && peak < t.end)) continue;

    const win = momentWindow(cand.peakSecond, ctx);
    const gap = fitBetween(win, peak, taken, minLen, duration);
    const fitted = gap && fitToBudget(gap, peak, win.momentFrom, budget, taken, ctx, win.payoffFrom);
    if (!fitted) continue;
    const w = settleInPauses(fitted, peak, ctx, taken, win.momentFrom);

    const signals = describeMoment(cand.peakSecond, cand.score, scores, audio, chat, "auto");
    // Every clip says why it starts and ends where it does: what found it, then each step that moved it.
    const why = {
      start: explainMove("start", win, [gap!, fitted, w], peak, audio.pauses),
      end: explainMove("end", win, [gap!, fitted, w], peak, audio.pauses),
    };
    signals.reasons.push(why.start, why.end);
    const moment: Moment = {
      start: w.start,
      end: w.end,
      peak,
      score: cand.score,
      profile,
      source: "auto",
      label: null,
      signals,
      ...(audio.pauses ? { pauses: audio.pauses.filter((p) => p.end >= w.start - 5 && p.start <= w.end + 5) } : {}),
    };
    // Similarity is about not choosing the same highlight twice automatically, so it compares the events (from
    // onset to the end of the reaction), not the clips: two events close together have clips that touch, and
    // are still two highlights. Next to a manual range an automatic moment only has to make room (fitBetween
    // above): a manual range is kept as given and automatic moments are trimmed around it.
    const event = { start: win.onset, end: win.eventEnd, signals: moment.signals };
    if (chosen.some((c) => overlapSeconds(c, moment) > 0) || isNearDuplicate(event, chosenEvents, tuning.similarity_threshold)) continue;
    chosen.push(moment);
    chosenEvents.push(event);
    budget -= momentDuration(moment);
  }
  return {
    moments: [...manual, ...chosen].sort((a, b) => a.start - b.start || a.end - b.end),
    candidates: candidates.length,
    withoutEvidence: scored.length - candidates.length,
    ownSignals: evidence.own,
    bestScore: scores.combined.reduce((m, v) => Math.max(m, v), 0),
    autoBudgetSeconds,
  };
}

/** What moved an end after the content placed it, step by step (fitBetween, fitToBudget, settleInPauses). */
const MOVED_BY = ["to make room for a neighbouring clip", "to fit the reel's target", "so that neither end cuts a sentence"] as const;

/**
 * The sentence explaining one end of a clip: the content's reason when nothing moved it, else how far from the
 * peak it is, each step that moved it and whether it lies in a pause.
 */
function explainMove(side: "start" | "end", win: MomentWindow, steps: readonly { start: number; end: number }[], peak: number, pauses: AudioAnalysis["pauses"]): string {
  const final = steps.at(-1)![side];
  if (Math.abs(final - win[side]) < 1e-6) return win.why[side];
  const by: string[] = [];
  let before = win[side];
  steps.forEach((step, i) => {
    if (Math.abs(step[side] - before) > 1e-6) by.push(MOVED_BY[i]!);
    before = step[side];
  });
  const soft = pauses?.some((p) => isSoftPause(p) && p.start - 1e-6 <= final && final <= p.end + 1e-6);
  const where = insideSpeech(final, pauses) ? " (no pause in reach: inside speech)" : soft ? " (no pause in reach: where the speech is quietest)" : ", in a pause";
  const at = side === "start" ? `starts ${(peak - final).toFixed(1)} s before the peak` : `ends ${(final - peak).toFixed(1)} s after the peak`;
  return `${at}: moved ${by.join(", then ")}${where}`;
}
