import { BOUNDARY_RULES, cutPoints, insideSpeech, snapWindow, type PauseTier, type WindowContext } from "./boundaries";
import { overlapSeconds, type Span } from "./similarity";
import { momentDuration } from "./types";

/**
 * Fits a moment's window to what is left of the profile's target (`budget`, seconds):
 * - a window that fits is kept;
 * - a longer one is shortened to the budget, both ends in pauses between sentences when the pauses are known:
 *   the reaction after the moment is kept first (up to `minPayoffSeconds` after `payoffFrom`: the peak, or for
 *   a moment only chat reacted to, the latest time chat's lag allows), then the setup, then the rest of the
 *   reaction; never into the minimum lead-in before the onset nor closer than `tailSeconds` after `payoffFrom`
 *   (a clip led by chat alone that ended inside chat's lag range could end before its moment: nothing in it);
 * - when no such window fits, the shortest one (ends in pauses) that keeps the setup's lead-in is taken if
 *   overshooting the target by it leaves the reel closer to the target than leaving the moment out, give or take
 *   `SENTENCE_SLACK_SECONDS` (so a reel never runs over its target by a whole clip, and by a few seconds more
 *   only to keep a sentence whole); otherwise the tightest window, if the reel is then closer to its target, or
 *   null. A reel runs a few seconds over rather than cutting a sentence in half, and ends in a short pause
 *   (maybe a comma) only when no pause between sentences will do.
 * Snapping never moves an end into `taken` (manual highlights, moments already chosen).
 */
export function fitToBudget(w: Span, peak: number, onset: number, budget: number, taken: readonly Span[], ctx: WindowContext, payoffFrom = peak): Span | null {
  if (momentDuration(w) <= budget + 1e-9) return w;
  const ev = { peak, payoffFrom };
  const overshootOk = (s: Span, slack = 0) => momentDuration(s) - budget < budget + slack;
  if (ctx.pauses) {
    // Pauses between sentences first (shortened, else the shortest that runs over), then any pause (maybe a
    // comma). Not a soft pause: settleInPauses, after this, still finds a heard pause more ways than these.
    for (const tier of ["sentence", "pause"] as const) {
      const trimmed = inPauses(w, ev, onset, budget, ctx, tier, "best");
      if (trimmed) return trimmed;
      const tight = inPauses(w, ev, onset, Infinity, ctx, tier, "shortest");
      if (tight && overshootOk(tight, SENTENCE_SLACK_SECONDS)) return tight;
    }
  } else {
    const trimmed = shrinkTo(w, ev, onset, budget, taken, ctx);
    if (trimmed) return trimmed;
  }
  const tight = tightest(w, ev, onset, ctx);
  return overshootOk(tight) ? tight : null;
}

/**
 * How much further than the nearest-to-target rule a shortened clip may run over when its ends then lie in pauses
 * rather than in a sentence: about one sentence (the distance a cut looks outward for a pause). Measured: without
 * it, two of three clip edges cut inside a sentence on source c's loud-game streams were clips cut tight to fit
 * the target, where the clip in pauses ran over by 1-3 s more than the rule allowed.
 */
export const SENTENCE_SLACK_SECONDS = BOUNDARY_RULES.snapOutwardSeconds;

/** Where a shortened window may start and end: its own ends and the pauses inside it that keep the event. */
function shortenedEnds(w: Span, ev: Event, onset: number, ctx: WindowContext, tier: PauseTier): { starts: number[]; ends: number[] } {
  const r = BOUNDARY_RULES;
  const latestStart = Math.max(0, onset - r.minLeadSeconds);
  const earliestEnd = earliestEndOf(ev);
  const speech = (t: number) => insideSpeech(t, ctx.pauses);
  // The window's own ends are always candidates (they were placed as well as the content allowed).
  const starts = [w.start, ...cutPoints(ctx, "start", tier).filter((p) => p > w.start && p <= latestStart && !speech(p))].filter((s) => s <= latestStart + 1e-9);
  const ends = [w.end, ...cutPoints(ctx, "end", tier).filter((p) => p < w.end && p >= earliestEnd && !speech(p))].filter((e) => e >= earliestEnd - 1e-9);
  return { starts, ends };
}

interface Event {
  peak: number;
  /** Where the reaction worth keeping is counted from (>= peak). */
  payoffFrom: number;
}

/** A shortened clip ends at least `tailSeconds` after the latest its moment may be. */
const earliestEndOf = (ev: Event): number => Math.max(ev.peak, ev.payoffFrom) + BOUNDARY_RULES.tailSeconds;

/** What a shortened window keeps, in order of importance: the first seconds of reaction, the setup, more reaction. */
function worth(s: number, e: number, ev: Event): number {
  const first = BOUNDARY_RULES.minPayoffSeconds;
  const after = e - ev.payoffFrom;
  return 3 * Math.min(after, first) + (ev.peak - s) + 0.5 * Math.max(0, after - first);
}

/**
 * The window inside `w` with both ends at its own ends or pauses of `tier` (boundaries.ts, PauseTier),
 * at most `length` long and at least the minimum: the one that keeps the most ("best", see worth), or the
 * shortest ("shortest"). Null when there is none.
 */
function inPauses(w: Span, ev: Event, onset: number, length: number, ctx: WindowContext, tier: PauseTier, pick: "best" | "shortest"): Span | null {
  const min = Math.min(ctx.minDuration, ctx.durationSeconds);
  const { starts, ends } = shortenedEnds(w, ev, onset, ctx, tier);
  let best: Span | null = null;
  for (const s of starts)
    for (const e of ends) {
      const len = e - s;
      if (len > length + 1e-9 || len < min - 1e-9) continue;
      if (!best) best = { start: s, end: e };
      else if (pick === "best" ? worth(s, e, ev) > worth(best.start, best.end, ev) : len < momentDuration(best) - 1e-9 || (Math.abs(len - momentDuration(best)) < 1e-9 && worth(s, e, ev) > worth(best.start, best.end, ev))) best = { start: s, end: e };
    }
  return best;
}

/** Pauses unknown: trim the reaction first, then the start, and snap to a quiet point where one is near. */
function shrinkTo(w: Span, ev: Event, onset: number, length: number, taken: readonly Span[], ctx: WindowContext): Span | null {
  const min = Math.min(ctx.minDuration, ctx.durationSeconds);
  if (length < min - 1e-9) return null;
  const { peak } = ev;
  const end = Math.min(w.end, Math.max(w.start + length, earliestEndOf(ev)));
  const start = Math.max(w.start, end - length);
  if (start > Math.max(0, onset - BOUNDARY_RULES.minLeadSeconds) + 1e-9) return null;
  const snapped = snapWindow({ start, end, peak }, ctx.quietPoints, ctx.sceneCuts, { ...ctx, maxDuration: length }, ctx.pauses);
  const clear = taken.every((t) => overlapSeconds(snapped, t) === 0);
  return clear && momentDuration(snapped) <= length + 1e-9 ? snapped : { start, end };
}

/** The shortest part of `w` that still holds the setup's lead-in, the peak and a short reaction (>= min length). */
function tightest(w: Span, ev: Event, onset: number, ctx: WindowContext): Span {
  const min = Math.min(ctx.minDuration, ctx.durationSeconds);
  const { peak } = ev;
  let start = Math.min(Math.max(w.start, onset - BOUNDARY_RULES.minLeadSeconds), peak);
  const end = Math.min(w.end, Math.max(earliestEndOf(ev), start + min));
  start = Math.max(w.start, Math.min(start, end - min));
  return { start, end };
}
