import type { ChatLine } from "../../../common/contract/job-plan";
import { sanitizeDisplayText } from "../render/text";
import type { Size } from "../render/types";
import { FontMetrics } from "./font-metrics";
import { readableNameColor } from "./name-color";

export type ChatStyle = "panel" | "bubbles";

/** Sizes of the overlay, scaled from the video's shorter side (a 1080x1920 short: 42 px text, 56 px rows; a 720p reel: 28 px). */
export interface ChatLook {
  style: ChatStyle;
  fontSize: number;
  lineHeight: number;
  emoteSize: number;
  /** Inside the panel or a bubble, around the text. */
  pad: number;
  /** Between two bubbles. */
  gap: number;
}

export function chatLook(size: Size, style: ChatStyle): ChatLook {
  const side = Math.min(size.width, size.height);
  const fontSize = Math.round(side * 0.039);
  return {
    style,
    fontSize,
    lineHeight: Math.round(fontSize * 1.34),
    emoteSize: Math.round(fontSize * 1.2),
    pad: Math.round(side * 0.014),
    gap: Math.round(side * 0.009),
  };
}

/**
 * Where the overlay may draw: rows stack up from `bottom` (newest at the bottom), never above `top`, and while a
 * keep-out is active (the title flashed at the start of a short) never above its `top` either.
 */
export interface ChatRegion {
  x: number;
  w: number;
  top: number;
  bottom: number;
  /** At most this many rows of text at once (older rows scroll off the top). */
  maxRows: number;
  keepOut: { until: number; top: number }[];
}

export type Piece =
  | { kind: "text"; text: string; bold: boolean; color: string; x: number; w: number }
  | { kind: "emote"; id: string; x: number; w: number };

export interface Message {
  /** Seconds into the clip it appears (0 for lines sent before the clip: they are already there). */
  at: number;
  rows: Piece[][];
}

/** Longest a single message may wrap to; the rest is cut with an ellipsis. */
export const MAX_ROWS_PER_MESSAGE = 3;

export interface Fonts {
  regular: FontMetrics;
  bold: FontMetrics;
}

type Token = { kind: "text"; text: string; bold: boolean; color: string } | { kind: "emote"; id: string };

/**
 * A message as rows of pieces at x offsets from the row's left edge: "Name:" in bold in the sender's colour,
 * then the words, emotes as images when `hasImage(id)` (an image is a square of emoteSize), as their name
 * otherwise. Words wrap greedily at `width`; a word wider than a row is broken.
 */
export function layoutMessage(line: ChatLine, at: number, width: number, look: ChatLook, fonts: Fonts, hasImage: (id: string) => boolean): Message {
  const nameColor = readableNameColor(line.color, line.name);
  const tokens: Token[] = [{ kind: "text", text: `${sanitizeDisplayText(line.name) || "anonymous"}:`, bold: true, color: nameColor }];
  for (const f of line.fragments) {
    if (f.emote_id && hasImage(f.emote_id)) tokens.push({ kind: "emote", id: f.emote_id });
    else for (const word of sanitizeDisplayText(f.text).split(" ").filter(Boolean)) tokens.push({ kind: "text", text: word, bold: false, color: "#FFFFFF" });
  }
  const measure = (t: Token) => (t.kind === "emote" ? look.emoteSize : (t.bold ? fonts.bold : fonts.regular).width(t.text, look.fontSize));
  const space = fonts.regular.width(" ", look.fontSize);
  const rows: Piece[][] = [[]];
  let x = 0;
  let truncated = false;
  const place = (t: Token, w: number) => {
    const row = rows[rows.length - 1]!;
    const last = row[row.length - 1];
    if (t.kind === "text" && last?.kind === "text" && last.bold === t.bold && last.color === t.color && x > 0) {
      last.text += ` ${t.text}`;
      last.w = x + w - last.x;
    } else if (t.kind === "text") row.push({ kind: "text", text: t.text, bold: t.bold, color: t.color, x, w });
    else row.push({ kind: "emote", id: t.id, x, w });
    x += w + space;
  };
  for (const token of tokens) {
    const pieces = token.kind === "text" && measure(token) > width ? breakWord(token, width, look.fontSize, fonts) : [token];
    for (const t of pieces) {
      const w = measure(t);
      if (x > 0 && x + w > width) {
        if (rows.length === MAX_ROWS_PER_MESSAGE) {
          truncated = true;
          break;
        }
        rows.push([]);
        x = 0;
      }
      place(t, w);
    }
    if (truncated) break;
  }
  if (truncated) {
    const row = rows[rows.length - 1]!;
    const ellipsis = "\u2026";
    const last = row[row.length - 1];
    if (last?.kind === "text" && x + fonts.regular.width(ellipsis, look.fontSize) <= width) last.text += ellipsis;
    else row.push({ kind: "text", text: ellipsis, bold: false, color: "#FFFFFF", x: Math.min(x, width - fonts.regular.width(ellipsis, look.fontSize)), w: fonts.regular.width(ellipsis, look.fontSize) });
  }
  return { at, rows };
}

