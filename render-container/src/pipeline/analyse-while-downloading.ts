import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { MediaPlaylist, MediaSegment } from "../../../common/twitch";
import { analyzeAudio, analyzeAudioInParts, combinedProgress, mergeAnalyses, planAudioSpans, type AudioAnalysis, type AudioSpan } from "../analysis";
import { writeWithBackpressure } from "../ffmpeg/process";
import { downloadSegmentsToFile, fetchSegment, firstPtsSeconds, mutedRanges, type ByteCounter, type ClipSource, type FetchedSegment, type TimeRange } from "../source";
import type { FetchLike } from "../../../common/twitch";
import { mapLimit } from "../render/pool";
import { sideBySide } from "./side-by-side";

export interface AnalysedAudio {
  analysis: AudioAnalysis;
  /** The downloaded audio-only rendition, as one file per span; each knows the VOD times it holds. */
  parts: ClipSource[];
  bytes: number;
  muted_ranges: TimeRange[];
}

export interface AnalyseWhileDownloadingOptions {
  /** Parallel analysis passes for long VODs (one per core). */
  parts: number;
  /** Parallel segment downloads in all. */
  concurrency: number;
  signal: AbortSignal;
  counter?: ByteCounter;
  fetch?: FetchLike;
  onDownloadProgress?: (fraction: number) => void;
  onAnalysisProgress?: (fraction: number) => void;
  /** Below this VOD length one pass is enough (tests lower it). */
  splitAboveSeconds?: number;
}

/** Playlist durations only approximate segment starts, so each span takes the segments within a second of it. */
const SPAN_MARGIN_SECONDS = 1;

/**
 * Downloads the audio-only rendition and analyses it at the same time: the VOD is cut into whole-second spans
 * (one per core), each span's segments are downloaded in order and piped into its own ffmpeg pass as they
 * arrive, and written to a part file for the captions later. The analysis then costs little more than the
 * download itself instead of coming after it. Spans are cut on the segments' own timestamps (`-copyts` and
 * `atrim` on the PTS of the VOD's first segment), because segments piped in cannot be seeked.
 *
 * Segments that are not MPEG-TS (no PTS found) fall back to downloading one file and analysing it after.
 */
export async function analyseWhileDownloading(playlist: MediaPlaylist, durationSeconds: number, destDir: string, opts: AnalyseWhileDownloadingOptions): Promise<AnalysedAudio> {
  await mkdir(destDir, { recursive: true });
  const segments = playlist.segments;
  const fetchOpts = { signal: opts.signal, counter: opts.counter, fetch: opts.fetch };
  const first = segments.length > 0 ? await fetchSegment(segments[0]!, fetchOpts) : null;
  const origin = first ? firstPtsSeconds(first.data) : null;
  if (first === null || origin === null) return downloadThenAnalyse(playlist, durationSeconds, destDir, opts, first);

  const spans = planAudioSpans(durationSeconds, opts.parts, opts.splitAboveSeconds);
  const perSpan = spans.map((s) => segments.filter((g) => g.start + g.duration > s.start - SPAN_MARGIN_SECONDS && g.start < s.start + s.length + SPAN_MARGIN_SECONDS));
  const totalSegments = perSpan.reduce((n, s) => n + s.length, 0) || 1;
  let written = 0;
  const analysisProgress = combinedProgress(spans.length, opts.onAnalysisProgress);

  // One failing span stops the others: their ffmpeg passes and downloads are pointless then.
  const results = await sideBySide(
    opts.signal,
    ...spans.map((span, k) => (signal: AbortSignal) =>
      analyseSpan(span, perSpan[k]!, origin, path.join(destDir, `audio-${k}.ts`), {
        concurrency: Math.max(1, Math.ceil(opts.concurrency / spans.length)),
        signal,
        counter: opts.counter,
        fetch: opts.fetch,
        prefetched: perSpan[k]![0] === segments[0] ? new Map([[0, first]]) : undefined,
        onSegment: () => opts.onDownloadProgress?.(++written / totalSegments),
        onProgress: analysisProgress(k),
      }),
    ),
  );
  const mutedIndexes = new Set(results.flatMap((r) => r.mutedIndexes));
  return {
    analysis: mergeAnalyses(results.map((r) => r.analysis), spans.map((s) => s.start)),
    parts: results.map((r) => r.part),
    // The segments on a span boundary were fetched for both spans; count what crossed the network.
    bytes: results.reduce((n, r) => n + r.part.bytes, 0),
    muted_ranges: mutedRanges(playlist, [...mutedIndexes]),
  };
}

