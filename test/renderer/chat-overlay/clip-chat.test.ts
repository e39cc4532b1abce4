import { describe, expect, it } from "vitest";
import { MAX_CHAT_LINES_PER_CLIP } from "../../../common/contract/job-plan";
import type { ChatComment } from "../../../common/twitch";
import { CHAT_LEAD_IN_SECONDS, chatLinesPerClip, clipChatReader, MAX_CHAT_LINES_PER_SECOND, PLAN_CHAT_LINE_BUDGET } from "../../../render-container/src/chat-overlay/clip-chat";
import { chatLook, layoutMessage, MAX_ROWS_PER_MESSAGE } from "../../../render-container/src/chat-overlay/layout";
import { fontMetrics } from "../../../render-container/src/chat-overlay/font-metrics";
import { contrastRatio, MIN_NAME_CONTRAST, readableNameColor } from "../../../render-container/src/chat-overlay/name-color";
import { BOLD_FONT_FILE, FONTS_DIR } from "../../../render-container/src/render/fonts";
import { captionBandTop, MAX_CHAT_ROWS, shortChatRegion } from "../../../render-container/src/chat-overlay/placement";
import { splitPanelHeight } from "../../../render-container/src/render/short-layout";
import path from "node:path";

let n = 0;
const comment = (at: number, login: string | null, text: string, extra: Partial<ChatComment> = {}): ChatComment => ({
  id: `c${n++}`,
  offset_seconds: at,
  commenter_login: login,
  commenter_name: login ? login.toUpperCase() : null,
  text,
  emote_count: 0,
  fragments: [{ text, emote_id: null }],
  ...extra,
});

describe("the chat lines a clip draws", () => {
  it("shows an account posting on a loop once, as selection counts it once", () => {
    const comments = [
      comment(100, "looper", "buy my merch pls"),
      comment(105, "alice", "what a shot"),
      comment(108, "looper", "buy my merch pls"),
      comment(112, "looper", "buy my merch pls!"),
      comment(118, "looper", "buy my merch pls"),
      comment(120, "bob", "no way"),
    ];
    const lines = clipChatReader(comments)(100, 130);
    expect(lines.filter((l) => l.name === "LOOPER")).toHaveLength(1);
    expect(lines.map((l) => l.name)).toEqual(["LOOPER", "ALICE", "BOB"]);
  });

  it("shows a line pasted by several accounts once, and never links, promotion or bot commands", () => {
    const comments = [
      comment(200, "a", "type 1 if you are here and love this stream"),
      comment(201, "b", "type 1 if you are here and love this stream"),
      comment(202, "c", "type 1 if you are here and love this stream"),
      comment(203, "d", "check out my channel twitch.tv/spammy"),
      comment(204, "e", "!drops"),
      comment(205, "f", "buy cheap followers now"),
      comment(206, "g", "KEKW"),
      comment(206.5, "h", "KEKW"),
      comment(207, "i", "KEKW"),
    ];
    const lines = clipChatReader(comments)(200, 210);
    expect(lines.map((l) => l.name)).toEqual(["A", "G", "H", "I"]);
  });

  it("keeps the sender's colour and emote fragments, takes lines from just before the clip, and none after it", () => {
    const comments = [
      comment(300 - CHAT_LEAD_IN_SECONDS - 1, "old", "too early"),
      comment(298, "lead", "already there"),
      comment(310, "col", "Kappa hi", { user_color: "#8A2BE2", fragments: [{ text: "Kappa", emote_id: "25" }, { text: " hi", emote_id: null }] }),
      comment(331, "late", "after the end"),
    ];
    const lines = clipChatReader(comments)(300, 330);
    expect(lines.map((l) => l.name)).toEqual(["LEAD", "COL"]);
    expect(lines[1]).toEqual({ at: 310, name: "COL", color: "#8A2BE2", fragments: [{ text: "Kappa", emote_id: "25" }, { text: " hi", emote_id: null }] });
  });

  it("thins a busy chat to what can be read (4 lines a second) and at most MAX_CHAT_LINES_PER_CLIP, spread over the whole clip", () => {
    const comments = Array.from({ length: 12_000 }, (_, i) => comment(i / 50, `u${i}`, `line ${i}`));
    const read = clipChatReader(comments);
    const minute = read(10, 70);
    expect(minute).toHaveLength(MAX_CHAT_LINES_PER_SECOND * (60 + CHAT_LEAD_IN_SECONDS));
    expect(minute[0]!.at).toBeLessThan(6);
    expect(minute.at(-1)!.at).toBeGreaterThan(69);
    expect(read(0, 200)).toHaveLength(MAX_CHAT_LINES_PER_CLIP);
    expect(read(0, 200, 50)).toHaveLength(50);
  });

  it("shares the plan's budget of lines among the clips that draw chat", () => {
    expect(chatLinesPerClip(1)).toBe(MAX_CHAT_LINES_PER_CLIP);
    expect(chatLinesPerClip(40) * 40).toBeLessThanOrEqual(PLAN_CHAT_LINE_BUDGET);
    expect(chatLinesPerClip(100_000)).toBe(20);
  });
});

