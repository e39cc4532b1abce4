import { describe, expect, it } from "vitest";
import { isBotCommand, isPureReaction, reactionKind } from "../../../render-container/src/analysis/chat-lexicon";
import { analyzeChat } from "../../../render-container/src/analysis/chat-signals";
import type { ChatCommentInput } from "../../../render-container/src/analysis/types";

const msg = (offset: number, login: string | null, text = "hi", emotes = 0): ChatCommentInput => ({
  offset_seconds: offset,
  commenter_login: login,
  text,
  emote_count: emotes,
});

/** One calm message every 10 s for `duration`, plus a burst of `burstSize` messages from distinct users at `burstAt`. */
function stream(duration: number, burstAt: number, burstSize: number, text = "KEKW"): ChatCommentInput[] {
  const out: ChatCommentInput[] = [];
  for (let t = 0; t < duration; t += 10) out.push(msg(t + 0.5, `regular${t % 30}`, "what game is this"));
  for (let i = 0; i < burstSize; i++) out.push(msg(burstAt + (i % 6) + 0.1, `viewer${i}`, text));
  return out;
}

const argmax = (xs: number[]) => xs.reduce((b, v, i) => (v > xs[b]! ? i : b), 0);

describe("analyzeChat", () => {
  it("credits a burst to the moment chat reacted to: the signal shifts back by the reaction lag", () => {
    const comments = stream(300, 150, 60);
    const lag8 = analyzeChat(comments, 300, { reactionLagSeconds: 8 });
    const lag0 = analyzeChat(comments, 300, { reactionLagSeconds: 0 });
    expect(argmax(lag0.messageRate)).toBeGreaterThanOrEqual(150);
    expect(argmax(lag0.messageRate)).toBeLessThanOrEqual(156);
    expect(argmax(lag0.messageRate) - argmax(lag8.messageRate)).toBe(8);
    expect(lag8.reactionLagSeconds).toBe(8);
    // Default lag is within the 7-10 s research range.
    const dflt = analyzeChat(comments, 300);
    expect(dflt.reactionLagSeconds).toBeGreaterThanOrEqual(7);
    expect(dflt.reactionLagSeconds).toBeLessThanOrEqual(10);
  });

  it("measures the burst against the stream's own baseline and counts distinct chatters", () => {
    const c = analyzeChat(stream(300, 150, 60), 300, { reactionLagSeconds: 8 });
    const peak = argmax(c.rateRatio);
    expect(c.available).toBe(true);
    expect(c.totalMessages).toBe(90);
    expect(c.baselineRate).toBeCloseTo(0.1, 1);
    expect(c.rateRatio[peak]!).toBeGreaterThan(20);
    expect(c.rateRatio[50]!).toBeLessThan(2);
    expect(c.uniqueChatters[peak]!).toBeGreaterThanOrEqual(50);
    expect(c.uniqueChattersRatio[peak]!).toBeGreaterThan(10);
    expect(c.hypeDensity[peak]!).toBeGreaterThan(0.8);
    expect(c.hypeDensity[50]!).toBe(0);
  });

  it("does not mistake one chatter spamming for many chatters", () => {
    const spam = [...stream(300, 0, 0), ...Array.from({ length: 60 }, (_, i) => msg(150 + (i % 6), "spammer", "1"))];
    const c = analyzeChat(spam, 300, { reactionLagSeconds: 0 });
    const peak = argmax(c.rateRatio);
    expect(c.rateRatio[peak]!).toBeGreaterThan(20);
    expect(c.uniqueChatters[peak]!).toBeLessThanOrEqual(3);
    expect(c.hypeDensity[peak]!).toBeLessThan(0.1);
  });

  it("leaves bot commands out of every signal", () => {
    const bots = [...stream(300, 0, 0), ...Array.from({ length: 60 }, (_, i) => msg(150 + (i % 6), `v${i}`, "!drops"))];
    const c = analyzeChat(bots, 300, { reactionLagSeconds: 0 });
    expect(Math.max(...c.rateRatio)).toBeLessThan(3);
  });

  it("flags an empty or missing replay as unavailable, with zeroed arrays of the right length", () => {
    for (const input of [[], null, undefined]) {
      const c = analyzeChat(input, 120);
      expect(c.available).toBe(false);
      expect(c.totalMessages).toBe(0);
      expect(c.messageRate).toHaveLength(120);
      expect(c.rateRatio.every((v) => v === 0)).toBe(true);
    }
  });

  it("keeps one message in a quiet stream from reading as a huge spike (baseline floor)", () => {
    const c = analyzeChat([msg(60, "a", "hello")], 600, { reactionLagSeconds: 0 });
    expect(c.baselineRate).toBeGreaterThan(0);
    expect(Math.max(...c.rateRatio)).toBeLessThan(4);
  });

  it("counts anonymous (deleted) chatters as distinct and ignores comments outside the VOD", () => {
    const c = analyzeChat([msg(10, null), msg(10.5, null), msg(11, "A"), msg(11.2, "a"), msg(-5, "x"), msg(9999, "y")], 60, { reactionLagSeconds: 0 });
    expect(c.totalMessages).toBe(4);
    expect(c.uniqueChatters[10]).toBe(3);
  });
});

