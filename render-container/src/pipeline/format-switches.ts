import { restateEdges } from "../../../common/plan/edge-reasons";
import type { MediaPlaylist, MediaSegment } from "../../../common/twitch";
import { fitBetween } from "../selection/free-interval";
import type { Span } from "../selection/similarity";
import type { Moment } from "../selection/types";
import { SourceError, clock, fileName, initEquality, type CoveringDownloadOptions } from "../source";
import type { Chosen } from "./stages/choose-moments";

/**
 * Keeps every chosen moment on one side of the places where an fMP4 VOD's video changes its media format (a
 * switch to a different initialisation section, #EXT-X-MAP, after a stream reconnect): one clip file holds one
 * section, so a moment across a switch could not be cut. Automatic moments are moved, manual ranges are not.
 */

/** A VOD time where the video playlist's initialisation section changes, and the sections on either side. */
export interface FormatSwitch {
  at: number;
  before: string | null;
  after: string | null;
}

/** What happened to one moment that crossed a switch: moved (`to`) or left out (`to` null). */
export interface SwitchAdjustment {
  /** "balanced reel" or "short". */
  of: string;
  from: Span;
  to: Span | null;
  switchAt: number;
}

/** A moment counts as across a switch only if more than this much of it lies on each side. */
const EDGE_SECONDS = 1e-3;

/**
 * Every place where consecutive segments need different initialisation sections (MPEG-TS: none). `sameInit`
 * decides "different": by name by default (conservative: a reconnect may rename identical bytes).
 */
export function formatSwitches(playlist: MediaPlaylist, sameInit: (a: string | null, b: string | null) => boolean = (a, b) => a === b): FormatSwitch[] {
  const segs = playlist.segments;
  const out: FormatSwitch[] = [];
  for (let i = 1; i < segs.length; i++) {
    const before = segs[i - 1]!.init_uri ?? null;
    const after = segs[i]!.init_uri ?? null;
    if (!sameInit(before, after)) out.push({ at: segs[i]!.start, before, after });
  }
  return out;
}

const crosses = (m: Span, at: number) => m.start < at - EDGE_SECONDS && at < m.end - EDGE_SECONDS;

/**
 * Moves every automatic moment (reel moments per profile, shorts) that crosses a switch to the side of its peak:
 * trimmed at the switch when that keeps at least min(its length, minDuration), else shifted whole to that side
 * (same length, inside the VOD, clear of the other moments of its reel or the other shorts, still holding its
 * peak), else left out with a warning. A manual range across a switch fails with vod_format_unsupported
 * naming it: the client asked for exactly that range. Pure; input order kept, reels re-sorted by start.
 */
