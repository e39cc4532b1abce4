import type { CropMode, FrameColor } from "../../../common/contract/enums";
import { CAPTION_FONT_SCALE } from "../captions/ass";
import { centredCrop, clampRect, cropClearOf, cropFilter, evenPixels, fullFrame, insetRect } from "./geometry";
import { titleBoxPad } from "./title-overlay";
import type { Rect, Size } from "./types";

/** Outline colours of the facecam panel (`parameters.shorts_facecam_frame_color`). Violet is CSS blueviolet. */
export const FRAME_COLORS: Record<FrameColor, string> = {
  white: "#FFFFFF",
  black: "#000000",
  violet: "#8A2BE2",
};

/**
 * Share of the facecam's width and height left out on each side in the split panel. A found region is the outer
 * edge of the streamer's overlay (the detector's lines are its border, at 4 source pixels' grain), so without it
 * the border shows as a bright bar along the panel's top and bottom once scaled up four times (a 6 px border on a
 * 320x240 cam: 2.5 % of its height).
 */
export const FACECAM_INSET = 0.04;

/**
 * Room kept between the gameplay panel and the facecam, as a share of the source's width and height: a found region
 * can fall a few source pixels short of the overlay's outer edge (the detector sees a 1280-wide frame at 320), and
 * those pixels of its border would show as a bright line down the gameplay panel's edge.
 */
export const FACECAM_CLEARANCE = 0.015;

export interface ShortLayoutOptions {
  layout: CropMode;
  source: Size;
  output: Size;
  /** Share of the height given to the facecam panel (split only); clamped to 0.15..0.85. */
  splitRatio: number;
  /** Facecam in source pixels (split only). */
  facecam: Rect;
  frame: { enabled: boolean; color: FrameColor };
}

export interface ShortLayout {
  /** Filter chain from `[vin]` to `[vlayout]`. */
  graph: string;
  /** Height of the facecam panel (split only), so titles can sit on the seam. */
  panelHeight: number | null;
  /** Outline thickness in output pixels (0 without outline). */
  frameThickness: number;
  /** Fit: the top of the picture (above it is padding); null in the other layouts. */
  videoTop?: number | null;
}

/** Outline thickness: 8 px on a 1080-wide short, scaled for other widths. */
export function frameThicknessFor(output: Size): number {
  return Math.max(2, Math.round(output.width / 135));
}

/** Captions' distance from the bottom as a share of the height (captions/ass.ts): clear of the apps' buttons. */
export const CAPTION_BOTTOM_MARGIN = 0.2;

/**
 * Where a short's captions sit, as ASS's bottom margin (share of the height). CAPTION_BOTTOM_MARGIN, except in a
 * split whose facecam panel reaches so low (shorts_split_ratio above about 0.65) that two caption lines there would
 * cover the streamer's face: then the captions move down, two lines below the seam, into the apps' button zone if
 * they must (a caption over a face is worse), but never off the frame.
 */
export function captionBottomMargin(output: Size, panelHeight: number | null): number {
  if (panelHeight === null) return CAPTION_BOTTOM_MARGIN;
  const font = output.height * CAPTION_FONT_SCALE;
  const twoLines = 2 * font * 1.25 + font * 0.3;
  const lowest = output.height - font * 0.5;
  const bottom = Math.max(output.height * (1 - CAPTION_BOTTOM_MARGIN), Math.min(lowest, panelHeight + twoLines));
  return (output.height - bottom) / output.height;
}

/** A short's title font: 6 % of the width (65 px on 1080). */
export function shortTitleFontSize(output: Size): number {
  return Math.round(output.width * 0.06);
}

/**
 * Top of a short's title text (its dark box starts titleBoxPad above it): 10 % down the frame in crop and fit;
 * in split just under the seam, in the top of the gameplay panel, so the box covers none of the facecam panel
 * (centred on the seam it hid the bottom of the streamer's face for the title's 2.5 s).
 */
export function shortTitleTop(output: Size, panelHeight: number | null): number {
  const font = shortTitleFontSize(output);
  if (panelHeight === null) return Math.round(output.height * 0.1);
  return panelHeight + titleBoxPad(font) + Math.round(output.height * 0.006);
}

