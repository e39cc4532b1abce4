import type { NormalizedManualHighlight } from "../../../common/contract/normalized-request";
import { restateEdges } from "../../../common/plan/edge-reasons";
import type { RunProfile } from "../../../common/contract/enums";
import { overlapSeconds } from "./similarity";
import type { Moment } from "./types";

export interface PickShortsOptions {
  /** Shortest short; shorter moments are widened around their peak. Default 15. */
  minSeconds?: number;
  /** Longest automatic short; longer moments become a window around their peak. Default 60. */
  maxSeconds?: number;
  /** VOD length, so widened shorts stay inside it. */
  durationSeconds?: number;
}

/** Share of an automatic short that comes before its peak: enough setup, and the payoff in the first half. */
const SHORT_LEAD_SHARE = 0.5;

/**
 * Picks the shorts: every manual highlight (in request order, kept as given, cut to the VOD's
 * real length), then the best automatic moments across the executed profiles, ranked by score, without two
 * shorts sharing footage.
 * A reel moment longer than a short becomes a tighter window around its peak.
 */
export function pickShorts(
  momentsByProfile: Partial<Record<RunProfile, readonly Moment[]>>,
  numShorts: number,
  manual: readonly NormalizedManualHighlight[],
  opts: PickShortsOptions = {},
): Moment[] {
  const minS = opts.minSeconds ?? 15;
  const maxS = Math.max(minS, opts.maxSeconds ?? 60);
  const all = Object.values(momentsByProfile).flatMap((ms) => ms ?? []);

  const shorts: Moment[] = [];
  for (const m of manual) {
    // Within the VOD as it really is (vod_length_hours may have overstated it); nothing left: no short.
    const start = Math.max(0, m.start_seconds);
    const end = opts.durationSeconds === undefined ? m.end_seconds : Math.min(m.end_seconds, opts.durationSeconds);
    if (end - start <= 0) continue;
    // The same range appears once per profile it applies to; any copy carries its signals. Two entries may
    // share a range when they share no profile: each gets its own (its label).
    const own = all.find(
      (x) => x.source === "manual" && x.label === m.label && m.run_profiles.includes(x.profile) && Math.abs(x.start - start) < 1e-6 && Math.abs(x.end - end) < 1e-6,
    );
    shorts.push(own ?? manualShort({ ...m, start_seconds: start, end_seconds: end }));
  }

  const autos = all.filter((m) => m.source === "auto").sort((a, b) => b.score - a.score || a.start - b.start);
  for (const m of autos) {
    if (shorts.length >= Math.max(numShorts, manual.length)) break;
    const w = shortWindow(m, minS, maxS, opts.durationSeconds);
    if (shorts.some((s) => overlapSeconds(s, w) > 0)) continue;
    shorts.push(asShort(m, w, minS, maxS));
  }
  return shorts;
}

/** A reel moment as a short of window `w`: the reasons it carries were written for its own ends, so moved ones are restated. */
function asShort(m: Moment, w: { start: number; end: number }, minS: number, maxS: number): Moment {
  if (w.start === m.start && w.end === m.end) return { ...m };
  const how = w.end - w.start < m.end - m.start ? `to fit a short (at most ${maxS} s)` : `to give the short its ${minS} s`;
  return { ...m, ...w, signals: { ...m.signals, reasons: restateEdges(m.signals.reasons, m.peak, m, w, () => how) } };
}

function shortWindow(m: Moment, minS: number, maxS: number, duration: number | undefined): { start: number; end: number } {
  let start = m.start;
  let end = m.end;
  if (end - start > maxS) {
    start = Math.max(m.start, m.peak - maxS * SHORT_LEAD_SHARE);
    end = Math.min(m.end, start + maxS);
    start = Math.max(m.start, end - maxS);
  }
  if (end - start < minS) {
    const missing = minS - (end - start);
    start = Math.max(0, start - missing / 2);
    end = start + Math.max(minS, end - start);
    if (duration !== undefined && end > duration) {
      start = Math.max(0, start - (end - duration));
      end = duration;
    }
  }
  return { start, end };
}

function manualShort(m: NormalizedManualHighlight): Moment {
  return {
    start: m.start_seconds,
    end: m.end_seconds,
    peak: (m.start_seconds + m.end_seconds) / 2,
    score: 0,
    profile: m.run_profiles[0] ?? "balanced",
    source: "manual",
    label: m.label,
    signals: {
      score: 0,
      audience_score: 0,
      streamer_score: 0,
      audio_hype: 0,
      chat_rate_ratio: null,
      unique_chatters: null,
      hype_density: null,
      speech_activity: 0,
      loudness_db_above_baseline: 0,
      source: "manual",
      reasons: ["manual highlight"],
    },
  };
}