export function keepOffFormatSwitches(
  chosen: Chosen,
  switches: readonly FormatSwitch[],
  limits: { minDuration: number; durationSeconds: number },
): { chosen: Chosen; adjusted: SwitchAdjustment[] } {
  if (switches.length === 0) return { chosen, adjusted: [] };
  const times = [...new Set(switches.map((s) => s.at))].sort((a, b) => a - b);
  const adjusted: SwitchAdjustment[] = [];
  const settle = (moments: readonly Moment[], of: string): Moment[] => {
    const out: (Moment | null)[] = [...moments];
    for (let i = 0; i < out.length; i++) {
      const m = out[i]!;
      const at = times.find((t) => crosses(m, t));
      if (at === undefined) continue;
      if (m.source === "manual") throw manualAcross(m, switches.find((s) => s.at === at)!);
      const moved = moveOff(m, times, out.filter((o, j): o is Moment => o !== null && j !== i), limits);
      adjusted.push({ of, from: { start: m.start, end: m.end }, to: moved && { start: moved.start, end: moved.end }, switchAt: at });
      out[i] = moved;
    }
    return out.filter((m): m is Moment => m !== null);
  };
  const momentsByProfile: Chosen["momentsByProfile"] = Object.fromEntries(
    Object.entries(chosen.momentsByProfile).map(([profile, ms]) => [profile, settle(ms ?? [], `${profile} reel`).sort((a, b) => a.start - b.start)]),
  );
  const shorts = settle(chosen.shorts, "short");
  if (adjusted.length === 0) return { chosen, adjusted };
  const warnings = adjusted.filter((a) => a.to === null).map(
    (a) =>
      `The ${a.of === "short" ? "short" : `${a.of}'s moment`} ${clock(a.from.start)}-${clock(a.from.end)} was left out: it spans a change of this VOD's media format at ${clock(a.switchAt)} (a stream reconnect), and no room of its length was free on the side of its peak.`,
  );
  return { chosen: { ...chosen, momentsByProfile, shorts, warnings: [...(chosen.warnings ?? []), ...warnings] }, adjusted };
}

/** The moment inside the stretch between switches that holds its peak: trimmed, else shifted, else null. */
function moveOff(m: Moment, times: readonly number[], others: readonly Moment[], limits: { minDuration: number; durationSeconds: number }): Moment | null {
  const peak = Math.min(m.end, Math.max(m.start, m.peak));
  const lo = Math.max(0, ...times.filter((t) => t <= peak));
  const hi = Math.min(limits.durationSeconds, ...times.filter((t) => t > peak));
  const len = m.end - m.start;
  const trimmed = { start: Math.max(m.start, lo), end: Math.min(m.end, hi) };
  if (trimmed.end - trimmed.start >= Math.min(len, limits.minDuration) - 1e-9) return movedTo(m, trimmed);
  // Whole, against the switch it crossed; fitBetween slides it away from neighbours while the gap allows.
  const target = m.start < lo ? { start: lo, end: lo + len } : { start: hi - len, end: hi };
  const bounds = [{ start: -Infinity, end: lo }, { start: hi, end: Infinity }];
  const w = fitBetween(target, peak, [...others, ...bounds], len, limits.durationSeconds);
  if (!w || w.end - w.start < len - 1e-6 || w.start > peak || w.end < peak) return null;
  return movedTo(m, { start: w.start, end: w.start + len });
}

/** The moment at its new edges, its "why" restated for them (the reasons were written for the old ones). */
function movedTo(m: Moment, to: Span): Moment {
  const reasons = restateEdges(m.signals.reasons, m.peak, m, to, () => "to keep off a change of the video's format (a stream reconnect)");
  return { ...m, ...to, signals: { ...m.signals, reasons } };
}

function manualAcross(m: Moment, s: FormatSwitch): SourceError {
  const name = m.label ? `"${m.label}" (${clock(m.start)}-${clock(m.end)})` : `${clock(m.start)}-${clock(m.end)}`;
  return new SourceError(
    "vod_format_unsupported",
    `The manual highlight ${name} spans a change of this VOD's media format at ${Math.round(s.at)} s (${clock(s.at)}) of the VOD (${fileName(s.after)} after ${fileName(s.before)}: the stream reconnected with other settings), and a clip cannot be cut across it yet. Ask for the part before ${clock(s.at)} and the part after it as two highlights.`,
  );
}

/** Ranges cut at the switches inside them, so each piece needs one initialisation section. */
export function splitAtSwitches<T extends Span>(ranges: readonly T[], switches: readonly FormatSwitch[]): Span[] {
  return ranges.flatMap((r) => {
    const cuts = switches.map((s) => s.at).filter((t) => crosses(r, t)).sort((a, b) => a - b);
    const edges = [r.start, ...cuts, r.end];
    return edges.slice(1).map((end, k) => ({ start: edges[k]!, end }));
  });
}

/**
 * The switches of the video playlist that matter, and the chosen moments moved off them (keepOffFormatSwitches).
 * A change of name is a switch unless the chosen moments cross it and its two initialisation sections turn out to
 * be the same bytes (fetched only then: a few small requests, none for most VODs).
 */
export async function placeAroundFormatSwitches(
  chosen: Chosen,
  playlist: MediaPlaylist,
  limits: { minDuration: number; durationSeconds: number },
  opts: CoveringDownloadOptions,
): Promise<{ chosen: Chosen; switches: FormatSwitch[]; adjusted: SwitchAdjustment[] }> {
  const byName = formatSwitches(playlist);
  if (byName.length === 0) return { chosen, switches: [], adjusted: [] };
  const moments = [...Object.values(chosen.momentsByProfile).flatMap((ms) => ms ?? []), ...chosen.shorts];
  const segs = playlist.segments;
  const around: MediaSegment[] = [];
  for (let i = 1; i < segs.length; i++) {
    if ((segs[i - 1]!.init_uri ?? null) === (segs[i]!.init_uri ?? null)) continue;
    if (moments.some((m) => crosses(m, segs[i]!.start))) around.push(segs[i - 1]!, segs[i]!);
  }
  const switches = around.length > 0 ? formatSwitches(playlist, await initEquality([around], opts)) : byName;
  return { ...keepOffFormatSwitches(chosen, switches, limits), switches };
}