export function splitPanelHeight(output: Size, ratio: number): number {
  const r = Math.min(0.85, Math.max(0.15, ratio));
  return evenPixels(output.height * r);
}

/**
 * The vertical framing of a short.
 * - crop: the centre of the source at the output's aspect, scaled up to fill the frame.
 * - fit: the whole source across the width, centred over a blurred, darkened, cropped copy of itself
 *   (the blur runs at a quarter of the size: it looks the same and costs a sixteenth).
 * - split: the facecam (inside its border: FACECAM_INSET; cropped to the panel's aspect, centred on the region)
 *   over the centre of the gameplay, moved sideways off the facecam when the centre would show a sliver of it
 *   (cropClearOf), optionally outlined.
 */
export function buildShortLayout(o: ShortLayoutOptions): ShortLayout {
  const W = o.output.width;
  const H = o.output.height;
  const src = fullFrame(o.source);
  const aspect = W / H;

  if (o.layout === "crop") {
    return {
      graph: `[vin]${cropFilter(centredCrop(src, aspect))},scale=${W}:${H}:flags=bicubic,setsar=1[vlayout]`,
      panelHeight: null,
      frameThickness: 0,
    };
  }

  if (o.layout === "fit") {
    let fgW = W;
    let fgH = evenPixels((W * o.source.height) / o.source.width);
    if (fgH > H) {
      fgH = H;
      fgW = evenPixels((H * o.source.width) / o.source.height);
    }
    const bgW = evenPixels(W / 4);
    const bgH = evenPixels(H / 4);
    const blur = Math.max(2, Math.round(Math.min(bgW, bgH) / 20));
    const graph = [
      `[vin]split=2[fitbgsrc][fitfgsrc]`,
      `[fitbgsrc]${cropFilter(centredCrop(src, aspect))},scale=${bgW}:${bgH},boxblur=luma_radius=${blur}:luma_power=2:chroma_radius=${blur}:chroma_power=2,lutyuv=y=val*0.55,scale=${W}:${H}:flags=bilinear,setsar=1[fitbg]`,
      `[fitfgsrc]scale=${fgW}:${fgH}:flags=bicubic,setsar=1[fitfg]`,
      `[fitbg][fitfg]overlay=x=${(W - fgW) / 2}:y=${(H - fgH) / 2}[vlayout]`,
    ].join(";");
    return { graph, panelHeight: null, frameThickness: 0, videoTop: (H - fgH) / 2 };
  }

  const panelH = splitPanelHeight(o.output, o.splitRatio);
  const gameH = H - panelH;
  const camRegion = clampRect(o.facecam, o.source);
  const cam = centredCrop(insetRect(camRegion, FACECAM_INSET), W / panelH);
  const clearance = { x: Math.round(o.source.width * FACECAM_CLEARANCE), y: Math.round(o.source.height * FACECAM_CLEARANCE) };
  const game = cropClearOf(src, W / gameH, { x: camRegion.x - clearance.x, y: camRegion.y - clearance.y, w: camRegion.w + 2 * clearance.x, h: camRegion.h + 2 * clearance.y });
  const thickness = o.frame.enabled ? frameThicknessFor(o.output) : 0;
  const outline = o.frame.enabled
    ? `,drawbox=x=0:y=0:w=${W}:h=${panelH}:color=${FRAME_COLORS[o.frame.color].replace("#", "0x")}@1:t=${thickness}`
    : "";
  const graph = [
    `[vin]split=2[camsrc][gamesrc]`,
    `[camsrc]${cropFilter(cam)},scale=${W}:${panelH}:flags=bicubic,setsar=1${outline}[campanel]`,
    `[gamesrc]${cropFilter(game)},scale=${W}:${gameH}:flags=bicubic,setsar=1[gamepanel]`,
    `[campanel][gamepanel]vstack=inputs=2[vlayout]`,
  ].join(";");
  return { graph, panelHeight: panelH, frameThickness: thickness };
}
