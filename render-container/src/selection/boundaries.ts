import { clamp } from "../analysis/stats";
import type { Moment } from "./types";

export interface WindowContext {
  /** Combined per-second score. */
  scores: readonly number[];
  speechActivity: readonly number[];
  /** Sorted cut-friendly times (pauses, silences), seconds. */
  quietPoints: readonly number[];
  /** Sorted scene cuts in VOD seconds, when video was analysed. */
  sceneCuts?: readonly number[];
  durationSeconds: number;
  minDuration: number;
  maxDuration: number;
}

export const BOUNDARY_RULES = {
  /** The event continues while the score stays above this share of its peak... */
  eventRatio: 0.5,
  /** ...and began where the score first rose above this share (the onset the lead-in is counted from). */
  onsetRatio: 0.3,
  /** ...allowing dips this long (a breath in the middle of a rant). */
  eventGapSeconds: 2,
  /**
   * Always show at least this much before the event's onset: a clip that starts at the reaction misses what
   * led to it, and the build-up (the attempt, the joke) usually runs 15-30 s.
   */
  minLeadSeconds: 20,
  /** Talking leading into the event is its setup, followed back at most this far. */
  maxSetupSeconds: 30,
  /** Speech activity above which a second counts as talking. */
  talkingActivity: 0.25,
  /** Pauses in the talking shorter than this do not end the setup. */
  setupGapSeconds: 2,
  /** Let the reaction breathe after the event. */
  tailSeconds: 3,
  /**
   * ...but end at most this long after the peak: by then the stream has moved on, and a chat burst that keeps
   * echoing (it lasts 15-20 s) is not something the viewer sees.
   */
  maxAfterPeakSeconds: 15,
  /** At most this share of a clamped clip comes before the peak. */
  maxLeadShare: 0.6,
  /**
   * Quiet points are looked for this far around each end: outward (more setup / more reaction) up to
   * `snapOutwardSeconds`, inward only a little so snapping never eats the setup.
   */
  snapOutwardSeconds: 3,
  snapInwardSeconds: 0.5,
  cutToleranceSeconds: 2.5,
  /** Keep the peak at least this far inside the clip when snapping. */
  peakMarginSeconds: 2,
} as const;

/** The run of seconds around the peak where the score stays high (end exclusive); it starts at the onset. */
export function eventExtent(scores: readonly number[], peakSecond: number): { start: number; end: number } {
  const level = scores[peakSecond]! * BOUNDARY_RULES.eventRatio;
  const onset = scores[peakSecond]! * BOUNDARY_RULES.onsetRatio;
  const gap = BOUNDARY_RULES.eventGapSeconds;
  let start = peakSecond;
  for (let i = peakSecond - 1, miss = 0; i >= 0 && miss <= gap; i--) {
    if (scores[i]! >= onset) {
      start = i;
      miss = 0;
    } else miss++;
  }
  let end = peakSecond + 1;
  for (let i = peakSecond + 1, miss = 0; i < scores.length && miss <= gap; i++) {
    if (scores[i]! >= level) {
      end = i + 1;
      miss = 0;
    } else miss++;
  }
  return { start, end };
}

/**
 * Where the setup of an event begins: at least `minLeadSeconds` before it, and further back through the
 * streamer's talking that leads into it (the "here we go" before the play), up to `maxSetupSeconds`.
 */
export function setupStart(eventStart: number, speechActivity: readonly number[]): number {
  const r = BOUNDARY_RULES;
  let start = eventStart - r.minLeadSeconds;
  const limit = eventStart - r.maxSetupSeconds;
  let miss = 0;
  for (let i = Math.floor(eventStart) - 1; i >= Math.max(0, limit); i--) {
    if ((speechActivity[i] ?? 0) >= r.talkingActivity) {
      start = Math.min(start, i);
      miss = 0;
    } else if (++miss > r.setupGapSeconds) break;
  }
  return Math.max(0, start);
}

/** Clamps a window to [min, max] seconds and to the VOD; growth goes mostly before the peak (more setup). */
export function clampWindow(start: number, end: number, peak: number, ctx: Pick<WindowContext, "durationSeconds" | "minDuration" | "maxDuration">): { start: number; end: number } {
  const total = ctx.durationSeconds;
  const min = Math.min(ctx.minDuration, total);
  const max = Math.max(min, Math.min(ctx.maxDuration, total));
  let s = clamp(start, 0, total);
  let e = clamp(end, 0, total);
  if (e - s > max) {
    const lead = Math.min(peak - s, max * BOUNDARY_RULES.maxLeadShare);
    s = Math.max(s, peak - lead);
    e = s + max;
  }
  if (e - s < min) {
    const missing = min - (e - s);
    s -= missing * 0.6;
    e += missing * 0.4;
  }
  // Shift back inside the VOD without changing the length.
  if (s < 0) {
    e -= s;
    s = 0;
  }
  if (e > total) {
    s -= e - total;
    e = total;
  }
  return { start: Math.max(0, s), end: Math.min(total, e) };
}

