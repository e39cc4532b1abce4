import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { MediaPlaylist, MediaSegment } from "../../../common/twitch";
import { coveringSegmentGroups, type TimeRange } from "./covering-segments";
import { mutedRanges, type DownloadOptions } from "./download-audio";
import { fetchInitSection } from "./fetch-segment";
import { downloadSegmentsToFile } from "./ordered-download";
import { Slots } from "./slots";
import { SourceError } from "./source-error";

export interface ClipSource {
  /** Byte-joined MPEG-TS segments; file time 0 is VOD time `media_start_seconds`. */
  path: string;
  /** VOD time of the first segment in the file. */
  media_start_seconds: number;
  media_end_seconds: number;
  bytes: number;
  /** VOD-time spans inside this file whose audio Twitch muted. */
  muted_ranges: TimeRange[];
}

export interface CoveringDownloadOptions extends DownloadOptions {
  /** Refuse to download more than this many bytes in this call (a guard against fetching half a VOD). */
  maxBytes?: number;
  /** Seconds added on both sides of each range before choosing segments. */
  padSeconds?: number;
}

/**
 * Downloads only the source segments that cover the given VOD ranges (never the whole video): one file per
 * group of consecutive segments, ready for a frame-accurate trim inside the filtergraph.
 */
export async function downloadCoveringSegments(
  playlist: MediaPlaylist,
  ranges: readonly TimeRange[],
  destDir: string,
  opts: CoveringDownloadOptions = {},
): Promise<ClipSource[]> {
  await mkdir(destDir, { recursive: true });
  const pad = opts.padSeconds ?? 0.5;
  // First by name; then groups whose initialisation sections differ only in name are joined again.
  const byName = coveringSegmentGroups(playlist, ranges, pad);
  const groups = coveringSegmentGroups(playlist, ranges, pad, await initEquality(byName, opts));
  refuseRangesAcrossFormats(playlist, ranges, groups);
  const totalSegments = groups.reduce((n, g) => n + g.length, 0);
  let written = 0;
  let bytesSoFar = 0;
  const beforeWrite = (bytes: number) => {
    bytesSoFar += bytes;
    if (opts.maxBytes !== undefined && bytesSoFar > opts.maxBytes) {
      throw new SourceError(
        "source_too_large",
        `The chosen moments need more than ${Math.round(opts.maxBytes / 1e6)} MB of source video; ask for a shorter reel or fewer shorts.`,
      );
    }
  };
  // Every group at once, each written in order into its own file; one shared set of slots keeps the whole
  // download within `concurrency` segments, so short moments (one or two segments each) still fetch in parallel.
  const concurrency = Math.max(1, opts.concurrency ?? 6);
  const slots = new Slots(concurrency);
  const writtenPerGroup = groups.map(() => 0);
  const failed = new AbortController();
  const onOuterAbort = () => failed.abort(opts.signal!.reason);
  if (opts.signal?.aborted) throw opts.signal.reason;
  opts.signal?.addEventListener("abort", onOuterAbort, { once: true });
  const downloads = groups.map(async (group, k): Promise<ClipSource> => {
    const first = group[0]!;
    const last = group[group.length - 1]!;
    const file = path.join(destDir, `clip-${first.index}-${last.index}.ts`);
    try {
      const result = await downloadSegmentsToFile(group, file, {
        ...opts,
        concurrency,
        slots,
        signal: failed.signal,
        beforeWrite,
        onSegmentWritten: (n) => {
          written += n - writtenPerGroup[k]!;
          writtenPerGroup[k] = n;
          opts.onProgress?.(written / Math.max(1, totalSegments));
        },
      });
      return {
        path: file,
        media_start_seconds: first.start,
        media_end_seconds: Math.round((last.start + last.duration) * 1000) / 1000,
        bytes: result.bytes,
        muted_ranges: mutedRanges(playlist, result.mutedIndexes),
      };
    } catch (error) {
      // The first failure stops the other groups; it is the one reported.
      if (!failed.signal.aborted) failed.abort(error);
      throw error;
    }
  });
  try {
    const settled = await Promise.allSettled(downloads);
    if (failed.signal.aborted) throw failed.signal.reason;
    return settled.map((r) => (r as PromiseFulfilledResult<ClipSource>).value);
  } finally {
    opts.signal?.removeEventListener("abort", onOuterAbort);
  }
}

