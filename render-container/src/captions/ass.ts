import { CAPTION_STYLES, type CaptionStyle as CaptionStyleName } from "../../../common/contract/enums";
import { fitCaptionLines, type MeasureText } from "./caption-lines";
import type { Cue } from "./types";

/**
 * How captions are drawn (the request's `parameters.caption_style`): `plain` shows each caption's words in white;
 * `word_highlight` shows the same captions with the word being said in HIGHLIGHT_RGB (the look short-form video
 * apps use), moving word by word.
 */
export const CAPTION_LOOKS = CAPTION_STYLES;
export type CaptionLook = CaptionStyleName;

/** The current word under `word_highlight`: yellow #FFE600 (ASS colours are &HAABBGGRR). */
export const HIGHLIGHT_RGB = { r: 0xff, g: 0xe6, b: 0x00 } as const;
const HIGHLIGHT_ASS = "&H0000E6FF&";

/**
 * Caption font size as a share of the video's height: 5 % (96 px on a 1080x1920 short), bold, with a black outline.
 * What short-form clip tools burn into 1080x1920 (5-7 % of the height); the low end, as DejaVu Sans Bold is wide
 * (0.52 em per character of speech): a 32-character caption still wraps into two lines between the 7 % side margins.
 * Was 3.8 % (73 px: 26 points on a phone showing the short 390 points wide): readable, but a size smaller than the
 * captions viewers know from those tools (35-50 points), so ours looked timid beside them.
 */
export const CAPTION_FONT_SCALE = 0.05;

export interface CaptionStyle {
  /** The video's size; ASS coordinates and font sizes are in these units. */
  width: number;
  height: number;
  fontName: string;
  /** Font size as a share of the video height. Default CAPTION_FONT_SCALE (96 px on 1920). */
  fontScale?: number;
  /** Distance of the caption's baseline from the bottom, share of the height. Default 0.2: clear of the
   *  buttons and descriptions that vertical-video apps draw over the bottom of the frame. */
  bottomMargin?: number;
  /** Default plain. */
  look?: CaptionLook;
  /**
   * Width of text in the caption font (bold) at an ASS size: given, every caption is broken into at most two lines
   * that fit between the margins, at a smaller size when two lines at the full one cannot hold it (caption-lines.ts),
   * so a caption never reaches above the two-line band the rest of the short is placed around. Without it libass
   * wraps on its own.
   */
  measure?: MeasureText;
}