describe("a message laid out", () => {
  const look = chatLook({ width: 1080, height: 1920 }, "panel");
  const fonts = { regular: fontMetrics(path.join(FONTS_DIR, "DejaVuSans.ttf")), bold: fontMetrics(BOLD_FONT_FILE) };
  const line = (text: string, emote?: string) => ({ at: 0, name: "Someone", color: null, fragments: [{ text, emote_id: null }, ...(emote ? [{ text: "Kappa", emote_id: emote }] : [])] });

  it("wraps long messages to at most MAX_ROWS_PER_MESSAGE rows within the width, cut with an ellipsis", () => {
    const m = layoutMessage(line("word ".repeat(200)), 0, 700, look, fonts, () => false);
    expect(m.rows).toHaveLength(MAX_ROWS_PER_MESSAGE);
    for (const row of m.rows) for (const p of row) expect(p.x + p.w).toBeLessThanOrEqual(700 + 1);
    const last = m.rows.at(-1)!.at(-1)!;
    expect(last.kind === "text" && last.text.endsWith("\u2026")).toBe(true);
  });

  it("puts an emote image where the emote is, or its name when there is no image", () => {
    const withImage = layoutMessage(line("hi ", "25"), 0, 900, look, fonts, () => true);
    expect(withImage.rows[0]!.map((p) => p.kind)).toEqual(["text", "text", "emote"]);
    const emote = withImage.rows[0]![2]!;
    expect(emote.w).toBe(look.emoteSize);
    const without = layoutMessage(line("hi ", "25"), 0, 900, look, fonts, () => false);
    expect(without.rows[0]!.flatMap((p) => (p.kind === "text" ? [p.text] : []))).toEqual(["Someone:", "hi Kappa"]);
  });

  it("measures text as the font draws it: wider strings are wider, bold wider than regular", () => {
    expect(fonts.regular.width("WWWW", 40)).toBeGreaterThan(fonts.regular.width("iiii", 40) * 2);
    expect(fonts.bold.width("Someone", 40)).toBeGreaterThan(fonts.regular.width("Someone", 40));
  });
});

describe("name colours", () => {
  it("keeps a readable colour, lightens a dark one until it reads, and gives a colourless sender a stable bright one", () => {
    expect(readableNameColor("#1E90FF", "a")).toBe("#1E90FF");
    const navy = readableNameColor("#000080", "a");
    expect(navy).not.toBe("#000080");
    expect(contrastRatio(navy)).toBeGreaterThanOrEqual(MIN_NAME_CONTRAST);
    expect(readableNameColor(null, "somebody")).toBe(readableNameColor(null, "SOMEBODY"));
    expect(contrastRatio(readableNameColor(null, "somebody"))).toBeGreaterThanOrEqual(MIN_NAME_CONTRAST);
    expect(readableNameColor("not a colour", "x")).toMatch(/^#[0-9A-F]{6}$/);
  });
});

describe("where chat goes in a short", () => {
  const size = { width: 1080, height: 1920 };
  const look = chatLook(size, "panel");
  const furniture = { size, panelHeight: null, videoTop: null, titleSeconds: 2.5, titleFontSize: 65 };

  it("stays above the caption band in every layout, below the facecam panel at every split ratio, and says when there is no room", () => {
    for (const layout of ["crop", "fit"] as const) {
      const r = shortChatRegion({ ...furniture, layout, videoTop: layout === "fit" ? 656 : null }, look)!;
      expect(r.bottom).toBeLessThanOrEqual(captionBandTop(size));
      expect(r.x).toBeGreaterThanOrEqual(0);
      expect(r.x + r.w).toBeLessThanOrEqual(size.width);
      expect(r.maxRows).toBe(MAX_CHAT_ROWS);
      if (layout === "fit") expect(r.bottom).toBeLessThanOrEqual(656);
    }
    let shown = 0;
    for (let ratio = 0.15; ratio <= 0.851; ratio += 0.05) {
      const panel = splitPanelHeight(size, ratio);
      const r = shortChatRegion({ ...furniture, layout: "split", panelHeight: panel }, look);
      if (!r) {
        expect(captionBandTop(size) - panel).toBeLessThan(look.lineHeight + 2 * look.pad + 30);
        continue;
      }
      shown++;
      expect(r.top).toBeGreaterThanOrEqual(panel);
      expect(r.bottom).toBeLessThanOrEqual(captionBandTop(size));
      // While the title shows on the seam, rows start below it.
      expect(r.keepOut[0]!.top).toBeGreaterThan(panel);
    }
    expect(shown).toBeGreaterThan(5);
    expect(shortChatRegion({ ...furniture, layout: "split", panelHeight: splitPanelHeight(size, 0.85) }, look)).toBeNull();
  });
});
