import { restateEdges } from "../../../common/plan/edge-reasons";
import type { SilenceRange } from "../analysis/types";
import { FIRM_PAUSE_SECONDS, isSoftPause } from "../analysis/voice-activity/speech-pauses";
import { EVIDENCE_RULES } from "./evidence";
import { nearestInPauses, pauseRanges } from "./pause-ranges";
import { clamp, movingAverage } from "../analysis/stats";
import type { Moment } from "./types";

export interface WindowContext {
  /** Combined per-second score. */
  scores: readonly number[];
  speechActivity: readonly number[];
  /** Sorted cut-friendly times (pauses, silences), seconds: the fallback when `pauses` is unknown. */
  quietPoints: readonly number[];
  /** Sorted pauses between sentences (AudioAnalysis.pauses); a cut inside one cuts through no speech. */
  pauses?: readonly SilenceRange[];
  /** Loudness above the stream's baseline per second, dB: where a build-up rises. */
  loudnessDb?: readonly number[];
  /** Sorted scene cuts in VOD seconds, when video was analysed. */
  sceneCuts?: readonly number[];
  /** The audience and streamer scores per second: whether an event is led by chat alone. */
  audience?: readonly number[];
  streamer?: readonly number[];
  /**
   * Seconds before chat's credited range that a moment only chat reacted to may still lie (the stream did not
   * show its lag: ReactionLag.reach - max). A chat-led clip's setup is looked for that much earlier.
   */
  chatReachSeconds?: number;
  durationSeconds: number;
  minDuration: number;
  maxDuration: number;
}

