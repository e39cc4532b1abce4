import type { SnapWindow } from "../../../common/contract/job-plan";
import type { Moment } from "../selection/types";

export interface SnapLimits {
  durationSeconds: number;
  /** VOD seconds where the video changes its media format: one clip holds one format, so no edge crosses one. */
  formatSwitches: readonly number[];
  /** min_highlight_duration / max_highlight_duration of the request. */
  minDuration: number;
  maxDuration: number;
}

/**
 * How far each moment of one reel may move when its own render task snaps its edges to the scene cuts it finds
 * (refineBoundaries), so that tasks that never see each other keep today's rules (refineMoments):
 * - an automatic moment never moves into a neighbour of its reel: between two automatic moments the gap is
 *   split in the middle, so even both snapping outward cannot make the reel show a second twice (a snap moves
 *   an edge by at most BOUNDARY_RULES.cutToleranceSeconds, so only gaps under twice that are ever shared); next
 *   to a manual range, which never moves, it may use the whole gap; moments that touch stay apart where they touch;
 * - nor across a format switch, nor outside the VOD;
 * - manual highlights keep the range the client asked for: null.
 * The task also keeps the duration within [min(length, min_duration), max(length, max_duration)] (refineBoundaries
 * accepts the moment's own length). `moments` are one reel's, in any order; windows come back in the same order.
 */
export function snapWindows(moments: readonly Moment[], limits: SnapLimits): (SnapWindow | null)[] {
  const order = moments.map((_, i) => i).sort((a, b) => moments[a]!.start - moments[b]!.start);
  const windows = new Array<SnapWindow | null>(moments.length).fill(null);
  order.forEach((index, k) => {
    const m = moments[index]!;
    if (m.source === "manual") return;
    const prev = k > 0 ? moments[order[k - 1]!]! : null;
    const next = k + 1 < order.length ? moments[order[k + 1]!]! : null;
    let minStart = prev ? shareOfGap(prev, m).secondFrom : 0;
    let maxEnd = next ? shareOfGap(m, next).firstUntil : limits.durationSeconds;
    for (const at of limits.formatSwitches) {
      if (at <= m.start + 1e-6) minStart = Math.max(minStart, at);
      if (at >= m.end - 1e-6) maxEnd = Math.min(maxEnd, at);
    }
    windows[index] = {
      min_start: Math.min(m.start, Math.max(0, minStart)),
      max_end: Math.max(m.end, Math.min(limits.durationSeconds, maxEnd)),
      min_duration: limits.minDuration,
      max_duration: limits.maxDuration,
    };
  });
  return windows;
}

/** Where the gap between two consecutive moments is divided: `first` may end until, `second` may start from. */
function shareOfGap(first: Moment, second: Moment): { firstUntil: number; secondFrom: number } {
  // Touching (or overlapping): each stays on its own side.
  if (second.start <= first.end) return { firstUntil: first.end, secondFrom: second.start };
  if (first.source === "manual") return { firstUntil: first.end, secondFrom: first.end };
  if (second.source === "manual") return { firstUntil: second.start, secondFrom: second.start };
  const middle = (first.end + second.start) / 2;
  return { firstUntil: middle, secondFrom: middle };
}
