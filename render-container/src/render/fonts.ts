import path from "node:path";

/** DejaVu ships with Debian and the renderer image; FONTS_DIR/FONT_FILE override it. */
export const FONTS_DIR = process.env.FONTS_DIR || "/usr/share/fonts/truetype/dejavu";
export const BOLD_FONT_FILE = process.env.FONT_FILE || path.join(FONTS_DIR, "DejaVuSans-Bold.ttf");
/** The family name libass looks up in FONTS_DIR for captions. */
export const CAPTION_FONT_NAME = process.env.CAPTION_FONT_NAME || "DejaVu Sans";
