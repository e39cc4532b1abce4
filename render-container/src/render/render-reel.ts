import fs from "node:fs/promises";
import path from "node:path";
import { probeMedia, type MediaInfo } from "../ffmpeg/probe";
import { concatPieces } from "./concat";
import { encodeCut } from "./encode-piece";
import { audioTrim, cutRange, type CutRange, videoTrim } from "./cut";
import { AUDIO_FORMAT, OUTPUT_FPS } from "./encode";
import { mapLimit } from "./pool";
import { audioSourceArgs } from "./source-input";
import { titleOverlayFilters } from "./title-overlay";
import { prepareChatOverlay, type ChatOverlay } from "../chat-overlay/draw-chat";
import { reelChatRegion } from "../chat-overlay/placement";
import type { ShortChat } from "./render-short";
import type { RelativeRect } from "./facecam";
import type { ClipInput, Rect, RenderProgress, RenderedVideo, Size } from "./types";
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

/** One piece of a reel: a teaser snippet or a moment, cut from its clip and drawn on the reel's canvas. */
export interface ReelPieceOptions {
  clip: ClipInput;
  /** VOD times. */
  start: number;
  end: number;
  /** Lower-third title shown over the piece's first REEL_TITLE_SECONDS; null for none. */
  titleText: string | null;
  /** Chat replay drawn over the piece (parameters.reel_chat_overlay); null or absent for none. */
  chat?: ShortChat | null;
  /** The streamer's facecam on the source's frame (shares), which the chat keeps clear of; null when not known. */
  facecam?: RelativeRect | null;
  /**
   * Fade the picture in from black (default true). False for the reel's first piece: its first frame is what players
   * and link previews show before anyone presses play, and a fade from black makes it a black frame.
   */
  fadeIn?: boolean;
  out: string;
  signal?: AbortSignal;
  onProgress?: RenderProgress;
  size?: Size;
}

/**
 * Encodes one reel piece on its own: cut frame-accurately, scaled and padded onto the canvas, faded in and out
 * at both ends, with its optional lower-third title. Every piece uses the same encoder settings, so pieces made
 * anywhere (another process, another machine) join by stream copy (joinReelPieces).
 */
export async function renderReelPiece(o: ReelPieceOptions): Promise<RenderedVideo> {
  const range = cutRange(o.clip, o.start, o.end);
  const size = o.size ?? REEL_SIZE;
  const signal = o.signal ?? new AbortController().signal;
  await fs.mkdir(path.dirname(o.out), { recursive: true });
  return withScratchDir(o.out, (dir) =>
    removeOnFailure(o.out, async () => {
      const info = await probeMedia(o.clip.path, { signal });
      const region = reelChatRegion(size, o.facecam ? facecamOnCanvas(o.facecam, info.video, size) : null);
      const chat = o.chat ? await prepareChatOverlay({ ...o.chat, clipStart: o.start, duration: range.duration, size, region, dir, signal }) : null;
      await encodePiece({ clip: o.clip, info, range, titleText: o.titleText, chat, fadeIn: o.fadeIn ?? true, out: o.out, size, workDir: dir, signal, onFraction: o.onProgress ?? (() => {}) });
      const written = await probeMedia(o.out, { signal });
      return { path: o.out, duration_seconds: written.durationSeconds, size_bytes: written.sizeBytes };
    }),
  );
}

/** Joins reel pieces (in order) by stream copy into the finished reel; measured with ffprobe. */
export async function joinReelPieces(o: { pieces: readonly string[]; out: string; signal?: AbortSignal }): Promise<RenderedVideo> {
  await fs.mkdir(path.dirname(o.out), { recursive: true });
  return withScratchDir(o.out, (dir) =>
    removeOnFailure(o.out, async () => {
      await concatPieces(o.pieces, o.out, { signal: o.signal, workDir: dir });
      const written = await probeMedia(o.out, { signal: o.signal });
      return { path: o.out, duration_seconds: written.durationSeconds, size_bytes: written.sizeBytes };
    }),
  );
}

/** Where a region of the source's frame lands on the reel's canvas (the picture scaled to fit, centred, padded). */
export function facecamOnCanvas(region: RelativeRect, source: { width: number | null; height: number | null } | null, size: Size): Rect {
  const sw = source?.width || size.width;
  const sh = source?.height || size.height;
  const scale = Math.min(size.width / sw, size.height / sh);
  const pw = sw * scale;
  const ph = sh * scale;
  const ox = (size.width - pw) / 2;
  const oy = (size.height - ph) / 2;
  return { x: Math.round(ox + region.x * pw), y: Math.round(oy + region.y * ph), w: Math.round(region.w * pw), h: Math.round(region.h * ph) };
}

