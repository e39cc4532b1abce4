import fs from "node:fs/promises";
import path from "node:path";
import type { CropMode, FrameColor } from "../../../common/contract/enums";
import { buildAssScript, type CaptionLook } from "../captions/ass";
import type { Cue } from "../captions/types";
import { escapeFilterValue } from "../ffmpeg/filter-escape";
import { probeMedia } from "../ffmpeg/probe";
import { audioTrim, cutRange, videoTrim } from "./cut";
import { audioSourceArgs, sourceSize } from "./source-input";
import { AUDIO_FORMAT, OUTPUT_FPS } from "./encode";
import { facecamPixels, facecamRegionFromEnv } from "./facecam";
import { BOLD_FONT_FILE, CAPTION_FONT_NAME, FONTS_DIR } from "./fonts";
import { FontMetrics } from "../chat-overlay/font-metrics";
import { encodeCut } from "./encode-piece";
import { buildShortLayout, captionBottomMargin, shortTitleFontSize, shortTitleTop } from "./short-layout";
import { titleOverlayFilters } from "./title-overlay";
import type { ClipInput, Rect, RenderProgress, RenderedVideo, Size } from "./types";
import { removeOnFailure, withScratchDir } from "./workdir";
import type { ChatLine } from "../../../common/contract/job-plan";
import { prepareChatOverlay } from "../chat-overlay/draw-chat";
import type { FetchLike } from "../chat-overlay/emotes";
import { chatLook, type ChatStyle } from "../chat-overlay/layout";
import { shortChatRegion } from "../chat-overlay/placement";

let captionFont: FontMetrics | null = null;
/** The caption font's widths (bold DejaVu, as libass draws the captions), read once per process. */
function captionWidth(text: string, size: number): number {
  captionFont ??= new FontMetrics(BOLD_FONT_FILE);
  return captionFont.width(text, size);
}

export const SHORT_SIZE: Size = { width: 1080, height: 1920 };
/** How long the generated title is shown at the start of a short. */
export const SHORT_TITLE_SECONDS = 2.5;

export interface ShortRenderOptions {
  clip: ClipInput;
  /** VOD times of the short. */
  start: number;
  end: number;
  layout: CropMode;
  /** Facecam panel share of the height (split). Default 0.5. */
  splitRatio?: number;
  /** Facecam in source pixels (split); default: the FACECAM_REGION setting, else DEFAULT_FACECAM_REGION. */
  facecam?: Rect | null;
  frame?: { enabled: boolean; color: FrameColor };
  /** Flashed over the first SHORT_TITLE_SECONDS; null for none. */
  titleText?: string | null;
  /** Burned-in captions, times relative to the short's start; null for none. */
  captions?: readonly Cue[] | null;
  /** How burned captions look (the request's `caption_style`); default plain. */
  captionLook?: CaptionLook;
  /** Chat replay drawn over the short (parameters.chat_overlay); null or absent for none. */
  chat?: ShortChat | null;
  out: string;
  signal?: AbortSignal;
  onProgress?: RenderProgress;
  /** Output size; 1080x1920 unless a test wants a cheaper one. */
  size?: Size;
}

export interface ShortChat {
  lines: readonly ChatLine[];
  style: ChatStyle;
  /** Emote CDN base (chat-overlay/emotes.ts); null draws emotes as their names. */
  emoteBase: string | null;
  fetch?: FetchLike;
  /** Why something of the chat was not drawn (an emote that could not be fetched, no room). */
  warn?: (message: string) => void;
  /** What was drawn: messages shown, distinct emote images (for the task's log). */
  drawn?: (summary: { messages: number; emoteImages: number }) => void;
}

