import type { HeardWords } from "../../../../common/contract/heard-words";
import type { SilenceRange } from "../../analysis/types";
import type { Word } from "../../captions/types";
import type { TimeRange } from "../../source";

/**
 * Where a re-cut's short takes an earlier short's words and where it hears its range again (docs/TASK-MODEL.md,
 * "A re-cut's words heard once"). A re-cut usually moves the bounds of a short the account already has by a few
 * seconds; the words that short heard over the part of the range they share are kept, and only the edges outside
 * it are heard. Each edge is cut at a pause between sentences (the stored analysis' voice-band pauses) where no
 * earlier word lies, at least EDGE_MARGIN_S inside the earlier short, so no word is cut in half and no word near
 * the earlier cut (heard with half its context) is kept: the edge piece's audio starts or ends in silence, as a
 * short's own cut at a pause does.
 *
 * Pure: what to keep and what to hear. The analysis task hears the `hear` ranges from the short's video as the
 * short task would (reuse/recut-captions.ts) and joins them with `kept`.
 */

/** Earlier words this close to the earlier short's own edge were heard near its cut: never kept. */
export const EDGE_MARGIN_S = 1;
/** A word ending this close to a cut point still counts as crossing it (the recogniser's times are 10 ms frames). */
const WORD_CLEARANCE_S = 0.1;
/** Without the analysis' pauses (an older stored analysis), a gap between earlier words this long is a cut point. */
const WORD_GAP_PAUSE_S = 0.5;
/** Less shared range than this is not worth a join: the range is heard whole. */
const MIN_KEPT_S = 3;

export interface RecutJoin {
  /** The earlier short's range whose words are kept. */
  earlier: TimeRange;
  /** Earlier words kept (VOD clock): those starting in [from, to) of the range. */
  kept: Word[];
  /** The part of the range the kept words stand for. */
  keptRange: TimeRange;
  /** The range's edges to hear again (empty when the range lies inside the earlier short). */
  hear: TimeRange[];
}

/**
 * The best join of `range` with one of the earlier shorts (the least audio left to hear), or null when none shares
 * enough of it at usable cut points: the range is then heard whole.
 */
export function planRecutJoin(earlier: readonly HeardWords[], range: TimeRange, pauses: readonly SilenceRange[] | undefined): RecutJoin | null {
  const joins = earlier.map((e) => joinWith(e, range, pauses)).filter((j): j is RecutJoin => j !== null);
  const toHear = (j: RecutJoin) => j.hear.reduce((s, r) => s + (r.end - r.start), 0);
  return joins.sort((a, b) => toHear(a) - toHear(b))[0] ?? null;
}

function joinWith(e: HeardWords, range: TimeRange, pauses: readonly SilenceRange[] | undefined): RecutJoin | null {
  const words = [...e.words].sort((a, b) => a.start - b.start);
  const cuts = cutPoints(words, e, pauses);
  // The head: the range starts inside the earlier short (nothing to hear), or before it (heard up to a cut point).
  const from = range.start >= e.start - 1e-3 ? range.start : cuts.find((t) => t >= e.start + EDGE_MARGIN_S);
  // The tail, the same way round.
  const to = range.end <= e.end + 1e-3 ? range.end : [...cuts].reverse().find((t) => t <= e.end - EDGE_MARGIN_S);
  if (from === undefined || to === undefined || to - from < MIN_KEPT_S) return null;
  const headOpen = from > range.start;
  const tailOpen = to < range.end;
  // As a transcription of the range itself would place them (short-speech.ts wordsInRange): a word belongs where it starts.
  const kept = words.filter((w) => (headOpen ? w.start >= from : w.start >= range.start - 1e-3) && (tailOpen ? w.start < to : w.start <= range.end + 0.05));
  const hear = [...(headOpen ? [{ start: range.start, end: from }] : []), ...(tailOpen ? [{ start: to, end: range.end }] : [])];
  return { earlier: { start: e.start, end: e.end }, kept: kept.map((w) => ({ ...w })), keptRange: { start: from, end: to }, hear };
}

/**
 * Points inside the earlier short where a cut cuts through no speech: the middle of each pause between sentences
 * (or, without the analysis' pauses, of each long gap between words) that no earlier word reaches into.
 */
export function cutPoints(words: readonly Word[], e: TimeRange, pauses: readonly SilenceRange[] | undefined): number[] {
  const clear = (t: number) => t > e.start && t < e.end && !words.some((w) => w.start - WORD_CLEARANCE_S < t && t < w.end + WORD_CLEARANCE_S);
  const gaps = pauses ?? words.slice(1).map((w, i) => ({ start: words[i]!.end, end: w.start })).filter((g) => g.end - g.start >= WORD_GAP_PAUSE_S);
  return gaps.map((p) => (p.start + p.end) / 2).filter(clear).sort((a, b) => a - b);
}