/**
 * fMP4 playlists that switch initialisation sections often switch to the same bytes under a new name (after a
 * reconnect); those may share a file. Different ones may not. Only the sections the given segments use are
 * fetched (one the chosen moments do not need cannot fail the job), at most `concurrency` at a time; sections
 * not fetched are equal by name only.
 */
export async function initEquality(groups: readonly MediaSegment[][], opts: CoveringDownloadOptions): Promise<(a: string | null, b: string | null) => boolean> {
  const uris = [...new Set(groups.flat().map((s) => s.init_uri ?? null))].filter((u): u is string => u !== null);
  if (uris.length < 2) return (a, b) => a === b;
  const sections = await fetchAllBounded(uris, Math.max(1, opts.concurrency ?? 6), (u) => fetchInitSection(u, opts));
  const canonical = new Map<string, string>();
  uris.forEach((u, i) => canonical.set(u, uris[sections.findIndex((b) => b.equals(sections[i]!))]!));
  return (a, b) => (a === null || b === null ? a === b : (canonical.get(a) ?? a) === (canonical.get(b) ?? b));
}

/** `fetchOne` for every item, `limit` at a time; after a failure no new one starts, and it settles once all have. */
async function fetchAllBounded<T, R>(items: readonly T[], limit: number, fetchOne: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (failure === null && next < items.length) {
      const i = next++;
      try {
        results[i] = await fetchOne(items[i]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
  return results;
}

/** An initialisation section's file name for messages (`init-1.mp4`); MPEG-TS without one. */
export const fileName = (uri: string | null) => (uri ? new URL(uri).pathname.split("/").pop() : "MPEG-TS");

/** VOD time as the player shows it: 1:02, 1:02:05. */
export function clock(seconds: number): string {
  const t = Math.max(0, Math.round(seconds));
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const ss = String(t % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** End of a group as its ClipSource reports it (clipFor compares against this). */
const groupEnd = (g: readonly MediaSegment[]) => Math.round((g[g.length - 1]!.start + g[g.length - 1]!.duration) * 1000) / 1000;

/**
 * A range that needs segments on both sides of a switch to a different initialisation section would be split
 * over two files, and no single clip could render it: such VODs are not supported (vod_format_unsupported),
 * said before anything is downloaded instead of failing later as an internal render error.
 */
function refuseRangesAcrossFormats(playlist: MediaPlaylist, ranges: readonly TimeRange[], groups: readonly MediaSegment[][]): void {
  const position = new Map(playlist.segments.map((s, i) => [s, i]));
  for (const r of ranges) {
    if (!(r.end > r.start)) continue;
    if (groups.some((g) => g[0]!.start <= r.start + 1e-3 && groupEnd(g) >= r.end - 1e-3)) continue;
    const touched = groups.filter((g) => g[0]!.start < r.end - 1e-3 && groupEnd(g) > r.start + 1e-3);
    for (let k = 1; k < touched.length; k++) {
      const before = touched[k - 1]!.at(-1)!;
      const after = touched[k]![0]!;
      if (position.get(after) !== position.get(before)! + 1) continue;
      throw new SourceError(
        "vod_format_unsupported",
        `This VOD changes its media format part-way, at ${Math.round(after.start)} s (${clock(after.start)}) of the VOD (${fileName(after.init_uri ?? null)} after ${fileName(before.init_uri ?? null)}), inside the moment ${clock(r.start)}-${clock(r.end)}; such VODs cannot be processed yet.`,
      );
    }
  }
}