/** The nearest point within [t - before, t + after], preferring the side given by `prefer`. */
function nearestIn(points: readonly number[], t: number, before: number, after: number, prefer: "earlier" | "later"): number | null {
  let best: number | null = null;
  let bestCost = Infinity;
  for (const p of points) {
    if (p < t - before) continue;
    if (p > t + after) break;
    const wrongSide = prefer === "earlier" ? p > t : p < t;
    const cost = Math.abs(p - t) + (wrongSide ? 1 : 0);
    if (cost < bestCost) {
      bestCost = cost;
      best = p;
    }
  }
  return best;
}

/**
 * Moves the ends onto scene cuts (preferred: no flash of the previous scene) or quiet points (no cut
 * mid-word), never so far that the peak falls out or the length leaves [min, max].
 */
export function snapWindow(
  w: { start: number; end: number; peak: number },
  quietPoints: readonly number[],
  sceneCuts: readonly number[] | undefined,
  limits: { minDuration: number; maxDuration: number; durationSeconds: number },
): { start: number; end: number } {
  const r = BOUNDARY_RULES;
  const ok = (s: number, e: number) =>
    s >= 0 && e <= limits.durationSeconds + 1e-9 && e - s >= Math.min(limits.minDuration, limits.durationSeconds) - 1e-9 && e - s <= limits.maxDuration + 1e-9;
  let { start, end } = w;

  const cutStart = sceneCuts ? nearestIn(sceneCuts, start, r.cutToleranceSeconds, r.cutToleranceSeconds, "earlier") : null;
  const quietStart = nearestIn(quietPoints, start, r.snapOutwardSeconds, r.snapInwardSeconds, "earlier");
  for (const s of [cutStart, quietStart]) {
    if (s !== null && s <= w.peak - r.peakMarginSeconds && ok(s, end)) {
      start = s;
      break;
    }
  }
  const cutEnd = sceneCuts ? nearestIn(sceneCuts, end, r.cutToleranceSeconds, r.cutToleranceSeconds, "later") : null;
  const quietEnd = nearestIn(quietPoints, end, r.snapInwardSeconds, r.snapOutwardSeconds, "later");
  for (const e of [cutEnd, quietEnd]) {
    if (e !== null && e >= w.peak + r.peakMarginSeconds && ok(start, e)) {
      end = e;
      break;
    }
  }
  return { start, end };
}

/**
 * The clip window for an event peaking at `peakSecond`: setup before, reaction after, clamped and snapped.
 * `onset` is where the event began, for callers that must keep its lead-in.
 */
export function momentWindow(peakSecond: number, ctx: WindowContext): { start: number; end: number; peak: number; onset: number } {
  const peak = Math.min(peakSecond + 0.5, ctx.durationSeconds);
  const ev = eventExtent(ctx.scores, peakSecond);
  const rawStart = setupStart(ev.start, ctx.speechActivity);
  const rawEnd = Math.min(ev.end + BOUNDARY_RULES.tailSeconds, peak + BOUNDARY_RULES.maxAfterPeakSeconds);
  const clamped = clampWindow(rawStart, rawEnd, peak, ctx);
  const snapped = snapWindow({ ...clamped, peak }, ctx.quietPoints, ctx.sceneCuts, ctx);
  return { ...snapped, peak, onset: ev.start };
}

/**
 * Re-snaps a chosen moment to scene cuts found later on its downloaded video (VOD seconds). Manual
 * highlights keep the range the client asked for.
 */
export function refineBoundaries(moment: Moment, cuts: readonly number[], limits?: { minDuration?: number; maxDuration?: number; durationSeconds?: number }): Moment {
  if (moment.source === "manual" || cuts.length === 0) return moment;
  const len = moment.end - moment.start;
  const tol = BOUNDARY_RULES.cutToleranceSeconds;
  const sorted = [...cuts].sort((a, b) => a - b);
  // The current length is always acceptable: refining must never make a valid moment invalid.
  const snapped = snapWindow(moment, [], sorted, {
    minDuration: Math.min(limits?.minDuration ?? len - 2 * tol, len),
    maxDuration: Math.max(limits?.maxDuration ?? len + 2 * tol, len),
    durationSeconds: limits?.durationSeconds ?? Infinity,
  });
  if (snapped.start === moment.start && snapped.end === moment.end) return moment;
  return { ...moment, start: snapped.start, end: snapped.end };
}
