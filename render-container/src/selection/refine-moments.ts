import { restateEdges } from "../../../common/plan/edge-reasons";
import { refineBoundaries } from "./boundaries";
import { overlapSeconds, type Span } from "./similarity";
import type { Moment } from "./types";

export interface RefineLimits {
  minDuration?: number;
  maxDuration?: number;
  durationSeconds?: number;
}

/**
 * Re-snaps one reel's moments to the scene cuts found on their downloaded video (refineBoundaries), one after
 * another, so that no moment moves into a neighbour: snapping an automatic moment that ends where a manual
 * range begins must not make the reel show the same seconds twice. `coverage` gives the part of the VOD that
 * was downloaded for a moment (undefined: none, the moment stays as it is); a refined moment stays inside it
 * and keeps at least min(its length, minDuration). A moment that cannot move keeps its range. Input order kept;
 * each moved end's "why" states where it ended up.
 */
export function refineMoments(moments: readonly Moment[], cuts: readonly number[], limits: RefineLimits = {}, coverage?: (m: Moment) => Span | undefined): Moment[] {
  const out = [...moments];
  for (let i = 0; i < out.length; i++) {
    const m = out[i]!;
    const cover = coverage ? coverage(m) : { start: -Infinity, end: Infinity };
    if (!cover) continue;
    const r = refineBoundaries(m, cuts, limits);
    if (r === m) continue;
    const w = { start: Math.max(r.start, cover.start), end: Math.min(r.end, cover.end) };
    const longEnough = w.end - w.start >= Math.min(m.end - m.start, limits.minDuration ?? 0) - 1e-9;
    const clear = out.every((o, j) => j === i || overlapSeconds(w, o) === 0);
    if (!longEnough || !clear) continue;
    // An end held back at the edge of the downloaded video lies short of its cut: its "why" says so.
    const reasons = w.start === r.start && w.end === r.end ? r.signals.reasons : restateEdges(m.signals.reasons, m.peak, m, w, (side) => (w[side] === r[side] ? "to a scene cut" : "towards a scene cut, as far as its neighbours and the downloaded video allow"));
    out[i] = { ...r, ...w, signals: { ...r.signals, reasons } };
  }
  return out;
}
