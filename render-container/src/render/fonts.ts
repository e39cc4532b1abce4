import { existsSync } from "node:fs";
import path from "node:path";

/** DejaVu ships with Debian and the renderer image; FONTS_DIR/FONT_FILE override it. */
export const FONTS_DIR = process.env.FONTS_DIR || "/usr/share/fonts/truetype/dejavu";
export const BOLD_FONT_FILE = process.env.FONT_FILE || path.join(FONTS_DIR, "DejaVuSans-Bold.ttf");
/** The regular face beside it: the chat overlay measures its text with it (names with BOLD_FONT_FILE). */
export const REGULAR_FONT_FILE = path.join(FONTS_DIR, "DejaVuSans.ttf");
/** The family name libass looks up in FONTS_DIR for captions (glyphs it lacks come from fontconfig's fallback). */
export const CAPTION_FONT_NAME = process.env.CAPTION_FONT_NAME || "DejaVu Sans";
/**
 * Noto Sans CJK (Debian's fonts-noto-cjk, in the renderer image): Chinese, Japanese and Korean, which DejaVu
 * lacks. Streamer names, game titles and LLM-written titles in those languages would otherwise be boxes.
 */
export const CJK_FONT_FILE = process.env.CJK_FONT_FILE || "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc";

/** Hangul, CJK punctuation, kana, CJK ideographs (incl. extension A and compatibility), full-width forms. */
const CJK = /[\u1100-\u11ff\u3000-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

export interface TitleFont {
  file: string;
  /** Average advance per character in em, for wrapping by character count. */
  emPerChar: number;
}

/**
 * drawtext has no glyph fallback: a title is drawn in one font file, so text with CJK characters takes the CJK
 * font (which also covers Latin) when it is installed. CJK characters are a full em wide.
 */
export function titleFontFor(text: string, cjkFontFile = CJK_FONT_FILE): TitleFont {
  if (hasCjk(text) && existsSync(cjkFontFile)) return { file: cjkFontFile, emPerChar: 1.0 };
  // DejaVu Sans Bold averages ~0.62 em per character.
  return { file: BOLD_FONT_FILE, emPerChar: 0.62 };
}
