import { open } from "node:fs/promises";
import path from "node:path";
import { DEFAULT_MIN_FREE_BYTES, DiskRoom, asDiskFull } from "./disk-guard";
import type { MediaSegment } from "../../../common/twitch";
import { fetchInitSection, fetchSegment, type FetchedSegment, type SegmentFetchOptions } from "./fetch-segment";
import { SourceError } from "./source-error";
import type { Slots } from "./slots";
import { TimelineKeeper } from "./timeline";

export interface OrderedDownloadOptions extends SegmentFetchOptions {
  concurrency?: number;
  /** Called with the number of segments written so far. */
  onSegmentWritten?: (written: number) => void;
  /** Checked before each write; throwing stops the download. */
  beforeWrite?: (bytes: number) => void;
  /** Called with each segment's bytes after they are written, in order; awaited (a consumer may be slower). */
  onSegmentData?: (data: Buffer, position: number) => Promise<void>;
  /** Segments already fetched, by position in `segments`. */
  prefetched?: ReadonlyMap<number, FetchedSegment>;
  /**
   * Disk that must stay free after each write (default DEFAULT_MIN_FREE_BYTES); below it the download stops with
   * disk_full. 0 turns the check off. A write the disk refuses (ENOSPC) is disk_full too.
   */
  minFreeBytes?: number;
  /**
   * Shared with other downloads running at the same time: a segment holds a slot from its request until it is
   * written, so all of them together fetch and hold at most `slots.size` segments.
   */
  slots?: Slots;
  /**
   * Timestamp (seconds) of VOD time 0, when known: segments after an #EXT-X-DISCONTINUITY are shifted onto it,
   * so files of different parts of the VOD agree. Without it the first segment written sets it.
   */
  timelineOrigin?: number;
}

export interface OrderedDownloadResult {
  bytes: number;
  mutedIndexes: number[];
}

const fileName = (uri: string | null) => (uri ? new URL(uri).pathname.split("/").pop() : "MPEG-TS");

/**
 * Fetches segments in parallel (bounded) and appends them to one file in playlist order, so the file is the
 * byte-joined MPEG-TS ffmpeg reads as a single input, on one timeline even across #EXT-X-DISCONTINUITY. Only `concurrency` segments are ever held in memory, and
 * no write goes below `minFreeBytes` of free disk.
 */
export async function downloadSegmentsToFile(
  segments: readonly MediaSegment[],
  filePath: string,
  opts: OrderedDownloadOptions,
): Promise<OrderedDownloadResult> {
  const concurrency = Math.max(1, opts.concurrency ?? 6);
  // One failure stops the segments still in flight instead of letting them finish for nothing.
  const inner = new AbortController();
  const onOuterAbort = () => inner.abort(opts.signal!.reason);
  if (opts.signal?.aborted) throw opts.signal.reason;
  opts.signal?.addEventListener("abort", onOuterAbort, { once: true });
  const fetchOpts = { ...opts, signal: inner.signal };
  const slots = opts.slots;
  const holding = new Set<number>();
  let finished = false;
  const acquire = async (i: number) => {
    if (!slots) return;
    await slots.acquire(inner.signal);
    if (finished) {
      slots.release();
      throw new Error("download already ended");
    }
    holding.add(i);
  };
  const release = (i: number) => {
    if (holding.delete(i)) slots!.release();
  };
  const inFlight: Promise<FetchedSegment>[] = [];
  const start = (i: number) => {
    const ready = opts.prefetched?.get(i);
    const p = ready ? Promise.resolve(ready) : acquire(i).then(() => fetchSegment(segments[i]!, fetchOpts));
    p.catch(() => undefined); // awaited in order below; avoid unhandled rejections meanwhile
    inFlight[i] = p;
  };

  const timeline = new TimelineKeeper(opts.timelineOrigin);
  // fMP4 (#EXT-X-MAP): the file starts with the initialisation section, fetched alongside the first segments.
  let initUri = segments[0]?.init_uri ?? null;
  const firstInit = initUri ? fetchInitSection(initUri, fetchOpts) : null;
  firstInit?.catch(() => undefined);
  let initBytes: Buffer | null = null;
  const room = new DiskRoom(path.dirname(filePath), opts.minFreeBytes ?? DEFAULT_MIN_FREE_BYTES);
  const file = await open(filePath, "w");
  let bytes = 0;
  const mutedIndexes: number[] = [];
  const write = async (data: Buffer) => {
    opts.beforeWrite?.(data.length);
    await room.admit(data.length);
    await file.write(data).catch((err: unknown) => {
      throw asDiskFull(err);
    });
    bytes += data.length;
  };
  try {
    for (let i = 0; i < Math.min(concurrency, segments.length); i++) start(i);
    if (firstInit) {
      initBytes = await firstInit;
      await write(initBytes);
    }
    for (let i = 0; i < segments.length; i++) {
      const fetched = await inFlight[i]!;
      delete inFlight[i];
      const muted = fetched.muted;
      if (i + concurrency < segments.length) start(i + concurrency);
      const segmentInit = segments[i]!.init_uri ?? null;
      if (segmentInit !== initUri) {
        // A new initialisation section part-way: fine when it is the same bytes under another name.
        const next = segmentInit ? await fetchInitSection(segmentInit, fetchOpts) : null;
        if (!next || !initBytes || !next.equals(initBytes)) {
          throw new SourceError(
            "vod_format_unsupported",
            `This VOD changes its media format part-way (at ${Math.round(segments[i]!.start)} s, ${fileName(segmentInit)} after ${fileName(initUri)}); such VODs cannot be processed yet.`,
          );
        }
        initUri = segmentInit;
      }
      const data = timeline.align(segments[i]!, fetched.data, initBytes);
      await write(data);
      release(i);
      if (muted) mutedIndexes.push(segments[i]!.index);
      await opts.onSegmentData?.(data, i);
      opts.onSegmentWritten?.(i + 1);
    }
  } catch (error) {
    inner.abort(error);
    throw error;
  } finally {
    finished = true;
    for (const i of [...holding]) release(i);
    opts.signal?.removeEventListener("abort", onOuterAbort);
    await file.close();
  }
  return { bytes, mutedIndexes };
}
