import fs from "node:fs/promises";
import path from "node:path";
import { escapeFilterValue } from "../ffmpeg/filter-escape";
import { titleFontFor } from "./fonts";
import { balancedWrap, sanitizeDisplayText } from "./text";

export interface TitleOverlayOptions {
  text: string;
  /** Frame width the text is laid out for. */
  frameWidth: number;
  fontSize: number;
  /** Top of the text block, pixels. */
  top: number;
  /** The box's bottom stays above this (a split's short gameplay panel): the block moves up as far as it must. */
  maxBottom?: number;
  /** Horizontal placement: centred (shorts) or left-aligned at this x (reel lower thirds). */
  left?: number;
  /** Seconds the title stays; it fades out over the last 0.3 s of that. */
  showSeconds: number;
  maxLines: number;
  /** Folder for the text files drawtext reads. */
  workDir: string;
  /** Distinguishes the files of several overlays in one folder. */
  name: string;
}

/** Height of one title line: the font size and the room between lines. */
export function titleLineHeight(fontSize: number): number {
  return Math.round(fontSize * 1.45);
}

/** The dark box reaches this far beyond the text on every side (drawtext's boxborderw). */
export function titleBoxPad(fontSize: number): number {
  return Math.round(fontSize * 0.25);
}

/**
 * drawtext filters for a wrapped title, one per line so each line is centred on its own (drawtext in this
 * ffmpeg has no multi-line alignment). Text is passed through files with expansion off, so quotes, colons,
 * percent signs and backslashes in a title need no escaping at all. Returns "" when nothing printable is left.
 */
export async function titleOverlayFilters(o: TitleOverlayOptions): Promise<string> {
  const clean = sanitizeDisplayText(o.text);
  if (!clean) return "";
  const font = titleFontFor(clean);
  // Keep a margin of 6 % of the width on each side.
  const usable = o.frameWidth * (o.left !== undefined ? 0.9 : 0.88) - (o.left ?? 0);
  const maxChars = Math.max(8, Math.floor(usable / (o.fontSize * font.emPerChar)));
  const lines = balancedWrap(clean, maxChars, o.maxLines);
  const lineHeight = titleLineHeight(o.fontSize);
  const blockHeight = lines.length * lineHeight;
  const pad = titleBoxPad(o.fontSize);
  const top = o.maxBottom !== undefined ? Math.max(pad, Math.min(o.top, o.maxBottom - pad - blockHeight)) : o.top;
  const fadeStart = Math.max(0, o.showSeconds - 0.3);
  const alpha = `if(lt(t\\,${fadeStart})\\,1\\,max(0\\,(${o.showSeconds}-t)/0.3))`;
  const filters: string[] = [];
  for (const [i, line] of lines.entries()) {
    const file = path.join(o.workDir, `${o.name}-line${i}.txt`);
    await fs.writeFile(file, line, "utf8");
    const x = o.left !== undefined ? String(o.left) : "(w-text_w)/2";
    filters.push(
      [
        `drawtext=fontfile=${escapeFilterValue(font.file)}`,
        `textfile=${escapeFilterValue(file)}`,
        "expansion=none",
        `fontsize=${o.fontSize}`,
        "fontcolor=white",
        "box=1",
        "boxcolor=black@0.6",
        `boxborderw=${titleBoxPad(o.fontSize)}`,
        "borderw=2",
        "bordercolor=black@0.8",
        `x=${x}`,
        `y=${top + i * lineHeight}`,
        `enable=lt(t\\,${o.showSeconds})`,
        `alpha=${alpha}`,
      ].join(":"),
    );
  }
  return filters.join(",");
}
