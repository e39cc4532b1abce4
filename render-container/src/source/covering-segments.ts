import type { MediaPlaylist, MediaSegment } from "../../../common/twitch";

export interface TimeRange {
  start: number;
  end: number;
}

/**
 * Groups of consecutive segments that together cover the ranges (each widened by `pad` seconds). Ranges whose
 * segments overlap or touch share one group, so no segment is fetched twice and each group is one file; in fMP4
 * playlists a switch to another initialisation section (#EXT-X-MAP) or discontinuity sequence ends a group.
 */
export function coveringSegmentGroups(playlist: MediaPlaylist, ranges: readonly TimeRange[], pad = 0.5): MediaSegment[][] {
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
  // A file holds one fMP4 initialisation section and, for fMP4 (whose timestamps are not rewritten, unlike
  // MPEG-TS), one discontinuity sequence: a group ends where the playlist switches either.
  const groups: MediaSegment[][] = [];
  for (const [a, b] of merged) {
    let from = a;
    for (let i = a + 1; i <= b + 1; i++) {
      if (i > b || startsNewFile(segs[i - 1]!, segs[i]!)) {
        groups.push(segs.slice(from, i));
        from = i;
      }
    }
  }
  return groups;
}

function startsNewFile(prev: MediaSegment, next: MediaSegment): boolean {
  const init = next.init_uri ?? null;
  if (init !== (prev.init_uri ?? null)) return true;
  return init !== null && (next.discontinuity_sequence ?? 0) !== (prev.discontinuity_sequence ?? 0);
}