/** An ASS timestamp (h:mm:ss.cc), rounded to the centisecond libass works in. */
export function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const h = Math.floor(cs / 360_000);
  const m = Math.floor((cs % 360_000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  return `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}.${String(cs % 100).padStart(2, "0")}`;
}

/**
 * Caption text in an ASS event: `{` opens an override block and `\N`, `\n`, `\h` are commands, so braces
 * become parentheses and a backslash becomes a look-alike that libass prints literally.
 */
export function escapeAssText(text: string): string {
  return text
    .replace(/\\/g, "\u2216")
    .replace(/\{/g, "(")
    .replace(/\}/g, ")")
    .replace(/\r\n?|\n/g, "\\N");
}

function sizes(s: CaptionStyle) {
  const fontSize = Math.round(s.height * (s.fontScale ?? CAPTION_FONT_SCALE));
  const marginH = Math.round(s.width * 0.07);
  const outline = Math.max(2, Math.round(fontSize * 0.08));
  return { fontSize, marginH, outline, lineWidth: s.width - 2 * marginH - 2 * outline };
}

function styleLine(s: CaptionStyle): string {
  const { fontSize, marginH, outline } = sizes(s);
  const marginV = Math.round(s.height * (s.bottomMargin ?? 0.2));
  // White bold text, thick black outline and soft shadow, bottom-centre (alignment 2), wrapping at the margins.
  return [
    "Style: Default",
    s.fontName,
    fontSize,
    "&H00FFFFFF", // primary (AABBGGRR)
    "&H000000FF",
    "&H00000000", // outline
    "&H80000000", // shadow
    -1, 0, 0, 0, // bold, italic, underline, strikeout
    100, 100, 0, 0, // scale x/y, spacing, angle
    1, // border style: outline + shadow
    outline,
    Math.round(outline / 2),
    2, // alignment
    marginH, marginH, marginV,
    1, // encoding
  ].join(",");
}

/** A complete ASS script for burning captions into a video of the given size with libass. */
export function buildAssScript(cues: readonly Cue[], style: CaptionStyle): string {
  const header = [
    "[Script Info]",
    "ScriptType: v4.00+",
    `PlayResX: ${style.width}`,
    `PlayResY: ${style.height}`,
    "WrapStyle: 0",
    "ScaledBorderAndShadow: yes",
    "",
    "[V4+ Styles]",
    "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding",
    styleLine(style),
    "",
    "[Events]",
    "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
  ];
  const dialogue = (start: number, end: number, text: string) => `Dialogue: 0,${assTime(start)},${assTime(end)},Default,,0,0,0,,${text}`;
  const { fontSize, lineWidth } = sizes(style);
  const events = cues
    .filter((c) => c.end > c.start && c.text.trim())
    .flatMap((c) => {
      const words = c.words?.length ? c.words.map((w) => w.text) : c.text.trim().split(/\s+/);
      const fit = style.measure ? fitCaptionLines(words, lineWidth, fontSize, style.measure) : null;
      const layout: Layout = fit ? { breakAt: fit.lines.length > 1 ? fit.lines[0]!.length : -1, size: fit.fontSize < fontSize ? `\\fs${fit.fontSize}` : "" } : { breakAt: -1, size: "" };
      if (style.look === "word_highlight" && c.words?.length) return highlightEvents(c, layout);
      const text = fit ? joinWords(words.map(escapeAssText), layout) : escapeAssText(c.text.trim());
      return [[c.start, c.end, layout.size ? `{${layout.size}}${text}` : text] as const];
    })
    .filter(([start, end]) => assTime(end) !== assTime(start))
    .map(([start, end, text]) => dialogue(start, end, text));
  return [...header, ...events, ""].join("\n");
}

/** Where a caption breaks (the index of the second line's first word; -1: one line) and its size override. */
interface Layout {
  breakAt: number;
  size: string;
}

function joinWords(words: readonly string[], layout: Layout): string {
  return words.map((w, i) => (i === 0 ? w : `${i === layout.breakAt ? "\\N" : " "}${w}`)).join("");
}

/**
 * One event per word of a caption, back to back: the whole caption each time (so the line never reflows), the
 * current word coloured. The first word is lit from the caption's start, each word until the next one starts,
 * the last until the caption ends. `{\r}` after the lit word resets to the style, so a shrunk size is set again.
 */
function highlightEvents(c: Cue, layout: Layout): (readonly [number, number, string])[] {
  const words = c.words!;
  return words.map((w, i) => {
    const start = i === 0 ? c.start : Math.max(c.start, w.start);
    const end = i === words.length - 1 ? c.end : Math.min(c.end, Math.max(start, words[i + 1]!.start));
    const text = joinWords(
      words.map((x, j) => (j === i ? `{\\c${HIGHLIGHT_ASS}}${escapeAssText(x.text)}{\\r${layout.size}}` : escapeAssText(x.text))),
      layout,
    );
    return [start, end, layout.size ? `{${layout.size}}${text}` : text] as const;
  });
}

/**
 * The same look as `force_style` for the `subtitles` filter, for callers that burn a plain .srt instead of
 * the ASS script. Sizes are relative to libass's default 384x288 script resolution for SRT input (14 of 288: 5 %).
 */
export const SRT_FORCE_STYLE =
  "FontName=DejaVu Sans,Bold=1,FontSize=14,PrimaryColour=&H00FFFFFF,OutlineColour=&H00000000,BackColour=&H80000000,BorderStyle=1,Outline=1.2,Shadow=0.6,Alignment=2,MarginV=58";