interface SpanOptions {
  concurrency: number;
  signal: AbortSignal;
  counter?: ByteCounter;
  fetch?: FetchLike;
  prefetched?: ReadonlyMap<number, FetchedSegment>;
  onSegment: () => void;
  onProgress?: (fraction: number) => void;
}

/**
 * One span: its segments are downloaded in order into the part file and piped into its analysis pass. The pass
 * stops reading once its span is analysed (the trailing margin segment is not needed), but the part file is
 * completed anyway, because captions are read from it later.
 */
export async function analyseSpan(span: AudioSpan, segments: MediaSegment[], origin: number, file: string, o: SpanOptions): Promise<{ analysis: AudioAnalysis; part: ClipSource; mutedIndexes: number[] }> {
  let partStart: number | null = null;
  let download: Promise<{ bytes: number; mutedIndexes: number[] }> | null = null;
  let analysing = true;
  // A failed or cancelled pass stops its download too, and the span settles only once that download has (its
  // file handle closed, no fetch in flight), so nothing writes into the work folder after the caller moves on.
  const stop = new AbortController();
  const downloadSignal = AbortSignal.any([o.signal, stop.signal]);
  let analysis: AudioAnalysis;
  try {
    analysis = await analyzeAudio("pipe:0", {
      signal: o.signal,
      durationSeconds: span.length,
      inputOptions: ["-copyts", "-f", "mpegts"],
      graph: { trim: { start: origin + span.start, duration: span.length } },
      keepPcm: { file: file.replace(/\.ts$/, ".s16"), startSeconds: span.start },
      onProgress: o.onProgress,
      feedStdin: (stdin) => {
        download = downloadSegmentsToFile(segments, file, {
          concurrency: o.concurrency,
          signal: downloadSignal,
          counter: o.counter,
          fetch: o.fetch,
          prefetched: o.prefetched,
          // Every span's part file on the same clock as the first, also after an #EXT-X-DISCONTINUITY.
          timelineOrigin: origin,
          onSegmentData: async (data, position) => {
            if (position === 0) partStart = (firstPtsSeconds(data) ?? origin + segments[0]!.start) - origin;
            o.onSegment();
            if (!analysing) return;
            try {
              await writeWithBackpressure(stdin, data);
            } catch (err) {
              // The pass closed its input: it has its whole span (or failed, and its exit status says why).
              if ((err as NodeJS.ErrnoException).code !== "EPIPE") throw err;
              analysing = false;
            }
          },
        });
        // Until the process exits, a failed download is the pass's failure; afterwards it is awaited below.
        return download.then(() => undefined);
      },
    });
  } catch (err) {
    stop.abort(err);
    await (download as Promise<unknown> | null)?.catch(() => undefined);
    throw err;
  }
  analysing = false;
  const { bytes, mutedIndexes } = download ? await download : { bytes: 0, mutedIndexes: [] };
  const start = partStart ?? segments[0]?.start ?? span.start;
  const listed = segments.reduce((s, g) => s + g.duration, 0);
  return {
    analysis,
    part: { path: file, media_start_seconds: start, media_end_seconds: start + listed, bytes, muted_ranges: [] },
    mutedIndexes,
  };
}

/**
 * Consecutive segments that share one initialisation section: an fMP4 rendition may switch to another after a
 * stream reconnect, and one file (one FFmpeg input) holds one section. MPEG-TS and most fMP4 VODs: one piece.
 */