export const BOUNDARY_RULES = {
  /** The event continues while the score stays above this share of its peak... */
  eventRatio: 0.5,
  /** ...and began where the score first rose above this share (the onset the setup is looked for before). */
  onsetRatio: 0.3,
  /** ...allowing dips this long (a breath in the middle of a rant). */
  eventGapSeconds: 2,
  /** Every clip shows at least this much before the event's onset, whatever the signals say. */
  minLeadSeconds: 4,
  /** The setup is looked for at most this far before the onset. */
  maxSetupSeconds: 35,
  /** Without any marker of where the setup starts, this much before the onset is shown. */
  defaultLeadSeconds: 12,
  /** A pause in the talk at least this long ends the setup: the talk after it leads into the moment. */
  setupPauseSeconds: 1.8,
  /** Speech activity above which a second counts as talking (when pauses are unknown). */
  talkingActivity: 0.25,
  /** A build-up: loudness climbing at least this many dB towards the onset... */
  riseDb: 3,
  /** ...at least that fast: `riseDb` within this many seconds (a slow drift over a minute is no build-up). */
  riseWithinSeconds: 15,
  /** The reaction after the peak: at least this long is kept... */
  minPayoffSeconds: 8.5,
  /** ...and this long after the event (voice, or chat's reaction mapped back) has died down... */
  afterEventSeconds: 3,
  /** ...but at most this long after the peak: by then the stream has moved on. */
  maxAfterPeakSeconds: 22,
  /** At most this share of a clamped clip comes before the peak. */
  maxLeadShare: 0.6,
  /**
   * A cut looks this far for a pause: outward (more setup / more reaction) up to `snapOutwardSeconds`, inward
   * only a little so snapping never eats the setup.
   */
  snapOutwardSeconds: 6,
  snapInwardSeconds: 1.5,
  /** An end inside speech with no pause that near looks this far on (a rant that runs on is not cut). */
  snapOutwardInSpeechSeconds: 12,
  /** A cut sits this far inside a pause from the speech it borders. */
  pauseMarginSeconds: 0.5,
  /** No cut closer than this to the speech either side of a pause (insideSpeech), when the pause allows. */
  speechGuardSeconds: 0.3,
  /**
   * A pause at least this long is surely between sentences; shorter ones (from the analysis's 0.45 s up) may be
   * a comma or a breath, so a cut takes them only when no longer pause is in reach.
   */
  sentencePauseSeconds: 0.6,
  /**
   * A pause shorter than this is soft (isSoftPause): not heard as a pause at all, but the quietest place of a long
   * stretch the voice model heard as speech (speech-pauses.ts, SOFT_PAUSE). A cut takes one only when no pause is
   * in reach, where it would otherwise land wherever the clip's length put it.
   */
  firmPauseSeconds: FIRM_PAUSE_SECONDS,
  cutToleranceSeconds: 2.5,
  /** Keep the peak at least this far inside the clip when snapping. */
  peakMarginSeconds: 2,
  /** Kept for callers that pad around the reaction: seconds past the peak a trimmed clip still shows. */
  tailSeconds: 3,
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

export interface Boundary {
  at: number;
  /** Why the clip starts or ends there, for the moment's "why" data. */
  reason: string;
}

/** Where the talk leading into the event begins: the end of the last long pause before it. */
function talkStart(onset: number, lo: number, hi: number, ctx: Pick<WindowContext, "pauses" | "speechActivity">): Boundary | null {
  const r = BOUNDARY_RULES;
  if (ctx.pauses) {
    for (let i = ctx.pauses.length - 1; i >= 0; i--) {
      const p = ctx.pauses[i]!;
      if (p.end > hi) continue;
      if (p.end < lo) break;
      if (p.end - p.start >= r.setupPauseSeconds) return { at: p.end, reason: `the streamer starts talking after a ${(p.end - p.start).toFixed(1)} s pause` };
    }
    return null;
  }
  // Per-second fallback: two quiet seconds in a row are a pause.
  for (let i = Math.floor(hi) - 1; i - 1 >= Math.max(0, lo); i--) {
    const quiet = (j: number) => (ctx.speechActivity[j] ?? 0) < r.talkingActivity;
    if (!quiet(i + 1) && quiet(i) && quiet(i - 1)) return { at: i + 1, reason: "the streamer starts talking after a pause" };
  }
  return null;
}

/**
 * Where a build-up towards the event began: the loudness before the onset (its upper envelope, so the gaps
 * between words do not count) as a level line that turns into a steady climb towards the event. The turn is
 * where a "flat, then rising" line fits the level best (least squares over every turning point; the level
 * wanders by a few dB as the streamer talks, so one noisy second does not decide it). It counts as a build-up
 * when the climb is at least `riseDb`, at least that steep over `riseWithinSeconds`, and lasts at least 4 s.
 * The event itself is left out: only what leads to it.
 */
function riseStart(onset: number, lo: number, loudnessDb: readonly number[] | undefined): Boundary | null {
  if (!loudnessDb) return null;
  const r = BOUNDARY_RULES;
  const a = Math.max(0, Math.floor(lo) - 3);
  const b = Math.min(loudnessDb.length, Math.floor(onset));
  if (b - a < 8) return null;
  // The loudest of 3 s bridges the gaps between words (the line is fitted to it: more smoothing would blur the
  // turn); a 5 s average finds the top the climb is measured to. Only the rise above the stream's usual level
  // counts: coming back from a silence is not a build-up.
  const slice = loudnessDb.slice(a, b).map((d) => Math.max(0, d));
  const upper = slice.map((_, i) => Math.max(...slice.slice(Math.max(0, i - 1), i + 2)));
  const level = movingAverage(upper, 2);
  // The last seconds before the onset are often a breath before the shout: the climb is measured up to the top.
  let top = level.length - 1;
  for (let i = level.length - 1; i >= Math.max(0, level.length - 4); i--) if (level[i]! > level[top]!) top = i;
  const fit = hingeFit(upper, Math.max(0, Math.floor(lo) - a), top);
  if (!fit) return null;
  const climb = fit.slope * (top - fit.turn);
  if (climb < r.riseDb || top - fit.turn < 4 || fit.slope < r.riseDb / r.riseWithinSeconds) return null;
  return { at: a + fit.turn, reason: `the build-up begins (loudness climbing ${climb.toFixed(0)} dB towards the moment)` };
}

/**
 * The best "flat, then a straight climb" line through y[first..last]: y = c before `turn`, c + slope * (t - turn)
 * from it, by least squares over every turn that leaves at least 4 s of climb. Null when no turn climbs.
 */
function hingeFit(y: readonly number[], first: number, last: number): { turn: number; slope: number } | null {
  let best: { turn: number; slope: number; sse: number } | null = null;
  for (let k = first; k <= last - 4; k++) {
    // Regress y on x = max(0, t - k): slope and intercept in closed form.
    let n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (let t = first; t <= last; t++) {
      const x = Math.max(0, t - k);
      n++;
      sx += x;
      sy += y[t]!;
      sxx += x * x;
      sxy += x * y[t]!;
    }
    const den = n * sxx - sx * sx;
    if (den <= 0) continue;
    const slope = (n * sxy - sx * sy) / den;
    const c = (sy - slope * sx) / n;
    if (slope <= 0) continue;
    let sse = 0;
    for (let t = first; t <= last; t++) sse += (y[t]! - c - slope * Math.max(0, t - k)) ** 2;
    if (!best || sse < best.sse - 1e-9) best = { turn: k, slope, sse };
  }
  return best && { turn: best.turn, slope: best.slope };
}

/**
 * Where the setup of an event begins, from the content: the talk leading into it (after the last long pause),
 * the start of a build-up (loudness climbing towards it), or a scene cut; the earliest of those within
 * `maxSetupSeconds` (a clip that starts a little early loses less than one that misses the setup). Without
 * any, `defaultLeadSeconds` before the onset. Always at least `minLeadSeconds` before it.
 */
export function findSetup(onset: number, ctx: Pick<WindowContext, "pauses" | "speechActivity" | "loudnessDb" | "sceneCuts">): Boundary {
  const r = BOUNDARY_RULES;
  const hi = Math.max(0, onset - r.minLeadSeconds);
  const lo = Math.max(0, onset - r.maxSetupSeconds);
  const markers: Boundary[] = [];
  const talk = talkStart(onset, lo, hi, ctx);
  if (talk) markers.push(talk);
  const rise = riseStart(onset, lo, ctx.loudnessDb);
  if (rise && rise.at <= hi) markers.push(rise);
  const cut = ctx.sceneCuts?.filter((c) => c >= lo && c <= hi).at(-1);
  if (cut !== undefined) markers.push({ at: cut, reason: "a scene cut" });
  if (markers.length === 0) return { at: Math.max(0, onset - r.defaultLeadSeconds), reason: "no setup marker found, a default lead" };
  // A build-up belongs to this moment; a pause before it is only where some earlier talk began.
  if (rise && rise.at <= hi) return rise;
  return markers.reduce((a, b) => (b.at < a.at ? b : a));
}

/** Kept for callers of the earlier API: the setup start from speech activity alone. */
export function setupStart(eventStart: number, speechActivity: readonly number[]): number {
  return findSetup(eventStart, { speechActivity }).at;
}

/**
 * Where the reaction after the peak is over: the event (the voice staying up, chat's reaction mapped back)
 * plus `afterEventSeconds`, at least `minPayoffSeconds` after the peak, at most `maxAfterPeakSeconds`.
 */
export function payoffEnd(peak: number, eventEnd: number, latestMoment = peak): Boundary {
  const r = BOUNDARY_RULES;
  const wanted = Math.max(latestMoment + r.minPayoffSeconds, eventEnd + r.afterEventSeconds);
  // Counted from the latest the moment may be: led by chat alone, the peak is only somewhere in the range chat's
  // lag allows, and the moment may be at its end.
  const latest = Math.max(peak, latestMoment);
  if (wanted > latest + r.maxAfterPeakSeconds) return { at: latest + r.maxAfterPeakSeconds, reason: `the reaction runs on; cut ${r.maxAfterPeakSeconds} s after the peak` };
  return eventEnd + r.afterEventSeconds >= peak + r.minPayoffSeconds
    ? { at: wanted, reason: "the reaction has died down" }
    : { at: wanted, reason: "the reaction after the peak" };
}

/**
 * Which pauses a cut may take, from the surest: `sentence`, pauses of `sentencePauseSeconds` or more; `pause`, any
 * pause heard as one (`firmPauseSeconds` or more: a shorter one may be a comma or a breath inside a sentence);
 * `soft`, the soft ones too. Cuts take a long pause when one is in reach, a short one only when none is, a soft
 * one last.
 */
export type PauseTier = "sentence" | "pause" | "soft";

/** The shortest pause of a tier. */
export function tierMinSeconds(tier: PauseTier): number {
  return tier === "sentence" ? BOUNDARY_RULES.sentencePauseSeconds : tier === "pause" ? BOUNDARY_RULES.firmPauseSeconds : 0;
}

/** Cut points: for a start, late in each pause of `tier` (just before the talk resumes); for an end, early in it. */
export function cutPoints(ctx: Pick<WindowContext, "pauses" | "quietPoints">, side: "start" | "end", tier: PauseTier = "pause"): number[] {
  if (!ctx.pauses) return [...ctx.quietPoints];
  const m = BOUNDARY_RULES.pauseMarginSeconds;
  const min = tierMinSeconds(tier);
  return ctx.pauses
    .filter((p) => p.end - p.start >= min - 1e-9)
    .map((p) => {
      const inset = Math.min(m, (p.end - p.start) / 2);
      return side === "start" ? p.end - inset : p.start + inset;
    });
}

/**
 * True when `t` lies in speech, or too near it to cut: pauses are known and none holds it at least
 * `speechGuardSeconds` (or half the pause, when shorter) from the speech either side. A pause's heard edges are
 * not the sentence's: a last syllable fading into the game's sound reads as pause 0.3-0.45 s before it ends, a soft
 * first word starts up to 0.35 s before it is heard, and a speech engine's own silence may count as part of its
 * sentence. A cut 0.03 s from the heard edge of a pause (where a clip held to its length limits used to settle)
 * is inside the sentence by any of those measures.
 */
export function insideSpeech(t: number, pauses: readonly SilenceRange[] | undefined): boolean {
  if (!pauses) return false;
  const g = BOUNDARY_RULES.speechGuardSeconds;
  return !pauses.some((p) => {
    const inset = Math.min(g, (p.end - p.start) / 2);
    return p.start + inset - 1e-6 <= t && t <= p.end - inset + 1e-6;
  });
}

/** The point nearest `t` within [t - before, t + after], preferring the side given (1 s handicap for the other). */
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

/**
 * Moves the ends onto scene cuts (no flash of the previous scene) or pauses between sentences (no cut through
 * speech), never so far that the peak falls out or the length leaves [min, max]. A scene cut inside speech is
 * not taken when pauses are known: a sentence cut in half is worse than a frame of the previous scene. Soft
 * pauses are not cut points here: an end left in speech is settled later (settleInPauses), which reaches
 * further for a pause heard as one before it takes a soft one.
 */
export function snapWindow(
  w: { start: number; end: number; peak: number },
  quietPoints: readonly number[],
  sceneCuts: readonly number[] | undefined,
  limits: { minDuration: number; maxDuration: number; durationSeconds: number },
  pauses?: readonly SilenceRange[],
): { start: number; end: number } {
  const r = BOUNDARY_RULES;
  const ok = (s: number, e: number) =>
    s >= 0 && e <= limits.durationSeconds + 1e-9 && e - s >= Math.min(limits.minDuration, limits.durationSeconds) - 1e-9 && e - s <= limits.maxDuration + 1e-9;
  let { start, end } = w;
  const cuts = sceneCuts?.filter((c) => !insideSpeech(c, pauses));

  const cutStart = cuts ? nearestIn(cuts, start, r.cutToleranceSeconds, r.cutToleranceSeconds, "earlier") : null;
  const startIn = (tier: PauseTier) => nearestIn(cutPoints({ pauses, quietPoints }, "start", tier), start, r.snapOutwardSeconds, r.snapInwardSeconds, "earlier");
  for (const s of [cutStart, startIn("sentence"), startIn("pause")]) {
    if (s !== null && s <= w.peak - r.peakMarginSeconds && ok(s, end)) {
      start = s;
      break;
    }
  }
  const cutEnd = cuts ? nearestIn(cuts, end, r.cutToleranceSeconds, r.cutToleranceSeconds, "later") : null;
  const endPoints = cutPoints({ pauses, quietPoints }, "end");
  const sentenceEnds = cutPoints({ pauses, quietPoints }, "end", "sentence");
  const pauseEnd = nearestIn(endPoints, end, r.snapInwardSeconds, r.snapOutwardSeconds, "later");
  const sentenceEnd = nearestIn(sentenceEnds, end, r.snapInwardSeconds, r.snapOutwardSeconds, "later");
  const far = (points: number[]) => (pauseEnd === null && insideSpeech(end, pauses) ? nearestIn(points, end, 0, r.snapOutwardInSpeechSeconds, "later") : null);
  for (const e of [cutEnd, sentenceEnd, pauseEnd, far(sentenceEnds), far(endPoints)]) {
    if (e !== null && e >= w.peak + r.peakMarginSeconds && ok(start, e)) {
      end = e;
      break;
    }
  }
  return { start, end };
}

/**
 * Moves an end that ended up inside speech (after clamping, fitting the budget or making room for a neighbour)
 * to the nearest pause: inward first (a start no later than `minLeadSeconds` before the event's `onset`, when
 * given), as long as the peak stays inside and the clip keeps its minimum length
 * (the reel loses a second of setup or reaction rather than cutting a sentence in half), else outward by at
 * most `snapInwardSeconds` + 1.5 s when that stays clear of `taken` and within the maximum length; when moving
 * inward would leave the clip too short, the other end moves out to a pause to make up the length (clear of
 * `taken`, within the maximum); when an end can only reach a pause beyond the maximum length, the start moves
 * later to a pause to make room (a few seconds of setup matter less than a sentence cut in half). Pauses between
 * sentences first, then any pause (a comma), and only for an end still in speech after those, a soft pause (the
 * voice model's least sure place in a long stretch it heard as speech) before giving up.
 */
export function settleInPauses(
  w: { start: number; end: number },
  peak: number,
  ctx: Pick<WindowContext, "pauses" | "quietPoints" | "minDuration" | "maxDuration" | "durationSeconds">,
  taken: readonly { start: number; end: number }[] = [],
  onset?: number,
): { start: number; end: number } {
  if (!ctx.pauses) return w;
  const pauses = ctx.pauses;
  const min = Math.min(ctx.minDuration, ctx.durationSeconds) - 1e-9;
  const max = ctx.maxDuration + 1e-9;
  const reach = BOUNDARY_RULES.snapInwardSeconds + 1.5;
  const margin = BOUNDARY_RULES.peakMarginSeconds;
  const clear = (a: number, b: number) => taken.every((t) => t.end <= a + 1e-9 || t.start >= b - 1e-9);
  const speech = (t: number) => insideSpeech(t, pauses);
  // An end at least `min` after `s`, at or after `from`, in a pause, clear of the neighbours.
  const endFrom = (s: number, from: number, loosest: PauseTier): number | undefined => {
    const want = Math.max(from, s + min + 1e-9);
    if (!speech(want) && want <= ctx.durationSeconds && want - s <= max && clear(s, want)) return want;
    return cutPoints(ctx, "end", loosest).find((p) => p >= want && p <= want + reach && p <= ctx.durationSeconds && p - s <= max && clear(s, p));
  };
  // A start at least `min` before `e`, at or before `from`, in a pause, clear of the neighbours.
  const startUntil = (e: number, from: number, loosest: PauseTier): number | undefined => {
    const want = Math.min(from, e - min - 1e-9);
    if (!speech(want) && want >= 0 && e - want <= max && clear(want, e)) return want;
    return cutPoints(ctx, "start", loosest).filter((p) => p <= want && p >= want - reach && p >= 0 && e - p <= max && clear(p, e)).at(-1);
  };
  // Pauses heard as such first; a soft pause (firmPauseSeconds) only for an end still left in speech.
  const firm = settleWith(w, ["sentence", "pause"]);
  return speech(firm.start) || speech(firm.end) ? settleWith(firm, ["soft"]) : firm;

  function settleWith(from: { start: number; end: number }, tiers: readonly PauseTier[]): { start: number; end: number } {
    const loosest = tiers.at(-1)!;
    let { start, end } = from;
    // The latest a start may move to: before the peak with its margin; but a long clip led by chat alone, clamped
    // around the latest its moment may be, can already start after the loudest second of chat's range, and its
    // start then moves on by at most `reach` to the next pause rather than stay inside a sentence.
    // Nor does a start move later than `minLeadSeconds` before the event's onset, when it is known (the rule every
    // clip keeps; for a clip led by chat alone, MomentWindow.momentFrom): a start moved 29 s on to the first pause
    // heard lost such a moment, leaving only chat's reaction.
    const beforeOnset = onset === undefined ? Infinity : Math.max(start, onset - BOUNDARY_RULES.minLeadSeconds);
    const latestStart = start > peak - margin ? Math.min(start + reach, end - min) : Math.min(peak - margin, beforeOnset);
    if (speech(start)) {
      settle: for (const tier of tiers) {
        const points = cutPoints(ctx, "start", tier);
        const later = points.find((p) => p > start && p <= latestStart && end - p >= min);
        const earlier = points.filter((p) => p < start && p >= start - reach && p >= 0 && end - p <= max && clear(p, end)).at(-1);
        const to = later ?? earlier;
        if (to !== undefined) {
          start = to;
          break;
        }
        for (const p of points.filter((x) => x > start && x <= latestStart)) {
          const e = endFrom(p, end, loosest);
          if (e !== undefined) {
            [start, end] = [p, e];
            break settle;
          }
        }
        // At the maximum length with no pause later: start at an earlier pause and end as much earlier, at a pause
        // (a few seconds less of the reaction's tail matter less than a sentence cut in half).
        for (const p of points.filter((x) => x < start && x >= start - reach && x >= 0).reverse()) {
          const e = cutPoints(ctx, "end", loosest).filter((x) => x <= p + max && x >= peak + margin && x - p >= min && !speech(x) && clear(p, x)).at(-1);
          if (e !== undefined && clear(p, e)) {
            [start, end] = [p, e];
            break settle;
          }
        }
      }
    }
    if (speech(end)) {
      settle: for (const tier of tiers) {
        const points = cutPoints(ctx, "end", tier);
        const earlier = points.filter((p) => p < end && p >= peak + margin && p - start >= min).at(-1);
        const later = points.find((p) => p > end && p <= end + reach && p <= ctx.durationSeconds && p - start <= max && clear(start, p));
        const to = earlier ?? later;
        if (to !== undefined) {
          end = to;
          break;
        }
        for (const p of points.filter((x) => x < end && x >= peak + margin).reverse()) {
          const s0 = startUntil(p, start, loosest);
          if (s0 !== undefined && !speech(s0)) {
            [start, end] = [s0, p];
            break settle;
          }
        }
        // The sentence runs on past the maximum length: end after it and give up the setup's first seconds.
        for (const p of points.filter((x) => x > end && x <= end + BOUNDARY_RULES.snapOutwardInSpeechSeconds && x <= ctx.durationSeconds && clear(start, x))) {
          const s0 = cutPoints(ctx, "start", loosest).find((x) => x >= start && x >= p - max && x <= peak - margin && p - x >= min && !speech(x));
          if (s0 !== undefined) {
            [start, end] = [s0, p];
            break settle;
          }
        }
      }
    }
    if (speech(start) || speech(end)) {
      // Every pause's one cut point would not do: anywhere inside a pause will (pauseRanges).
      const lo = Math.max(0, start - BOUNDARY_RULES.snapOutwardSeconds);
      const hi = Math.min(ctx.durationSeconds, end + BOUNDARY_RULES.snapOutwardSeconds);
      for (const tier of tiers) {
        const ranges = pauseRanges(pauses, { marginSeconds: BOUNDARY_RULES.pauseMarginSeconds, minSeconds: tierMinSeconds(tier) });
        const alt = nearestInPauses({ start, end }, ranges, { startMax: latestStart, endMin: peak + margin, lo, hi, min, max }, clear);
        if (alt) {
          ({ start, end } = alt);
          break;
        }
      }
    }
    return { start, end };
  }
}

export interface MomentWindow {
  start: number;
  end: number;
  peak: number;
  /** Where the event began (its setup is before this) and ended (its reaction follows). */
  onset: number;
  eventEnd: number;
  /**
   * The earliest second the clip must show `minLeadSeconds` before, however short the reel's target makes it:
   * the onset, or for a clip led by chat alone on a stream that does not show its lag, where the streamer last
   * stirred in chat's reach before the onset (chatLedMomentFrom).
   */
  momentFrom: number;
  /**
   * The latest the moment itself may be: the peak, or when chat alone reacted, the latest time chat's lag
   * allows. The reaction kept after the moment is counted from here.
   */
  payoffFrom: number;
  /** Why each end is where it is. */
  why: { start: string; end: string };
}

/**
 * The clip window for an event peaking at `peakSecond`: its setup from the content before it, its payoff
 * after it, clamped to [min, max] and snapped to a pause or scene cut; `why` explains both ends.
 */
export function momentWindow(peakSecond: number, ctx: WindowContext): MomentWindow {
  const peak = Math.min(peakSecond + 0.5, ctx.durationSeconds);
  // Led by chat alone, the moment is somewhere in the range chat's lag allows (the event's extent): the payoff
  // is counted from its latest possible time.
  const chatLed = ctx.audience !== undefined && ctx.streamer !== undefined && (ctx.audience[peakSecond] ?? 0) > 2 * (ctx.streamer[peakSecond] ?? 0);
  // Led by the streamer, the event is the streamer's: chat's credit says only that chat reacted to something in
  // the range its lag allows (up to 30 s wide when the stream does not show its lag), not that the event lasts it.
  const ev = eventExtent(!chatLed && ctx.streamer ? ctx.streamer : ctx.scores, peakSecond);
  // A chat-led moment on a stream that does not show its lag may lie before the credited range: the clip starts
  // that much earlier (as setup: trimmed first when the budget is short, so the usual range is what stays).
  const setup = findSetup(Math.max(0, ev.start - (chatLed ? (ctx.chatReachSeconds ?? 0) : 0)), ctx);
  const payoffFrom = chatLed ? Math.max(peak, ev.end - 1) : peak;
  const payoff = payoffEnd(peak, ev.end, payoffFrom);
  // Clamped around the latest the moment may be, so a long clip led by chat keeps the end of chat's range too.
  const clamped = clampWindow(setup.at, payoff.at, chatLed ? payoffFrom : peak, ctx);
  const snapped = snapWindow({ ...clamped, peak }, ctx.quietPoints, ctx.sceneCuts, ctx, ctx.pauses);
  const momentFrom = chatLed ? chatLedMomentFrom(ev.start, ctx) : ev.start;
  return { ...snapped, peak, onset: ev.start, eventEnd: ev.end, momentFrom, payoffFrom, why: describeEnds(snapped, peak, setup, payoff, clamped, ctx) };
}

/**
 * Where a moment led by chat alone may begin when the stream does not show its lag: chat's credited range starts
 * at `onset`, but its moment may lie up to `chatReachSeconds` earlier. The streamer's own reaction is the best
 * marker of where: the start of the streamer's last stir (a run at half an event's score, the level an event's
 * run extends to) in that reach, else the onset. Without it a reel cut short kept the clip's lead-in only before
 * the credited range: a clip that began after its moment and held only the reaction (source c, chat 17 s late,
 * the streamer's shout 2 s before the range; a budget trimming the clip to the range).
 */
export function chatLedMomentFrom(onset: number, ctx: Pick<WindowContext, "streamer" | "chatReachSeconds">): number {
  const reach = ctx.chatReachSeconds ?? 0;
  if (!ctx.streamer || reach <= 0) return onset;
  const level = EVIDENCE_RULES.streamerEventScore * 0.5;
  const lo = Math.max(0, Math.floor(onset - reach));
  for (let s = Math.min(ctx.streamer.length, Math.ceil(onset)) - 1; s >= lo; s--) {
    if (ctx.streamer[s]! < level) continue;
    let from = s;
    while (from > lo && ctx.streamer[from - 1]! >= level) from--;
    return Math.min(onset, from);
  }
  return onset;
}

/** One sentence per end of the clip: what marked it, and what clamping and snapping did to it. */
export function describeEnds(
  w: { start: number; end: number },
  peak: number,
  setup: Boundary,
  payoff: Boundary,
  clamped: { start: number; end: number },
  ctx: Pick<WindowContext, "pauses" | "sceneCuts">,
): { start: string; end: string } {
  const how = (t: number, asked: number, clampedTo: number) => {
    const parts: string[] = [];
    if (Math.abs(clampedTo - asked) > 0.05) parts.push("moved to keep the clip within its length limits");
    const pause = ctx.pauses?.find((p) => p.start - 1e-6 <= t && t <= p.end + 1e-6);
    if (ctx.sceneCuts?.some((c) => Math.abs(c - t) < 1e-6)) parts.push("on a scene cut");
    else if (pause) parts.push(isSoftPause(pause) ? "no pause in reach, so where the speech is quietest" : "in a pause between sentences");
    else if (insideSpeech(t, ctx.pauses)) parts.push("no pause nearby, so inside speech");
    return parts.length ? `, ${parts.join(", ")}` : "";
  };
  return {
    start: `starts ${(peak - w.start).toFixed(1)} s before the peak: ${setup.reason}${how(w.start, setup.at, clamped.start)}`,
    end: `ends ${(w.end - peak).toFixed(1)} s after the peak: ${payoff.reason}${how(w.end, payoff.at, clamped.end)}`,
  };
}

/**
 * Re-snaps a chosen moment to scene cuts found later on its downloaded video (VOD seconds). Manual
 * highlights keep the range the client asked for; a cut inside the moment's known speech is not taken. A moved
 * end's "why" is restated: its seconds from the peak, and how far the cut moved it.
 */
export function refineBoundaries(moment: Moment, cuts: readonly number[], limits?: { minDuration?: number; maxDuration?: number; durationSeconds?: number }): Moment {
  if (moment.source === "manual" || cuts.length === 0) return moment;
  const len = moment.end - moment.start;
  const tol = BOUNDARY_RULES.cutToleranceSeconds;
  const sorted = [...cuts].sort((a, b) => a - b).filter((c) => !insideSpeech(c, moment.pauses));
  // The current length is always acceptable: refining must never make a valid moment invalid.
  const snapped = snapWindow(moment, [], sorted, {
    minDuration: Math.min(limits?.minDuration ?? len - 2 * tol, len),
    maxDuration: Math.max(limits?.maxDuration ?? len + 2 * tol, len),
    durationSeconds: limits?.durationSeconds ?? Infinity,
  });
  if (snapped.start === moment.start && snapped.end === moment.end) return moment;
  const reasons = restateEdges(moment.signals.reasons, moment.peak, moment, snapped, () => "to a scene cut");
  return { ...moment, start: snapped.start, end: snapped.end, signals: { ...moment.signals, reasons } };
}
