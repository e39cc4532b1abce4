import type { CropMode } from "../../../common/contract/enums";
import { CAPTION_FONT_SCALE } from "../captions/ass";
import { shortTitleTop } from "../render/short-layout";
import { titleBoxPad, titleLineHeight } from "../render/title-overlay";
import type { Rect, Size } from "../render/types";
import type { ChatLook, ChatRegion } from "./layout";

/** Rows of chat on screen at most (older rows scroll off). */
export const MAX_CHAT_ROWS = 6;

/**
 * What the short already shows, that chat must never cover: burned captions (bottom-centre, baseline at 80 %
 * of the height, up to two lines of CAPTION_FONT_SCALE of the height: captions/ass.ts), the facecam panel (split), the
 * title flashed at the start (top 10 % in crop and fit, under the seam in split, up to three lines: short-layout.ts).
 */
export interface ShortFurniture {
  layout: CropMode;
  size: Size;
  /** Split: the facecam panel's height. */
  panelHeight: number | null;
  /** Fit: where the video sits (the rest is padding). */
  videoTop: number | null;
  /** Seconds the title is shown (0 without one), and its font size. */
  titleSeconds: number;
  titleFontSize: number;
}

/**
 * Top of the burned captions' band: two lines above their baseline (ass.ts defaults; a short's captions are broken
 * into two lines at most, captions/caption-lines.ts), with room for the outline.
 */
export function captionBandTop(size: Size): number {
  const font = size.height * CAPTION_FONT_SCALE;
  return Math.floor(size.height * 0.8 - 2 * font * 1.25 - font * 0.3);
}

/**
 * Where chat goes in a short, bottom-anchored above the captions:
 * - crop: left side of the lower middle of the picture, its bottom just above the caption band;
 * - fit: the padding above the video (the title has the top of it for its first seconds);
 * - split: the top of the gameplay panel, under the facecam, above the captions.
 * null when there is no room (split with a facecam panel reaching the captions).
 */
export function shortChatRegion(f: ShortFurniture, look: ChatLook): ChatRegion | null {
  const { width: W, height: H } = f.size;
  const margin = Math.round(W * 0.04);
  const gap = Math.round(H * 0.008);
  const titleBox = 3 * titleLineHeight(f.titleFontSize) + titleBoxPad(f.titleFontSize);
  // The title's box bottom (three lines at most) and a gap: no chat above it while the title shows.
  const titleBottom = shortTitleTop(f.size, f.layout === "split" ? (f.panelHeight ?? Math.round(H / 2)) : null) + titleBox + gap;
  const captions = captionBandTop(f.size);
  const rowsHeight = MAX_CHAT_ROWS * look.lineHeight + 2 * look.pad;
  let region: Omit<ChatRegion, "keepOut" | "maxRows">;
  if (f.layout === "split") {
    const panel = f.panelHeight ?? Math.round(H / 2);
    // Not the panel's whole width: the gameplay stays visible on the right.
    region = { x: margin, w: Math.round(W * 0.84), top: panel + gap, bottom: captions - gap };
  } else if (f.layout === "fit") {
    const videoTop = f.videoTop ?? Math.round(H / 3);
    region = { x: margin, w: W - 2 * margin, top: Math.round(H * 0.06), bottom: videoTop - gap };
  } else {
    const bottom = captions - gap;
    region = { x: margin, w: Math.round(W * 0.74), top: Math.max(Math.round(H * 0.3), bottom - rowsHeight), bottom };
  }
  if (region.bottom - region.top < look.lineHeight + 2 * look.pad) return null;
  return { ...region, maxRows: MAX_CHAT_ROWS, keepOut: f.titleSeconds > 0 ? [{ until: f.titleSeconds, top: titleBottom }] : [] };
}

/**
 * Where chat goes in a reel (landscape): a column 30 % of the width, from near the top down to above the lower
 * third, where a reel's title card sits (left, from 74 % of the height). Eight rows at most. Chat never covers the
 * streamer's facecam (`facecam`, on the reel's canvas, when the analysis found or was given one): the right-hand
 * column when it is clear of the cam; else the part of it above or below the cam when that holds a third of the
 * height (chat stays where it was, a little shorter: a bottom-right cam); else the left-hand column when that is
 * clear (a cam down the right side); else the taller clear part of either column. Without a known facecam the
 * right-hand column, clear of the top-left quarter that split shorts assume.
 */
export function reelChatRegion(size: Size, facecam: Rect | null = null): ChatRegion {
  const { width: W, height: H } = size;
  const w = Math.round(W * 0.3);
  const side = Math.round(W * 0.025);
  const column = (x: number) => ({ x, w, top: Math.round(H * 0.05), bottom: Math.round(H * 0.7) });
  const right = column(W - w - side);
  const left = column(side);
  const done = (r: Omit<ChatRegion, "keepOut" | "maxRows">): ChatRegion => ({ ...r, maxRows: 8, keepOut: [] });
  if (!facecam) return done(right);
  const gapX = Math.round(W * 0.015);
  const gapY = Math.round(H * 0.02);
  const clear = (r: ReturnType<typeof column>) =>
    r.x + r.w + gapX <= facecam.x || r.x >= facecam.x + facecam.w + gapX || r.bottom + gapY <= facecam.y || r.top >= facecam.y + facecam.h + gapY;
  // The part of a column above the cam or below it, whichever is taller (a column beside the cam is whole).
  const clearPart = (r: ReturnType<typeof column>) => {
    if (clear(r)) return r;
    const above = { ...r, bottom: Math.min(r.bottom, facecam.y - gapY) };
    const below = { ...r, top: Math.max(r.top, facecam.y + facecam.h + gapY) };
    return above.bottom - above.top >= below.bottom - below.top ? above : below;
  };
  const tall = (r: { top: number; bottom: number }) => r.bottom - r.top >= H / 3;
  if (clear(right)) return done(right);
  const rightPart = clearPart(right);
  if (tall(rightPart)) return done(rightPart);
  if (clear(left)) return done(left);
  const leftPart = clearPart(left);
  return done(leftPart.bottom - leftPart.top > rightPart.bottom - rightPart.top ? leftPart : rightPart);
}
