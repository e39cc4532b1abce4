import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { MediaPlaylist } from "../../../common/twitch";
import type { ByteCounter } from "./byte-counter";
import type { TimeRange } from "./covering-segments";
import { downloadSegmentsToFile } from "./ordered-download";

export interface DownloadOptions {
  concurrency?: number;
  retries?: number;
  retryDelayMs?: number;
  signal?: AbortSignal;
  counter?: ByteCounter;
  /** 0..1 as segments are written. */
  onProgress?: (fraction: number) => void;
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  /** Disk that must stay free (default 512 MiB); see downloadSegmentsToFile. */
  minFreeBytes?: number;
}

export interface DownloadedAudio {
  /** Byte-joined MPEG-TS of the whole audio-only rendition; time 0 of the file is VOD time 0. */
  path: string;
  bytes: number;
  /** VOD-time spans served muted (silent), for the analysis to discount. */
  muted_ranges: TimeRange[];
}

export function mutedRanges(playlist: MediaPlaylist, indexes: readonly number[]): TimeRange[] {
  const set = new Set(indexes);
  const ranges: TimeRange[] = [];
  for (const s of playlist.segments) {
    if (!set.has(s.index)) continue;
    const last = ranges[ranges.length - 1];
    if (last && Math.abs(last.end - s.start) < 1e-6) last.end = s.start + s.duration;
    else ranges.push({ start: s.start, end: s.start + s.duration });
  }
  return ranges;
}

/** Downloads the whole audio-only rendition as one file (the analysis reads the full VOD's audio). */
export async function downloadAudio(playlist: MediaPlaylist, destDir: string, opts: DownloadOptions = {}): Promise<DownloadedAudio> {
  await mkdir(destDir, { recursive: true });
  const file = path.join(destDir, "audio.ts");
  const total = playlist.segments.length;
  const result = await downloadSegmentsToFile(playlist.segments, file, {
    ...opts,
    onSegmentWritten: (n) => opts.onProgress?.(n / Math.max(1, total)),
  });
  return { path: file, bytes: result.bytes, muted_ranges: mutedRanges(playlist, result.mutedIndexes) };
}
