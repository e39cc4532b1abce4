/**
 * A moment's "why" (`signals.reasons`) holds one sentence per end of its clip, written where the analysis placed
 * it: "starts 14.2 s before the peak: ..." and "ends 9.6 s after the peak: ...". Anything that moves an edge
 * later (the render task's snap to scene cuts, keeping a moment off a change of the video's format) restates
 * that end's sentence here, so the seconds it states are those of the final edge and it says what moved it.
 */

export type EdgeSide = "start" | "end";

/** A change smaller than this is no move worth telling (the sentences state tenths of a second). */
const MOVED_SECONDS = 0.05;

const LEAD = /^starts -?\d+(?:\.\d+)? s before the peak: /;
const PAYOFF = /^ends -?\d+(?:\.\d+)? s after the peak: /;

const distance = (side: EdgeSide, peak: number, at: number) =>
  side === "start" ? `starts ${(peak - at).toFixed(1)} s before the peak: ` : `ends ${(at - peak).toFixed(1)} s after the peak: `;

/**
 * `reasons` with each end's sentence stating the distance of `to` from the peak; an end that moved from `from`
 * also gets ", then moved 1.8 s earlier <how>" (`how(side)`: "to a scene cut"). An end without a sentence that
 * moved gets one; other reasons (the signals) are kept as they are. Pure; returns a new array.
 */
export function restateEdges(
  reasons: readonly string[],
  peak: number,
  from: { start: number; end: number },
  to: { start: number; end: number },
  how: (side: EdgeSide) => string,
): string[] {
  const out = [...reasons];
  for (const side of ["start", "end"] as const) {
    const shift = to[side] - from[side];
    const moved = Math.abs(shift) >= MOVED_SECONDS ? `moved ${Math.abs(shift).toFixed(1)} s ${shift < 0 ? "earlier" : "later"} ${how(side)}` : null;
    const pattern = side === "start" ? LEAD : PAYOFF;
    const i = out.findIndex((r) => pattern.test(r));
    if (i >= 0) out[i] = `${distance(side, peak, to[side])}${out[i]!.replace(pattern, "")}${moved ? `, then ${moved}` : ""}`;
    else if (moved) out.push(`${distance(side, peak, to[side])}${moved}`);
  }
  return out;
}
