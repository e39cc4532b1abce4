import fs from "node:fs/promises";
import path from "node:path";
import { probeMedia } from "../ffmpeg/probe";
import { concatPieces } from "./concat";
import { encodeCut } from "./encode-piece";
import { audioTrim, cutRange, type CutRange, videoTrim } from "./cut";
import { AUDIO_FORMAT, OUTPUT_FPS } from "./encode";
import { mapLimit } from "./pool";
import { audioSourceArgs } from "./source-input";
import { titleOverlayFilters } from "./title-overlay";
import type { ClipInput, RenderProgress, RenderedVideo, Size } from "./types";
import { removeOnFailure, withScratchDir } from "./workdir";

export const REEL_SIZE: Size = { width: 1280, height: 720 };
/** Dip to black (video) and fade (audio) at every cut, seconds on each side of a join. */
export const JOIN_FADE_SECONDS = 0.25;
/** How long a segment's lower-third title stays. */
export const REEL_TITLE_SECONDS = 4;

export interface ReelSegment {
  clip: ClipInput;
  start: number;
  end: number;
  titleText?: string | null;
}

export interface ColdOpenSnippet {
  clip: ClipInput;
  start: number;
  end: number;
}

export interface ReelRenderOptions {
  segments: readonly ReelSegment[];
  /** Teaser snippets played before the first segment; null/empty for none. */
  coldOpen?: readonly ColdOpenSnippet[] | null;
  /** Lower-third title over each segment that has titleText. */
  titleCards: boolean;
  out: string;
  signal?: AbortSignal;
  onProgress?: RenderProgress;
  size?: Size;
  /** Pieces encoded at once. Default 2 (measured fastest on 2 cores, MEDIA.md). */
  concurrency?: number;
}

interface Piece {
  clip: ClipInput;
  range: CutRange;
  titleText: string | null;
}

async function renderPiece(
  piece: Piece,
  out: string,
  size: Size,
  workDir: string,
  name: string,
  signal: AbortSignal,
  onFraction: (f: number) => void,
): Promise<void> {
  const info = await probeMedia(piece.clip.path, { signal });
  const { range } = piece;
  const W = size.width;
  const H = size.height;
  const fade = Math.min(JOIN_FADE_SECONDS, range.duration / 4);
  const fadeOutAt = (range.duration - fade).toFixed(3);
  const title = piece.titleText
    ? await titleOverlayFilters({
        text: piece.titleText,
        frameWidth: W,
        fontSize: Math.round(H * 0.05),
        left: Math.round(W * 0.05),
        top: Math.round(H * 0.74),
        showSeconds: Math.min(REEL_TITLE_SECONDS, range.duration),
        maxLines: 2,
        workDir,
        name,
      })
    : "";
  const audio = audioSourceArgs(info, range);
  const graph = [
    `${videoTrim("[0:v]", range, OUTPUT_FPS)},scale=${W}:${H}:force_original_aspect_ratio=decrease,` +
      `pad=${W}:${H}:(ow-iw)/2:(oh-ih)/2,setsar=1${title ? `,${title}` : ""},` +
      `fade=t=in:st=0:d=${fade.toFixed(3)},fade=t=out:st=${fadeOutAt}:d=${fade.toFixed(3)}[vout]`,
    `${audioTrim(audio.label, range)},${AUDIO_FORMAT},afade=t=in:st=0:d=${fade.toFixed(3)},afade=t=out:st=${fadeOutAt}:d=${fade.toFixed(3)}[aout]`,
  ].join(";");
  await encodeCut({ clip: piece.clip, range, extraInputArgs: audio.args, graph, out, signal, onFraction });
}

/**
 * Renders the highlight reel: optional cold-open teaser snippets, then every segment in order, each cut
 * frame-accurately and faded in/out, each with an optional lower-third title. Pieces are encoded separately
 * (two at a time) and joined by stream copy, which keeps memory bounded whatever the reel's length.
 */
export async function renderReel(o: ReelRenderOptions): Promise<RenderedVideo> {
  if (o.segments.length === 0) throw new Error("a reel needs at least one segment");
  const size = o.size ?? REEL_SIZE;
  const pieces: Piece[] = [
    ...(o.coldOpen ?? []).map((s) => ({ clip: s.clip, range: cutRange(s.clip, s.start, s.end), titleText: null })),
    ...o.segments.map((s) => ({
      clip: s.clip,
      range: cutRange(s.clip, s.start, s.end),
      titleText: o.titleCards && s.titleText ? s.titleText : null,
    })),
  ];
  const total = pieces.reduce((sum, p) => sum + p.range.duration, 0);
  const done = new Array<number>(pieces.length).fill(0);
  const report = () => o.onProgress?.(Math.min(0.99, done.reduce((a, b) => a + b, 0) / total));

  await fs.mkdir(path.dirname(o.out), { recursive: true });
  return withScratchDir(o.out, (dir) =>
    removeOnFailure(o.out, async () => {
      const files = await mapLimit(
        pieces,
        o.concurrency ?? 2,
        async (piece, i, signal) => {
          const file = path.join(dir, `piece-${String(i).padStart(3, "0")}.mp4`);
          await renderPiece(piece, file, size, dir, `piece${i}`, signal, (f) => {
            done[i] = f * piece.range.duration;
            report();
          });
          return file;
        },
        o.signal,
      );
      await concatPieces(files, o.out, { signal: o.signal, workDir: dir });
      const written = await probeMedia(o.out, { signal: o.signal });
      o.onProgress?.(1);
      return { path: o.out, duration_seconds: written.durationSeconds, size_bytes: written.sizeBytes };
    }),
  );
}