describe("reaction lexicon", () => {
  it("recognises laughter, hype, emotes and shouting; plain talk is not a reaction", () => {
    expect(reactionKind("KEKW", 0)).toBe("laughter");
    expect(reactionKind("hahaha", 0)).toBe("laughter");
    expect(reactionKind("LMAOOO", 0)).toBe("laughter");
    expect(reactionKind("PogChamp PogChamp", 2)).toBe("hype");
    expect(reactionKind("no way", 0)).toBe("hype");
    expect(reactionKind("clip it", 0)).toBe("hype");
    expect(reactionKind("Kappa", 1)).toBe("emote");
    expect(reactionKind("WHAT", 0)).toBe("shout");
    expect(reactionKind("?????", 0)).toBe("shout");
    expect(reactionKind("what game is this?", 0)).toBeNull();
    expect(reactionKind("what game is this", 0)).toBeNull();
    expect(reactionKind("lollipop recipe", 0)).toBeNull();
    expect(isBotCommand("!drops")).toBe(true);
    expect(isBotCommand("wow!")).toBe(false);
  });

  it("reads emotes that arrive as bare words (no fragment marked) as emotes, case and all", () => {
    expect(reactionKind("Kappa Kappa", 0)).toBe("emote");
    expect(isPureReaction("DansGame DansGame", 0)).toBe(true);
    expect(isPureReaction("BibleThump", 0)).toBe(true);
    // A word that is only an emote's name in another case, and a raid's line around an emote, are not.
    expect(reactionKind("kappa is my favourite", 0)).toBeNull();
    expect(isPureReaction("bigchannel raid VoHiYo", 0)).toBe(false);
    // A line of nothing but emoji is a reaction too; emoji beside words are not, on their own.
    expect(reactionKind("🔥🔥🔥", 0)).toBe("emote");
    expect(reactionKind("😱 ❤️", 0)).toBe("emote");
    expect(reactionKind("good morning ☀️", 0)).toBeNull();
    // Marked fragments are not counted twice: the name is in the text too.
    expect(isPureReaction("NotLikeThis NotLikeThis hello", 2)).toBe(false);
  });

  it("finds an emote-only crowd reaction whether or not its emotes are marked", () => {
    const talk = ["is this the new update", "what rank are you", "hello chat", "first time here", "nice weather today"];
    const base: ChatCommentInput[] = Array.from({ length: 300 }, (_, i) => ({ offset_seconds: i * 3, commenter_login: `regular${i % 25}`, text: talk[i % talk.length]!, emote_count: 0 }));
    const emotes = ["Kappa", "DansGame DansGame", "SeemsGood", "NotLikeThis", "BibleThump BibleThump"];
    const crowd = (marked: boolean): ChatCommentInput[] =>
      Array.from({ length: 30 }, (_, i) => {
        const text = emotes[i % emotes.length]!;
        return { offset_seconds: 400 + Math.floor(i / 4), commenter_login: `viewer${i}`, text, emote_count: marked ? text.split(" ").length : 0 };
      });
    const score = (marked: boolean) => analyzeChat([...base, ...crowd(marked)], 900).bursts!.find((b) => Math.abs(b.onset - 400) <= 2)!.score;
    expect(score(true)).toBeGreaterThan(0.6);
    expect(score(false)).toBeCloseTo(score(true), 5);
  });
});