export function piecesByInit(segments: readonly MediaSegment[]): MediaSegment[][] {
  const pieces: MediaSegment[][] = [];
  for (const s of segments) {
    const last = pieces.at(-1);
    if (last && (last[0]!.init_uri ?? null) === (s.init_uri ?? null)) last.push(s);
    else pieces.push([s]);
  }
  return pieces;
}

async function downloadThenAnalyse(playlist: MediaPlaylist, durationSeconds: number, destDir: string, opts: AnalyseWhileDownloadingOptions, first: FetchedSegment | null): Promise<AnalysedAudio> {
  const pieces = piecesByInit(playlist.segments);
  const total = Math.max(1, playlist.segments.length);
  let written = 0;
  const downloaded: { path: string; bytes: number; mutedIndexes: number[] }[] = [];
  for (const [k, segments] of pieces.entries()) {
    const file = path.join(destDir, pieces.length === 1 ? "audio.ts" : `audio-${k}.ts`);
    // The first segment was already fetched to look for timestamps: it is not fetched twice.
    const audio = await downloadSegmentsToFile(segments, file, {
      concurrency: opts.concurrency,
      signal: opts.signal,
      counter: opts.counter,
      fetch: opts.fetch,
      prefetched: k === 0 && first ? new Map([[0, first]]) : undefined,
      onSegmentWritten: () => opts.onDownloadProgress?.(++written / total),
    });
    downloaded.push({ path: file, ...audio });
  }
  const mutedIndexes = downloaded.flatMap((d) => d.mutedIndexes);
  const muted = mutedRanges(playlist, mutedIndexes);
  const bytes = downloaded.reduce((n, d) => n + d.bytes, 0);
  const end = playlist.segments.reduce((s, g) => Math.max(s, g.start + g.duration), 0);
  if (pieces.length === 1) {
    const analysis = await analyzeAudioInParts(downloaded[0]!.path, durationSeconds, opts.parts, { signal: opts.signal, onProgress: opts.onAnalysisProgress, splitAboveSeconds: opts.splitAboveSeconds, keepPcmDir: destDir });
    return { analysis, parts: [{ path: downloaded[0]!.path, media_start_seconds: 0, media_end_seconds: end, bytes, muted_ranges: muted }], bytes, muted_ranges: muted };
  }
  // One analysis per piece over whole VOD seconds (a piece starting mid-second is read from the next whole one),
  // `parts` at a time, merged as the spans of one pass are.
  const starts = pieces.map((p, k) => (k === 0 ? 0 : Math.round(p[0]!.start)));
  const spans = starts.map((start, k) => ({ start, length: (k + 1 < starts.length ? starts[k + 1]! : Math.ceil(durationSeconds)) - start }));
  const progressOf = combinedProgress(spans.length, opts.onAnalysisProgress);
  const analyses = await mapLimit(
    spans,
    Math.max(1, opts.parts),
    (span, k, signal) => {
      const skip = Math.max(0, span.start - pieces[k]![0]!.start);
      return analyzeAudio(downloaded[k]!.path, {
        signal,
        durationSeconds: span.length,
        inputOptions: [...(skip > 1e-3 ? ["-ss", skip.toFixed(3)] : []), "-t", String(span.length)],
        onProgress: progressOf(k),
        keepPcm: { file: path.join(destDir, `pcm-piece-${k}.s16`), startSeconds: span.start },
      });
    },
    opts.signal,
  );
  return {
    analysis: mergeAnalyses(analyses, starts),
    parts: pieces.map((p, k) => ({
      path: downloaded[k]!.path,
      media_start_seconds: p[0]!.start,
      media_end_seconds: p.at(-1)!.start + p.at(-1)!.duration,
      bytes: downloaded[k]!.bytes,
      muted_ranges: muted.filter((r) => r.end > p[0]!.start && r.start < p.at(-1)!.start + p.at(-1)!.duration),
    })),
    bytes,
    muted_ranges: muted,
  };
}
