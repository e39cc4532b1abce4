import type { MediaPlaylist, MediaSegment } from "../../../common/twitch";

export interface TimeRange {
  start: number;
  end: number;
}

/**
 * Groups of consecutive segments that together cover the ranges (each widened by `pad` seconds). Ranges whose
 * segments overlap or touch share one group, so no segment is fetched twice and each group is one file; an fMP4
 * playlist's switch to an initialisation section (#EXT-X-MAP) that `sameInit` does not equate ends a group.
 */
export function coveringSegmentGroups(
  playlist: MediaPlaylist,
  ranges: readonly TimeRange[],
  pad = 0.5,
  sameInit: (a: string | null, b: string | null) => boolean = (a, b) => a === b,
): MediaSegment[][] {
  const segs = playlist.segments;
  if (segs.length === 0) return [];
  const spans: [number, number][] = [];
  for (const r of ranges) {
    if (!(r.end > r.start)) continue;
    const from = Math.max(0, r.start - pad);
    const to = Math.min(playlist.total_duration, r.end + pad);
    const first = segs.findIndex((s) => s.start + s.duration > from);
    if (first < 0) continue;
    let last = first;
    while (last + 1 < segs.length && segs[last + 1]!.start < to) last++;
    spans.push([first, last]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const s of spans) {
    const prev = merged[merged.length - 1];
    if (prev && s[0] <= prev[1] + 1) prev[1] = Math.max(prev[1], s[1]);
    else merged.push([s[0], s[1]]);
  }
  // A file holds one fMP4 initialisation section: a group ends where the playlist switches to another one
  // (discontinuities need no new file: downloads put every sequence on one timeline).
  const groups: MediaSegment[][] = [];
  for (const [a, b] of merged) {
    let from = a;
    for (let i = a + 1; i <= b + 1; i++) {
      if (i > b || !sameInit(segs[i - 1]!.init_uri ?? null, segs[i]!.init_uri ?? null)) {
        groups.push(segs.slice(from, i));
        from = i;
      }
    }
  }
  return groups;
}