/** Renders one vertical short (H.264/AAC MP4, faststart) from a source clip. */
export async function renderShort(o: ShortRenderOptions): Promise<RenderedVideo> {
  const range = cutRange(o.clip, o.start, o.end);
  const info = await probeMedia(o.clip.path, { signal: o.signal });
  const source = sourceSize(info);
  const size = o.size ?? SHORT_SIZE;
  const layout = buildShortLayout({
    layout: o.layout,
    source,
    output: size,
    splitRatio: o.splitRatio ?? 0.5,
    facecam: o.facecam ?? facecamPixels(facecamRegionFromEnv(), source),
    frame: o.frame ?? { enabled: false, color: "white" },
  });

  await fs.mkdir(path.dirname(o.out), { recursive: true });
  return withScratchDir(o.out, (dir) =>
    removeOnFailure(o.out, async () => {
      const overlays: string[] = [];
      if (o.titleText) {
        const title = await titleOverlayFilters({
          text: o.titleText,
          frameWidth: size.width,
          fontSize: shortTitleFontSize(size),
          top: shortTitleTop(size, layout.panelHeight),
          maxBottom: size.height,
          showSeconds: SHORT_TITLE_SECONDS,
          maxLines: 3,
          workDir: dir,
          name: "title",
        });
        if (title) overlays.push(title);
      }
      const cues = (o.captions ?? []).filter((c) => c.end > 0 && c.start < range.duration && c.text.trim());
      if (cues.length) {
        const assPath = path.join(dir, "captions.ass");
        await fs.writeFile(assPath, buildAssScript(cues, { ...size, fontName: CAPTION_FONT_NAME, look: o.captionLook ?? "plain", bottomMargin: captionBottomMargin(size, layout.panelHeight), measure: captionWidth }), "utf8");
        overlays.push(`subtitles=filename=${escapeFilterValue(assPath)}:fontsdir=${escapeFilterValue(FONTS_DIR)}`);
      }
      const chatGraph = o.chat ? await chatLayer(o.chat, { start: o.start, duration: range.duration, size, layout, layoutName: o.layout, title: Boolean(o.titleText), dir, signal: o.signal }) : null;
      const dress = `[${chatGraph ? "vchat" : "vlayout"}]${overlays.length ? overlays.join(",") : "null"}[vout]`;

      const audio = audioSourceArgs(info, range);
      const fadeOut = Math.max(0, range.duration - 0.15);
      const graph = [
        `${videoTrim("[0:v]", range, OUTPUT_FPS)}[vin]`,
        layout.graph,
        ...(chatGraph ? [chatGraph] : []),
        dress,
        `${audioTrim(audio.label, range)},${AUDIO_FORMAT},afade=t=in:d=0.05,afade=t=out:st=${fadeOut.toFixed(3)}:d=0.15[aout]`,
      ].join(";");

      await encodeCut({ clip: o.clip, range, extraInputArgs: audio.args, graph, out: o.out, signal: o.signal, onFraction: o.onProgress, kind: "short" });
      const written = await probeMedia(o.out, { signal: o.signal });
      return { path: o.out, duration_seconds: written.durationSeconds, size_bytes: written.sizeBytes };
    }),
  );
}

/** The chat layer's filter graph, from [vlayout] to [vchat], placed clear of the captions, title and facecam. */
async function chatLayer(
  chat: ShortChat,
  at: { start: number; duration: number; size: Size; layout: ReturnType<typeof buildShortLayout>; layoutName: CropMode; title: boolean; dir: string; signal?: AbortSignal },
): Promise<string | null> {
  const look = chatLook(at.size, chat.style);
  const region = shortChatRegion(
    { layout: at.layoutName, size: at.size, panelHeight: at.layout.panelHeight, videoTop: at.layout.videoTop ?? null, titleSeconds: at.title ? SHORT_TITLE_SECONDS : 0, titleFontSize: shortTitleFontSize(at.size) },
    look,
  );
  if (!region) {
    chat.warn?.("chat not drawn: the facecam panel leaves no room above the captions");
    return null;
  }
  const overlay = await prepareChatOverlay({ lines: chat.lines, style: chat.style, clipStart: at.start, duration: at.duration, size: at.size, region, emoteBase: chat.emoteBase, fetch: chat.fetch, dir: at.dir, signal: at.signal, warn: chat.warn });
  chat.drawn?.({ messages: overlay?.messages.length ?? 0, emoteImages: overlay?.emoteImages ?? 0 });
  return overlay ? overlay.graph("vlayout", "vchat") : null;
}
