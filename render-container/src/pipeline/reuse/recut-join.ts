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
 * short's own cut at a pause does. Each edge is heard with a few seconds of the shared part after (before) it, whose
 * words are dropped, so its last (first) words are heard with what follows (precedes) them.
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
/**
 * Audio heard past a cut point into the shared part, whose words are dropped (the earlier ones are kept there): a
 * pause the voice band sees may lie inside one of the recogniser's utterances, and a piece ending at it leaves the
 * last words before it without what follows them (measured: without it, a re-cut's head heard "please be" as
 * "come" where the short heard whole got them right; scripts/eval-recut-captions.ts --join).
 */
export const CONTEXT_S = 3;

export interface RecutJoin {
  /** The earlier short's range whose words are kept. */
  earlier: TimeRange;
  /** Earlier words kept (VOD clock): those starting in [from, to) of the range. */
  kept: Word[];
  /** The part of the range the kept words stand for. */
  keptRange: TimeRange;
  /**
   * The range's edges to hear again (empty when the range lies inside the earlier short): `range` is heard (the
   * edge with CONTEXT_S of the shared part), and the words starting inside `take` (the edge) are used.
   */
  hear: { range: TimeRange; take: TimeRange }[];
}

/**
 * The best join of `range` with one of the earlier shorts (the least audio left to hear), or null when none shares
 * enough of it at usable cut points: the range is then heard whole.
 */
export function planRecutJoin(earlier: readonly HeardWords[], range: TimeRange, pauses: readonly SilenceRange[] | undefined): RecutJoin | null {
  const joins = earlier.map((e) => joinWith(e, range, pauses)).filter((j): j is RecutJoin => j !== null);
  const toHear = (j: RecutJoin) => j.hear.reduce((s, h) => s + (h.range.end - h.range.start), 0);
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
  const hear = [
    ...(headOpen ? [{ range: { start: range.start, end: Math.min(range.end, from + CONTEXT_S) }, take: { start: range.start, end: from } }] : []),
    // A word starting within 0.05 s after the range's end still belongs to it, as in wordsInRange.
    ...(tailOpen ? [{ range: { start: Math.max(range.start, to - CONTEXT_S), end: range.end }, take: { start: to, end: range.end + 0.05 } }] : []),
  ];
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

/** The words a join uses of what was heard over its edges: those starting inside an edge (VOD clock). */
export function edgeWords<W extends { start: number }>(join: Pick<RecutJoin, "hear">, heard: readonly W[]): W[] {
  return heard.filter((w) => join.hear.some((h) => w.start >= h.take.start - 1e-3 && w.start < h.take.end));
}
