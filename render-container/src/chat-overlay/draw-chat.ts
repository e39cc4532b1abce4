import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { ChatLine } from "../../../common/contract/job-plan";
import { escapeFilterValue } from "../ffmpeg/filter-escape";
import { BOLD_FONT_FILE, CAPTION_FONT_NAME, FONTS_DIR, REGULAR_FONT_FILE } from "../render/fonts";
import type { Size } from "../render/types";
import { buildChatAss } from "./chat-ass";
import { fetchEmotes, type FetchLike } from "./emotes";
import { fontMetrics } from "./font-metrics";
import { chatLook, chatStates, layoutMessage, type ChatRegion, type ChatState, type ChatStyle, type Fonts, type Message } from "./layout";

/** Emote images drawn in one clip at most (each is one overlay filter); emotes past it are drawn as their name. */
export const MAX_EMOTE_PLACEMENTS = 40;

export interface ChatOverlayOptions {
  lines: readonly ChatLine[];
  style: ChatStyle;
  /** VOD seconds of the clip's first frame, and its length. */
  clipStart: number;
  duration: number;
  size: Size;
  region: ChatRegion;
  /** Base of the emote CDN (emotes.ts); null draws every emote as its name. */
  emoteBase: string | null;
  fetch?: FetchLike;
  /** Scratch folder for the ASS script and the emote images. */
  dir: string;
  signal?: AbortSignal;
  warn?: (message: string) => void;
}

export interface ChatOverlay {
  /** Filter graph from `[in]` to `[out]` (labels given to `graph`). */
  graph(inLabel: string, outLabel: string): string;
  /** For tests and logs. */
  states: ChatState[];
  messages: Message[];
  emoteImages: number;
}

/**
 * Draws a clip's chat: messages appear at the second they were sent on the VOD's clock (lines sent in the
 * few seconds before the clip are already there), stacked in the region, the newest at the bottom. Text,
 * names and backgrounds go through libass (one ASS script); emote images are overlaid where the layout put
 * them, moving with their row as it scrolls. null when nothing is drawn.
 */
export async function prepareChatOverlay(o: ChatOverlayOptions): Promise<ChatOverlay | null> {
  const lines = o.lines.filter((l) => l.at - o.clipStart < o.duration);
  if (lines.length === 0) return null;
  const look = chatLook(o.size, o.style);
  let fonts: Fonts;
  try {
    fonts = { regular: fontMetrics(REGULAR_FONT_FILE), bold: fontMetrics(BOLD_FONT_FILE) };
  } catch (error) {
    // Chat is an extra: a font it cannot measure leaves the clip without chat, never fails its render.
    o.warn?.(`chat not drawn: its font could not be read (${(error as Error).message})`);
    return null;
  }

  const emoteIds = lines.flatMap((l) => l.fragments.flatMap((f) => (f.emote_id ? [f.emote_id] : [])));
  const files = o.emoteBase && emoteIds.length > 0 ? await fetchEmotes(emoteIds, { base: o.emoteBase, dir: o.dir, fetch: o.fetch, signal: o.signal, warn: o.warn }) : new Map<string, string>();
  let placements = 0;
  const hasImage = (id: string) => files.has(id) && placements++ < MAX_EMOTE_PLACEMENTS;
  const width = o.region.w - 2 * look.pad;
  const messages = lines.map((l) => layoutMessage(l, Math.max(0, l.at - o.clipStart), width, look, fonts, hasImage));
  const states = chatStates(messages, o.region, look, o.duration);
  if (states.length === 0) return null;

  const assPath = path.join(o.dir, "chat.ass");
  await writeFile(assPath, buildChatAss(messages, states, look, o.size, CAPTION_FONT_NAME), "utf8");
  const spots = emoteSpots(messages, states, (look.lineHeight - look.emoteSize) / 2);
  const used = [...new Set(spots.map((s) => s.id))].filter((id) => files.has(id));

  return {
    states,
    messages,
    emoteImages: used.length,
    graph(inLabel, outLabel) {
      const parts = [`[${inLabel}]subtitles=filename=${escapeFilterValue(assPath)}:fontsdir=${escapeFilterValue(FONTS_DIR)}[chat0]`];
      used.forEach((id, n) => {
        const mine = spots.filter((s) => s.id === id);
        const outs = mine.map((_, k) => `[em${n}_${k}]`).join("");
        parts.push(`movie=filename=${escapeFilterValue(files.get(id)!)},format=rgba,scale=${look.emoteSize}:${look.emoteSize}:force_original_aspect_ratio=decrease,split=${mine.length}${outs}`);
      });
      let current = "chat0";
      let k = 0;
      used.forEach((id, n) => {
        spots.filter((s) => s.id === id).forEach((spot, j) => {
          const next = `chat${++k}`;
          parts.push(`[${current}][em${n}_${j}]overlay=x=${spot.x}:y=${spot.y}:enable=${spot.enable}:eof_action=repeat[${next}]`);
          current = next;
        });
      });
      parts.push(`[${current}]null[${outLabel}]`);
      return parts.join(";");
    },
  };
}

interface Spot {
  id: string;
  x: number;
  /** Filter expressions (commas escaped for the graph). */
  y: string;
  enable: string;
}

/** Each emote image's place over time: its x stays, its y follows its row from state to state. */
function emoteSpots(messages: readonly Message[], states: readonly ChatState[], inset: number): Spot[] {
  const byKey = new Map<string, { id: string; x: number; steps: { start: number; end: number; y: number }[] }>();
  for (const s of states) {
    for (const r of s.rows) {
      messages[r.message]!.rows[r.row]!.forEach((p, i) => {
        if (p.kind !== "emote") return;
        const key = `${r.message}:${r.row}:${i}`;
        const entry = byKey.get(key) ?? { id: p.id, x: Math.round(r.x + p.x), steps: [] };
        entry.steps.push({ start: s.start, end: s.end, y: Math.round(r.y + inset) });
        byKey.set(key, entry);
      });
    }
  }
  const f = (v: number) => v.toFixed(3);
  return [...byKey.values()].map(({ id, x, steps }) => {
    let y = String(steps[steps.length - 1]!.y);
    for (let i = steps.length - 2; i >= 0; i--) y = `if(lt(t\\,${f(steps[i]!.end)})\\,${steps[i]!.y}\\,${y})`;
    // Visible during its states only (a gap between two of them, rare, hides it there too).
    const enable = steps.map((st) => `between(t\\,${f(st.start)}\\,${f(st.end - 0.001)})`).join("+");
    return { id, x, y, enable };
  });
}
