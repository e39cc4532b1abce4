/**
 * A caption's words as at most two lines that fit between the side margins, breaking where the two lines come out
 * most even, at a smaller font only when two lines at the full size cannot hold them. Burned captions are big
 * (captions/ass.ts: CAPTION_FONT_SCALE) and everything else on a short (the chat overlay's region, a split's
 * captions under the seam) is placed around a caption band of two lines: a third line libass wrapped on its own
 * would climb into the chat above. Measured with the caption font's own advance widths (libass's sizes).
 */
export interface CaptionLines {
  /** Words per line, in order; one or two lines. */
  lines: string[][];
  /** The font size the lines fit at (the full size unless it had to shrink). */
  fontSize: number;
}

/** Text width in pixels at an ASS font size (chat-overlay/font-metrics.ts FontMetrics.width of the caption font). */
export type MeasureText = (text: string, size: number) => number;

/** The smallest a caption shrinks to, as a share of the full size: below it the caption is left to libass. */
const MIN_SHRINK = 0.6;

function twoLines(words: readonly string[], width: number, size: number, measure: MeasureText): string[][] | null {
  const w = (ws: readonly string[]) => measure(ws.join(" "), size);
  if (w(words) <= width) return [[...words]];
  let best: { at: number; widest: number } | null = null;
  for (let at = 1; at < words.length; at++) {
    const widest = Math.max(w(words.slice(0, at)), w(words.slice(at)));
    if (widest <= width && (!best || widest < best.widest)) best = { at, widest };
  }
  return best ? [words.slice(0, best.at), words.slice(best.at)] : null;
}

/**
 * Lines for `words` within `width` pixels at `fontSize`, shrinking the font 8 % at a time (down to MIN_SHRINK)
 * when two lines do not hold them. null when even that fails (a single word wider than the line, text without
 * spaces): the caller leaves such a caption to libass's own wrapping.
 */
export function fitCaptionLines(words: readonly string[], width: number, fontSize: number, measure: MeasureText): CaptionLines | null {
  if (words.length === 0) return null;
  for (let size = fontSize; size >= fontSize * MIN_SHRINK; size = Math.floor(size * 0.92)) {
    const lines = twoLines(words, width, size, measure);
    if (lines) return { lines, fontSize: size };
  }
  return null;
}