function breakWord(t: Extract<Token, { kind: "text" }>, width: number, size: number, fonts: Fonts): Token[] {
  const font = t.bold ? fonts.bold : fonts.regular;
  const out: Token[] = [];
  let current = "";
  for (const ch of t.text) {
    if (current && font.width(current + ch, size) > width) {
      out.push({ ...t, text: current });
      current = "";
    }
    current += ch;
  }
  if (current) out.push({ ...t, text: current });
  return out;
}

/** A row on screen during one state: its pieces at absolute positions (top-left of the row). */
export interface PlacedRow {
  message: number;
  row: number;
  x: number;
  y: number;
}

/** What is on screen between two changes (a message arriving, the title going away). */
export interface ChatState {
  start: number;
  end: number;
  rows: PlacedRow[];
  /** Backgrounds: the panel (one box) or one bubble per message, in pixels. */
  boxes: { x: number; y: number; w: number; h: number }[];
}

/**
 * The overlay over time: one state per change. Rows are stacked up from the region's bottom, newest last; in
 * `panel` the oldest rows scroll off the top one by one, in `bubbles` whole messages do.
 */
export function chatStates(messages: readonly Message[], region: ChatRegion, look: ChatLook, duration: number): ChatState[] {
  const times = [...new Set([...messages.map((m) => m.at), ...region.keepOut.map((k) => k.until)].filter((t) => t >= 0 && t < duration))].sort((a, b) => a - b);
  const states: ChatState[] = [];
  for (const [k, start] of times.entries()) {
    const end = times[k + 1] ?? duration;
    const arrived = messages.map((m, i) => ({ m, i })).filter(({ m }) => m.at <= start);
    if (arrived.length === 0) continue;
    const top = Math.max(region.top, ...region.keepOut.filter((o) => start < o.until).map((o) => o.top));
    const rows: PlacedRow[] = [];
    const boxes: ChatState["boxes"] = [];
    if (look.style === "panel") {
      const fit = Math.min(region.maxRows, Math.floor((region.bottom - top - 2 * look.pad) / look.lineHeight));
      if (fit <= 0) continue;
      const all = arrived.flatMap(({ m, i }) => m.rows.map((_, r) => ({ message: i, row: r })));
      const shown = all.slice(-fit);
      const y0 = region.bottom - look.pad - shown.length * look.lineHeight;
      shown.forEach((s, n) => rows.push({ ...s, x: region.x + look.pad, y: y0 + n * look.lineHeight }));
      boxes.push({ x: region.x, y: y0 - look.pad, w: region.w, h: shown.length * look.lineHeight + 2 * look.pad });
    } else {
      let bottom = region.bottom;
      let used = 0;
      for (const { m, i } of [...arrived].reverse()) {
        const h = m.rows.length * look.lineHeight + 2 * look.pad;
        if (bottom - h < top || used + m.rows.length > region.maxRows) break;
        const y = bottom - h;
        const width = Math.max(...m.rows.map((r) => rowWidth(r)));
        boxes.unshift({ x: region.x, y, w: Math.min(region.w, Math.ceil(width + 2 * look.pad)), h });
        m.rows.forEach((_, r) => rows.push({ message: i, row: r, x: region.x + look.pad, y: y + look.pad + r * look.lineHeight }));
        bottom = y - look.gap;
        used += m.rows.length;
      }
      if (rows.length === 0) continue;
    }
    states.push({ start, end, rows, boxes });
  }
  return states;
}

export function rowWidth(row: readonly Piece[]): number {
  const last = row[row.length - 1];
  return last ? last.x + last.w : 0;
}
