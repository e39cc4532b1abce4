import type { SilenceRange } from "../../analysis/types";
import type { TimeRange } from "../../source";
import { CONTEXT_S, type RecutJoin } from "./recut-join";

/** Below this a re-cut's short is heard in one piece: its one search is short anyway. */
export const HALVES_MIN_S = 20;

/**
 * Whether a re-cut's short that no earlier short heard is heard as two halves side by side (halvesAtPause):
 * RECUT_HEAR_IN_HALVES=1, which the re-cut Container class (4 vCPU) sets for its instances
 * (worker/src/durable/recut-container.ts). There the recogniser's accurate search — one single-threaded process
 * over the whole range — would otherwise set the analysis' length while cores idle; on 2 vCPU both cores are busy
 * anyway and the halves cost their context heard twice, so the general class does not. Set by the class rather than
 * read from the CPU count, which inside a container may be the host's.
 */
export function hearsInHalves(env: NodeJS.ProcessEnv): boolean {
  return env.RECUT_HEAR_IN_HALVES === "1";
}

/**
 * A range to hear whole, as two halves heard side by side (docs/TASK-MODEL.md, "Reusing an analysis"): cut at the
 * pause between sentences (the stored analysis' voice-band pauses) nearest its middle, within its middle third, each
 * half heard with CONTEXT_S of the other whose words are dropped — as a join hears its edges (recut-join.ts), so
 * the words at the cut are heard with what follows and precedes them. Null when the range is short or no pause
 * lies in its middle third: it is heard in one piece.
 */
export function halvesAtPause(range: TimeRange, pauses: readonly SilenceRange[] | undefined): Pick<RecutJoin, "kept" | "hear"> | null {
  const length = range.end - range.start;
  if (length < HALVES_MIN_S || !pauses?.length) return null;
  const middle = (range.start + range.end) / 2;
  const cut = pauses
    .map((p) => (p.start + p.end) / 2)
    .filter((t) => t > range.start + length / 3 && t < range.end - length / 3)
    .sort((a, b) => Math.abs(a - middle) - Math.abs(b - middle))[0];
  if (cut === undefined) return null;
  return {
    kept: [],
    hear: [
      { range: { start: range.start, end: Math.min(range.end, cut + CONTEXT_S) }, take: { start: range.start, end: cut } },
      // A word starting within 0.05 s after the range's end still belongs to it, as in wordsInRange.
      { range: { start: Math.max(range.start, cut - CONTEXT_S), end: range.end }, take: { start: cut, end: range.end + 0.05 } },
    ],
  };
}

/**
 * What one half heard, without its context: only the words starting inside its own part. Each half is filtered
 * on its own, since a half's context lies inside the other half's part (a word heard in both is kept once).
 */
export function ownWords<W extends { start: number }>(piece: { take: TimeRange }, heard: readonly W[]): W[] {
  return heard.filter((w) => w.start >= piece.take.start - 1e-3 && w.start < piece.take.end);
}
