import type { RunProfile } from "../../../common/contract/enums";
import type { NormalizedJobRequest } from "../../../common/contract/normalized-request";
import type { Moment } from "../selection/types";

export interface PlannedReel {
  profile: RunProfile;
  /** Chronological reel segments (the profile's moments). */
  moments: Moment[];
  /** Teaser snippets cut around the best moments' peaks, best first; empty without a cold open. */
  coldOpen: { start: number; end: number }[];
}

export interface PlannedShort {
  /** 1-based position, as in deliverables. */
  index: number;
  moment: Moment;
}

export interface RenderPlan {
  reels: PlannedReel[];
  shorts: PlannedShort[];
  /** Every VOD range the renders read, merged: the only video that gets downloaded. */
  videoRanges: { start: number; end: number }[];
}

/** Teaser snippets: the cold_open_max_clips best moments, each a snippet centred on its peak, inside the moment. */
export function coldOpenSnippets(moments: readonly Moment[], maxClips: number, snippetSeconds: number): { start: number; end: number }[] {
  return [...moments]
    .sort((a, b) => b.score - a.score || a.start - b.start)
    .slice(0, maxClips)
    .map((m) => {
      const len = Math.min(snippetSeconds, m.end - m.start);
      const start = Math.min(Math.max(m.start, m.peak - len / 2), m.end - len);
      return { start, end: start + len };
    });
}

export function mergeRanges(ranges: readonly { start: number; end: number }[], gap = 0): { start: number; end: number }[] {
  const sorted = [...ranges].filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
  const out: { start: number; end: number }[] = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last && r.start <= last.end + gap) last.end = Math.max(last.end, r.end);
    else out.push({ start: r.start, end: r.end });
  }
  return out;
}

/** Turns the selection into what gets rendered: one reel per executed profile (unless shorts-only) and the shorts. */
export function buildRenderPlan(request: NormalizedJobRequest, momentsByProfile: Partial<Record<RunProfile, Moment[]>>, shorts: readonly Moment[]): RenderPlan {
  const p = request.parameters;
  const reels: PlannedReel[] = request.compilation_enabled
    ? request.executed_profiles
        .map((profile) => {
          const moments = [...(momentsByProfile[profile] ?? [])].sort((a, b) => a.start - b.start);
          const coldOpen = p.cold_open_enabled && moments.length > 0 ? coldOpenSnippets(moments, p.cold_open_max_clips, p.cold_open_snippet_duration) : [];
          return { profile, moments, coldOpen };
        })
        .filter((r) => r.moments.length > 0)
    : [];
  const plannedShorts = shorts.slice(0, request.num_shorts).map((moment, i) => ({ index: i + 1, moment }));
  const videoRanges = mergeRanges([...reels.flatMap((r) => [...r.moments, ...r.coldOpen]), ...plannedShorts.map((s) => s.moment)]);
  return { reels, shorts: plannedShorts, videoRanges };
}
