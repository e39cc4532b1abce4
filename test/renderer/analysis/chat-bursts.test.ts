import { describe, expect, it } from "vitest";
import { analyzeChat } from "../../../render-container/src/analysis/chat-signals";
import type { ChatCommentInput } from "../../../render-container/src/analysis/types";

/** A seeded stream of chat: `rate` background messages per second from `regulars` accounts. */
function background(seconds: number, rate: number, regulars: number, seed = 7): ChatCommentInput[] {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const out: ChatCommentInput[] = [];
  for (let t = 0; t < seconds; t += -Math.log(1 - rnd()) / rate) out.push({ offset_seconds: Math.floor(t), commenter_login: `regular${Math.floor(rnd() * regulars)}`, text: "hello chat", emote_count: 0 });
  return out;
}

const burst = (at: number, n: number, accounts: number, text = "KEKW"): ChatCommentInput[] =>
  Array.from({ length: n }, (_, i) => ({ offset_seconds: at + Math.floor((i / n) * 8), commenter_login: `viewer${i % accounts}`, text, emote_count: 0 }));

describe("chat bursts", () => {
  it("finds a crowd reacting, with its onset, in a small chat and in a busy one", () => {
    for (const [rate, regulars, n] of [[0.1, 20, 15], [4, 150, 120]] as const) {
      const chat = analyzeChat([...background(900, rate, regulars), ...burst(400, n, n)], 900);
      const top = chat.bursts![0]!;
      expect(Math.abs(top.onset - 400)).toBeLessThanOrEqual(1);
      expect(top.score).toBeGreaterThan(0.6);
      // Nothing else in the stream is as strong.
      expect(chat.bursts!.slice(1).every((b) => b.score < 0.3)).toBe(true);
    }
  });

  it("discounts spam: one account flooding chat is no burst; a dozen accounts pasting lines scores low", () => {
    const one = analyzeChat([...background(900, 0.5, 40), ...burst(400, 40, 1, "follow my channel")], 900);
    expect(Math.max(0, ...one.bursts!.filter((b) => b.onset >= 395 && b.onset <= 410).map((b) => b.score))).toBeLessThan(0.2);
    const dozen = analyzeChat([...background(900, 0.5, 40), ...burst(400, 60, 12, "1")], 900);
    expect(Math.max(0, ...dozen.bursts!.map((b) => b.score))).toBeLessThan(0.35);
    const crowd = analyzeChat([...background(900, 0.5, 40), ...burst(400, 60, 60)], 900);
    expect(crowd.bursts![0]!.score).toBeGreaterThan(0.8);
  });

  it("a line pasted by many accounts is spam, however many accounts paste it (near-duplicates too)", () => {
    // 40 accounts, each pasting one line once: the account count alone would read as a crowd.
    const variants = ["type 1 if you are here", "TYPE 1 IF YOU ARE HERE", "type 1 if you are here \u{E0000}", "type  1 if you are here!!", "type 1 if you are heree"];
    const raid = Array.from({ length: 40 }, (_, i) => ({ offset_seconds: 400 + Math.floor(i / 5), commenter_login: `raider${i}`, text: variants[i % variants.length]!, emote_count: 0 }));
    const chat = analyzeChat([...background(900, 0.5, 40), ...raid], 900);
    expect(Math.max(0, ...chat.bursts!.filter((b) => b.onset >= 395 && b.onset <= 410).map((b) => b.score))).toBeLessThan(0.2);
    // The same 40 accounts each typing a reaction once: a crowd.
    const crowd = analyzeChat([...background(900, 0.5, 40), ...raid.map((c) => ({ ...c, text: "KEKW" }))], 900);
    expect(crowd.bursts![0]!.score).toBeGreaterThan(0.8);
  });

  it("a raid into a small chat is no reaction: its accounts paste a few different raid lines", () => {
    // 48 new accounts in 12 s, each pasting one of four raid lines (the channel's name, "raid", an emote): each
    // line counts once, but four or five voices are already a crowd in a chat of one message every 5 s.
    const lines = ["bigchannel raid VoHiYo", "bigchannel RAID TwitchUnity", "RAID FROM bigchannel VoHiYo VoHiYo", "bigchannel sent us VoHiYo"];
    const raid = Array.from({ length: 48 }, (_, i) => ({ offset_seconds: 400 + Math.floor(i / 4), commenter_login: `raider${i}`, text: lines[(i * 7) % 4]!, emote_count: 1 + (i % 2) }));
    const hellos = ["hi", "hello", "yo", "hey chat"].map((text, i) => ({ offset_seconds: 412 + 2 * i, commenter_login: `raider${i}`, text, emote_count: 0 }));
    const small = background(900, 0.2, 20);
    const chat = analyzeChat([...small, ...raid, ...hellos], 900);
    expect(Math.max(0, ...chat.bursts!.filter((b) => b.onset >= 395 && b.onset <= 420).map((b) => b.score))).toBeLessThan(0.3);
    // The same accounts each typing their own reaction (emotes and short words, a few repeated: KEKW is KEKW) are a crowd.
    const own = ["KEKW", "LUL", "no way", "OMEGALUL", "what", "WHAT", "LMAO", "KEKW KEKW"];
    const crowd = analyzeChat([...small, ...raid.map((c, i) => ({ ...c, text: own[i % own.length]! }))], 900);
    expect(crowd.bursts![0]!.score).toBeGreaterThan(0.6);
    expect(Math.abs(crowd.bursts![0]!.onset - 400)).toBeLessThanOrEqual(1);
  });

  it("a raid that keeps pasting for 18 s and then says hello is no reaction either: pasted lines never count as reactions", () => {
    // As on source c's calm control (held-out seed 185): 32 raiders paste four lines with emotes over 18 s, then
    // nine of them greet chat, each in their own words. The tail of the raid is a burst of 13 distinct voices where
    // its pasted lines are under the paste-wave's full discount; counted as reactions (they carry emotes) they read
    // as chat turning from talk to reactions and the burst scored 0.47 there (0.44 here), over the audience's event
    // level; without them 0.18.
    const lines = ["HeyGuys knight_tv HeyGuys", "we came from knight_tv TwitchUnity", "knight_tv RAID HeyGuys HeyGuys", "knight_tv raiders HeyGuys"];
    const raid = Array.from({ length: 34 }, (_, i) => ({ offset_seconds: 601 + Math.floor((i * 18) / 34), commenter_login: `raider${i}`, text: lines[(i * 3) % 4]!, emote_count: 1 }));
    const hellos = ["evening all", "yo yo", "sup chat", "hi hi", "yo yo", "wassup", "morning from australia", "evening all", "hey hey"].map((text, i) => ({ offset_seconds: 619 + 2 * i, commenter_login: `raider${i}`, text, emote_count: 0 }));
    // Two regulars laugh at the raid: all the reaction there is.
    const laughs = [{ offset_seconds: 614, commenter_login: "regular1", text: "lol", emote_count: 0 }, { offset_seconds: 618, commenter_login: "regular2", text: "Kappa Kappa", emote_count: 2 }];
    const small = background(1500, 0.2, 20).map((c, i) => (i % 4 === 0 ? { ...c, text: "LUL", emote_count: 1 } : c));
    const chat = analyzeChat([...small, ...raid, ...hellos, ...laughs], 1500);
    expect(Math.max(0, ...chat.bursts!.filter((b) => b.onset >= 595 && b.onset <= 640).map((b) => b.score))).toBeLessThan(0.3);
    // The same accounts each typing their own reaction are still a crowd.
    const own = ["KEKW", "LUL", "no way", "OMEGALUL", "what", "WHAT", "LMAO", "KEKW KEKW"];
    const crowd = analyzeChat([...small, ...raid.map((c, i) => ({ ...c, text: own[i % own.length]! }))], 1500);
    expect(crowd.bursts!.find((b) => Math.abs(b.onset - 601) <= 2)!.score).toBeGreaterThan(0.6);
  });

  it("a few accounts posting on a loop beside a lively chat are no crowd", () => {
    // Three accounts, a message every 3 s each for 30 s, over a chat that is busier than usual there.
    const loop = Array.from({ length: 30 }, (_, i) => ({ offset_seconds: 400 + i, commenter_login: `looper${i % 3}`, text: ["1", "follow my channel", "giveaway now"][i % 3]!, emote_count: 0 }));
    const lively = background(40, 1.2, 40, 5).map((c) => ({ ...c, offset_seconds: c.offset_seconds + 395 }));
    const chat = analyzeChat([...background(900, 0.5, 40), ...lively, ...loop], 900);
    expect(Math.max(0, ...chat.bursts!.filter((b) => b.onset >= 390 && b.onset <= 435).map((b) => b.score))).toBeLessThan(0.35);
    // The lively chat alone, with a crowd reacting in it, is still found.
    const crowd = analyzeChat([...background(900, 0.5, 40), ...lively, ...loop, ...burst(420, 30, 30)], 900);
    expect(crowd.bursts!.find((b) => Math.abs(b.onset - 420) <= 2)!.score).toBeGreaterThan(0.6);
  });

  it("a busier stretch of ordinary conversation is no reaction: chat must shift towards reactions", () => {
    const talk = ["is this the new update", "what rank are you", "hello chat", "first time here", "love the stream", "how long have you been live"];
    const chatter = Array.from({ length: 24 }, (_, i) => ({ offset_seconds: 400 + Math.floor(i / 4), commenter_login: `talker${i}`, text: talk[i % talk.length]!, emote_count: 0 }));
    const chat = analyzeChat([...background(900, 0.5, 40), ...chatter], 900);
    const found = chat.bursts!.find((b) => b.onset >= 395 && b.onset <= 410);
    expect(found).toBeDefined();
    expect(found!.score).toBeLessThan(0.35);
    expect(found!.usualReactionShare).toBeLessThan(0.1);
    // The same accounts laughing instead: a reaction.
    const laughing = analyzeChat([...background(900, 0.5, 40), ...chatter.map((c) => ({ ...c, text: "LMAO" }))], 900);
    expect(laughing.bursts!.find((b) => b.onset >= 395 && b.onset <= 410)!.score).toBeGreaterThan(0.8);
  });

  it("finds a small chat's slow crowd: seven viewers over 12 s, the most excited typing three reactions each", () => {
    // One message every 10 s usually. Seven accounts react between 400 and 412, two of them three times in a few
    // seconds ("?????", "that was insane", "?????"): never four voices more than usual within 5 s.
    const lines: [number, string, string][] = [
      [400, "salty", "YOOO"], [401, "cozy", "monkaS"], [401, "tiny", "?????"], [402, "wild", "EZ Clap"], [403, "tiny", "that was insane"],
      [403, "sneaky", "POGGERS"], [405, "sneaky", "EZ Clap"], [406, "tiny", "?????"], [407, "grumpy", "monkaS"], [410, "lucky", "INSANE PLAY"], [412, "sneaky", "KEKW"],
    ];
    const reaction = lines.map(([t, who, text]) => ({ offset_seconds: t, commenter_login: who, text, emote_count: 0 }));
    const small = background(900, 0.1, 20, 3);
    const found = analyzeChat([...small, ...reaction], 900).bursts!.find((b) => b.onset >= 398 && b.onset <= 405);
    expect(found).toBeDefined();
    expect(found!.score).toBeGreaterThan(0.3);
    // The same three messages a few seconds apart from one account, or a regular's conversation on a loop, are not.
    const one = Array.from({ length: 12 }, (_, i) => ({ offset_seconds: 400 + i, commenter_login: "tiny", text: ["?????", "that was nuts", "KEKW"][i % 3]!, emote_count: 0 }));
    expect(Math.max(0, ...analyzeChat([...small, ...one], 900).bursts!.map((b) => b.score))).toBeLessThan(0.1);
  });

  it("follows a busy chat's waves: a busier stretch is not a burst", () => {
    // 2 msg/s for five minutes, then 5 msg/s from many regulars for five minutes.
    const waves = [...background(300, 2, 150), ...background(300, 5, 150, 11).map((c) => ({ ...c, offset_seconds: c.offset_seconds + 300 }))];
    const chat = analyzeChat(waves, 600);
    expect(chat.bursts!.filter((b) => b.score > 0.35)).toEqual([]);
  });
});