async function encodePiece(o: { clip: ClipInput; info: MediaInfo; range: CutRange; titleText: string | null; chat?: ChatOverlay | null; fadeIn: boolean; out: string; size: Size; workDir: string; signal: AbortSignal; onFraction: (f: number) => void }): Promise<void> {
  const { range, info } = o;
  const W = o.size.width;
  const H = o.size.height;
  const fade = Math.min(JOIN_FADE_SECONDS, range.duration / 4);
  const fadeOutAt = (range.duration - fade).toFixed(3);
  const title = o.titleText
    ? await titleOverlayFilters({
        text: o.titleText,
        frameWidth: W,
        fontSize: Math.round(H * 0.05),
        left: Math.round(W * 0.05),
        top: Math.round(H * 0.74),
        showSeconds: Math.min(REEL_TITLE_SECONDS, range.duration),
        maxLines: 2,
        workDir: o.workDir,
        name: "title",
      })
    : "";
  const audio = audioSourceArgs(info, range);
  // The chat sits on the picture, under the title card, and fades with it at the piece's ends.
  const canvas = `${videoTrim("[0:v]", range, OUTPUT_FPS)},scale=${W}:${H}:force_original_aspect_ratio=decrease,pad=${W}:${H}:(ow-iw)/2:(oh-ih)/2,setsar=1`;
  const graph = [
    ...(o.chat ? [`${canvas}[vcanvas]`, o.chat.graph("vcanvas", "vchat")] : []),
    `${o.chat ? "[vchat]null" : canvas}${title ? `,${title}` : ""},` +
      `${o.fadeIn ? `fade=t=in:st=0:d=${fade.toFixed(3)},` : ""}fade=t=out:st=${fadeOutAt}:d=${fade.toFixed(3)}[vout]`,
    `${audioTrim(audio.label, range)},${AUDIO_FORMAT},afade=t=in:st=0:d=${fade.toFixed(3)},afade=t=out:st=${fadeOutAt}:d=${fade.toFixed(3)}[aout]`,
  ].join(";");
  await encodeCut({ clip: o.clip, range, extraInputArgs: audio.args, graph, out: o.out, signal: o.signal, onFraction: o.onFraction });
}

/**
 * Renders the highlight reel: optional cold-open teaser snippets, then every segment in order, each cut
 * frame-accurately and faded in/out, each with an optional lower-third title. Pieces are encoded separately
 * (two at a time) and joined by stream copy, which keeps memory bounded whatever the reel's length.
 */
export async function renderReel(o: ReelRenderOptions): Promise<RenderedVideo> {
  if (o.segments.length === 0) throw new Error("a reel needs at least one segment");
  const size = o.size ?? REEL_SIZE;
  const pieces = [
    ...(o.coldOpen ?? []).map((s) => ({ clip: s.clip, start: s.start, end: s.end, titleText: null })),
    ...o.segments.map((s) => ({ clip: s.clip, start: s.start, end: s.end, titleText: o.titleCards && s.titleText ? s.titleText : null })),
  ];
  const durations = pieces.map((p) => cutRange(p.clip, p.start, p.end).duration);
  const total = durations.reduce((sum, d) => sum + d, 0);
  const done = new Array<number>(pieces.length).fill(0);
  const report = () => o.onProgress?.(Math.min(0.99, done.reduce((a, b) => a + b, 0) / total));

  await fs.mkdir(path.dirname(o.out), { recursive: true });
  return withScratchDir(o.out, async (dir) => {
    const files = await mapLimit(
      pieces,
      o.concurrency ?? 2,
      async (piece, i, signal) => {
        const file = path.join(dir, `piece-${String(i).padStart(3, "0")}.mp4`);
        await renderReelPiece({
          ...piece,
          fadeIn: i > 0,
          out: file,
          size,
          signal,
          onProgress: (f) => {
            done[i] = f * durations[i]!;
            report();
          },
        });
        return file;
      },
      o.signal,
    );
    const reel = await joinReelPieces({ pieces: files, out: o.out, signal: o.signal });
    o.onProgress?.(1);
    return reel;
  });
}
