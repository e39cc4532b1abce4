import { assTime, escapeAssText } from "../captions/ass";
import type { ChatLook, ChatState, Message } from "./layout";
import { assColor } from "./name-color";

/** A rounded rectangle as an ASS drawing (\p1), corners of radius r. */
function roundedRect(x: number, y: number, w: number, h: number, r: number): string {
  const R = Math.max(0, Math.min(r, w / 2, h / 2));
  const k = R * 0.45; // control-point inset for a quarter circle with cubic Béziers
  const X = x + w;
  const Y = y + h;
  const n = (v: number) => Math.round(v);
  return [
    `m ${n(x + R)} ${n(y)}`,
    `l ${n(X - R)} ${n(y)}`,
    `b ${n(X - k)} ${n(y)} ${n(X)} ${n(y + k)} ${n(X)} ${n(y + R)}`,
    `l ${n(X)} ${n(Y - R)}`,
    `b ${n(X)} ${n(Y - k)} ${n(X - k)} ${n(Y)} ${n(X - R)} ${n(Y)}`,
    `l ${n(x + R)} ${n(Y)}`,
    `b ${n(x + k)} ${n(Y)} ${n(x)} ${n(Y - k)} ${n(x)} ${n(Y - R)}`,
    `l ${n(x)} ${n(y + R)}`,
    `b ${n(x)} ${n(y + k)} ${n(x + k)} ${n(y)} ${n(x + R)} ${n(y)}`,
  ].join(" ");
}

/** Opacity of the backgrounds (ASS alpha: 00 opaque, FF clear): the panel 75 % black, a bubble 78 %: names and text read over any picture. */
const BOX_ALPHA = { panel: "&H40&", bubbles: "&H38&" } as const;

/**
 * The chat as an ASS script for libass: per state, its backgrounds (layer 0) and every text piece of every
 * visible row at its exact position (layer 1, `\an7\pos`: top-left anchored, no wrapping by libass, since the
 * rows were laid out with the font's own widths so emote images can sit between the pieces).
 */
export function buildChatAss(messages: readonly Message[], states: readonly ChatState[], look: ChatLook, size: { width: number; height: number }, fontName: string): string {
  const outline = Math.max(1, Math.round(look.fontSize * 0.06));
  const header = [
    "[Script Info]",
    "ScriptType: v4.00+",
    `PlayResX: ${size.width}`,
    `PlayResY: ${size.height}`,
    "WrapStyle: 2",
    "ScaledBorderAndShadow: yes",
    "",
    "[V4+ Styles]",
    "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding",
    `Style: Chat,${fontName},${look.fontSize},&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,${outline},0,7,0,0,0,1`,
    "",
    "[Events]",
    "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
  ];
  const events: string[] = [];
  const textTop = Math.round((look.lineHeight - look.fontSize) / 2);
  for (const s of states) {
    const [start, end] = [assTime(s.start), assTime(s.end)];
    if (start === end) continue;
    for (const b of s.boxes) {
      const radius = look.style === "bubbles" ? Math.round(look.lineHeight / 2) : look.pad;
      events.push(`Dialogue: 0,${start},${end},Chat,,0,0,0,,{\\an7\\pos(0,0)\\bord0\\shad0\\c&H000000&\\1a${BOX_ALPHA[look.style]}\\p1}${roundedRect(b.x, b.y, b.w, b.h, radius)}`);
    }
    for (const r of s.rows) {
      for (const p of messages[r.message]!.rows[r.row]!) {
        if (p.kind !== "text") continue;
        const tags = `\\an7\\pos(${Math.round(r.x + p.x)},${r.y + textTop})\\c${assColor(p.color)}${p.bold ? "\\b1" : ""}`;
        events.push(`Dialogue: 1,${start},${end},Chat,,0,0,0,,{${tags}}${escapeAssText(p.text)}`);
      }
    }
  }
  return [...header, ...events, ""].join("\n");
}
