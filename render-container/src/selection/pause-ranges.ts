import type { SilenceRange } from "../analysis/types";

/**
 * Pauses as stretches of places to cut rather than one point each: the last resort when a clip's edge cannot
 * settle in a pause's usual cut (boundaries.ts, settleInPauses).
 */

/**
 * Where inside each pause a cut may go: from `marginSeconds` after the speech before it to as far before the speech
 * after it (a shorter pause: its middle); only pauses of `minSeconds` or more (between sentences, not a comma).
 */
export function pauseRanges(pauses: readonly SilenceRange[], o: { marginSeconds: number; minSeconds: number }): [number, number][] {
  return pauses
    .filter((p) => p.end - p.start >= o.minSeconds - 1e-9)
    .map((p) => {
      const inset = Math.min(o.marginSeconds, (p.end - p.start) / 2);
      return [p.start + inset, p.end - inset];
    });
}

/**
 * The last resort of settleInPauses (boundaries.ts). Its cut points are one place per pause (the start just before the
 * speech after it, the end just after the speech before it), which keeps silence out of a clip; but a clip held
 * to its length limits can need a start early in a long pause (where a build-up of game sound plays before the
 * talk resumes) or an end late in one. Both ends anywhere inside pauses (`ranges`), the start at most `startMax`
 * and the end at least `endMin`, both within [lo, hi], `min`-`max` long, clear of the neighbours: the pair
 * that moves the two ends least in all, or null.
 */
export function nearestInPauses(
  w: { start: number; end: number },
  ranges: readonly [number, number][],
  limits: { startMax: number; endMin: number; lo: number; hi: number; min: number; max: number },
  clear: (a: number, b: number) => boolean,
): { start: number; end: number } | null {
  let best: { start: number; end: number } | null = null;
  let bestCost = Infinity;
  for (const [a1, b1] of ranges) {
    const sa = Math.max(a1, limits.lo);
    const sb = Math.min(b1, limits.startMax);
    if (sa > sb) continue;
    for (const [a2, b2] of ranges) {
      const ea = Math.max(a2, limits.endMin);
      const eb = Math.min(b2, limits.hi);
      if (ea > eb) continue;
      let s = Math.min(Math.max(w.start, sa), sb);
      let e = Math.min(Math.max(w.end, ea), eb);
      // Too short: the start earlier first (more setup), then the end later; too long: the other way round.
      if (e - s < limits.min) {
        const d = limits.min - (e - s);
        const down = Math.min(d, s - sa);
        s -= down;
        e += d - down;
      } else if (e - s > limits.max) {
        const d = e - s - limits.max;
        const back = Math.min(d, e - ea);
        e -= back;
        s += d - back;
      }
      if (s < sa - 1e-9 || s > sb + 1e-9 || e < ea - 1e-9 || e > eb + 1e-9 || !clear(s, e)) continue;
      const cost = Math.abs(s - w.start) + Math.abs(e - w.end);
      if (cost < bestCost - 1e-9) {
        best = { start: s, end: e };
        bestCost = cost;
      }
    }
  }
  return best;
}
