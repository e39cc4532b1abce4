import { describe, expect, it } from "vitest";
import { commentFromNode, type ChatComment } from "../../../common/twitch";
import { generateChatLog } from "../../../dev/synth-vod/chat-log";
import { BASELINE_MESSAGES, SPAM_MESSAGES } from "../../../dev/synth-vod/phrases";
import { planTimeline } from "../../../dev/synth-vod/plan";
import { ChatCrowd, momentChat } from "../../../render-container/src/metadata/chat-crowd";
import { chatLineProblem, matchForm } from "../../../render-container/src/metadata/chat-lines";
import { distinctTitles } from "../../../render-container/src/metadata/distinct-titles";
import { writeLocalMetadata } from "../../../render-container/src/metadata/local-writer";
import { quotedParts } from "../../../render-container/src/metadata/quote-check";
import type { MetadataInput, MetadataMoment } from "../../../render-container/src/metadata/types";
import { sampleInput, signals } from "./sample-input";

const HYPE = signals({ chat_rate_ratio: 6, loudness_db_above_baseline: 9 });
const AUDIENCE = signals({ chat_rate_ratio: 4, loudness_db_above_baseline: 1 });
const STREAMER = signals({ chat_rate_ratio: 1, loudness_db_above_baseline: 10 });

let nextId = 0;
const comment = (at: number, login: string, text: string, emote = false): ChatComment => ({
  id: String(nextId++),
  offset_seconds: at,
  commenter_login: login,
  commenter_name: login,
  text,
  emote_count: emote ? 1 : 0,
  fragments: [{ text, emote_id: emote ? "305954156" : null }],
});

/** Ten minutes of ordinary chat: regulars chatting, a message every two seconds, small talk and the odd "lol". */
function background(): ChatComment[] {
  const lines = ["hi", "love the stream", "lol", "what game is this", "nice", "gg", "good luck", "true", "that was close", "how long have you been live"];
  return Array.from({ length: 300 }, (_, i) => comment(i * 2, `regular${(i * 7) % 23}`, lines[i % lines.length]!));
}

/** A crowd reacting in [304, 316]: 40 viewers, each once, in the ways a crowd types alike. */
function crowd(): ChatComment[] {
  const ways = ["no way", "NO WAYYY", "no way KEKW", "KEKW", "KEKW KEKW", "PogChamp"];
  return Array.from({ length: 40 }, (_, i) => comment(304 + (i % 12), `viewer${i}`, ways[i % ways.length]!, ways[i % ways.length] === "PogChamp"));
}

/** The moment [300, 330]'s chat as the writers get it. */
function reactionTo(comments: ChatComment[]) {
  return new ChatCrowd(comments).during(300, 330);
}

const quoted = (comments: ChatComment[]) => reactionTo(comments).lines.map((l) => l.text);

function moment(id: string, start: number, over: Partial<MetadataMoment>): MetadataMoment {
  return { id, start, end: start + 30, profile: "balanced", transcript: null, spoken_phrases: [], top_chat_messages: [], top_emotes: [], signals: HYPE, label: null, ...over };
}

function job(moments: MetadataMoment[], over: Partial<MetadataInput> = {}): MetadataInput {
  return sampleInput({ moments, reels: [{ run_name: "balanced", moment_ids: moments.map((m) => m.id) }], shorts: moments.map((m, i) => ({ index: i + 1, moment_id: m.id })), ...over });
}

describe("chat lines that are never a reaction", () => {
  it("promotion, however it is disguised", () => {
    for (const line of ["buy cheap followers now", "BUY CHEAP F0LL0W3RS N0W", "b\u200Buy ch\u200Beap fo\u2060llowers", "Buуuuy real active followers", "check out my channel!!", "follow me", "sub4sub", "discord.gg/abcd", "cheapviewers dot com", "sigueme en mi canal", "folgt mir", "abonnez vous", "me segue"]) {
      expect(chatLineProblem(line), line).toMatch(/promotion|link/);
    }
  });
  it("greetings in the five languages", () => {
    for (const line of ["hi", "HIIII chat", "hello everyone", "first time here", "hola a todos", "buenas", "Hallo zusammen", "moin", "bonjour tout le monde", "coucou", "oi gente", "bom dia", "Morning!", "evening folks", "morning from australia", "watching from brazil", "greetings from poland", "much love from india"]) {
      expect(chatLineProblem(line), line).toBe("greeting");
    }
  });
  it("questions, with or without their question mark", () => {
    for (const line of ["how long have you been live", "what game is this", "can you show the build", "is this the new update", "what rank are you", "¿qué juego es?", "wie lange streamst du", "c'est quoi ce jeu", "o que foi isso", "is he ok?"]) {
      expect(chatLineProblem(line), line).toBe("question");
    }
  });
  it("commands, replies, chain messages and small talk", () => {
    expect(chatLineProblem("!drops")).toBe("command");
    expect(chatLineProblem("@bob lol")).toBe("mention");
    expect(chatLineProblem("type 1 if you are here")).toBe("chain");
    expect(chatLineProblem("bigstreamer RAID bigstreamer RAID")).toBe("chain");
    for (const line of ["love the stream", "good luck", "lurking", "nice stream"]) expect(chatLineProblem(line), line).toBe("small-talk");
  });
  it("while reactions stay quotable, exclamations that open like questions too", () => {
    for (const line of ["no way", "NO WAYYY", "KEKW", "WHAT?!", "HOW", "what a shot", "what the hell", "clip it", "he did it", "LETS GOOO", "qué locura", "wie geil", "que jogada"]) {
      expect(chatLineProblem(line), line).toBeNull();
    }
  });
  it("near-copies share a matching form", () => {
    expect(matchForm("NO WAYYY!!")).toBe(matchForm("no way"));
    expect(matchForm("no\u200B way")).toBe("no way");
  });
});

describe("what a crowd typed, and only that", () => {
  it("a real crowd's reaction is quoted, counted by distinct accounts and over its wordings", () => {
    const r = reactionTo([...background(), ...crowd()]);
    expect(r.burst).toBe(true);
    expect(r.lines[0]).toEqual({ text: "KEKW", accounts: expect.any(Number) as number });
    expect(r.lines.map((l) => l.text)).toContain("no way");
    // "no way", "NO WAYYY" and "no way KEKW": 20 accounts typed "no way" in some form; "KEKW" is also inside lines.
    expect(r.lines.find((l) => l.text === "no way")!.accounts).toBeGreaterThanOrEqual(14);
    expect(r.emotes).toEqual([{ text: "PogChamp", accounts: 6 }]);
  });

  it("counts an emote typed as a bare word (a replay that marks none) as the emote it is, not as a word", () => {
    const typed = crowd().map((c) => (c.text === "PogChamp" ? { ...c, text: "DansGame DansGame", emote_count: 0, fragments: [{ text: "DansGame DansGame", emote_id: null }] } : c));
    const r = reactionTo([...background(), ...typed]);
    expect(r.emotes).toEqual([{ text: "DansGame", accounts: 6 }]);
    // Marked, the same line counts the same.
    const marked = crowd().map((c) => (c.text === "PogChamp" ? { ...c, text: "DansGame DansGame", emote_count: 2, fragments: [{ text: "DansGame", emote_id: "33" }, { text: " ", emote_id: null }, { text: "DansGame", emote_id: "33" }] } : c));
    expect(reactionTo([...background(), ...marked]).emotes).toEqual([{ text: "DansGame", accounts: 6 }]);
  });

  it("without a burst nothing is quoted, not even a line three viewers typed", () => {
    const three = ["what a play", "What a play!", "what a playyy"].map((t, i) => comment(305 + 9 * i, `viewer${i}`, t));
    const r = reactionTo([...background(), ...three]);
    expect(r.burst).toBe(false);
    expect(r.lines).toEqual([]);
    // The same three inside a crowd's reaction are part of it.
    expect(quoted([...background(), ...crowd(), ...three])).toContain("what a play");
  });

  it("accounts on a loop are never quoted and make no crowd", () => {
    const loop = (accounts: number) => Array.from({ length: 20 }, (_, i) => comment(300 + i, `looper${i % accounts}`, i % 2 ? "LETS GO BOYS" : "lets go boys!!"));
    expect(reactionTo([...background(), ...loop(1)]).burst).toBe(false);
    // Four accounts posting it five times each: four accounts, but no four voices.
    for (const accounts of [1, 4]) expect(quoted([...background(), ...crowd(), ...loop(accounts)]).map(matchForm), `${accounts}`).not.toContain("lets go boys");
  });

  it("a line a bot network pastes is never quoted: promotion in disguise, or any line pasted word for word", () => {
    const bots = ["buy cheap followers now", "BUY CHEAP F0LL0W3RS N0W", "buy cheap\u200B followers now", "buy cheap followers now", "buy cheap followers now", "buy cheap followers now"];
    const promotion = bots.map((t, i) => comment(305 + i, `bot${i}`, t));
    const pasted = Array.from({ length: 5 }, (_, i) => comment(306 + i, `paster${i}`, "the quick brown fox jumps"));
    const lines = quoted([...background(), ...crowd(), ...promotion, ...pasted]);
    expect(lines).toContain("no way");
    expect(lines.map(matchForm).filter((l) => /followers|fox/.test(l))).toEqual([]);
  });

  it("greetings, questions and small talk are never quoted, however many typed them", () => {
    // Lines the stream's background never has, typed by six accounts each: as frequent as the crowd's own.
    const six = (text: string, who: string) => Array.from({ length: 6 }, (_, i) => comment(305 + i, `${who}${i}`, i % 2 ? text.toUpperCase() : text));
    const lines = quoted([...background(), ...crowd(), ...six("hello chat", "raider"), ...six("first time here", "new"), ...six("can you show the build", "asker"), ...six("wie lange streamst du", "frager"), ...six("nice stream", "fan"), ...six("hola a todos", "amigo")]);
    expect(lines).toContain("KEKW");
    expect(lines.map(matchForm).filter((l) => /hello|first time|show the build|wie lange|nice stream|hola/.test(l))).toEqual([]);
  });

  it("nor is a line chat's conversation is full of around the moment, however rare it is in the rest of the stream", () => {
    // An hour of chat; for the first twelve minutes the regulars grumble about the map every six seconds.
    const hour = [0, 1, 2, 3, 4, 5].flatMap((k) => background().map((c) => ({ ...c, id: `${k}-${c.id}`, offset_seconds: c.offset_seconds + 600 * k })));
    const wave = Array.from({ length: 120 }, (_, i) => comment(i * 6, `grumbler${i % 40}`, i % 2 ? "this map is so bad" : "This map is so bad!"));
    const lines = quoted([...hour, ...crowd(), ...wave]);
    expect(lines).toContain("KEKW");
    expect(lines.map(matchForm)).not.toContain("this map is so bad");
  });

  it("a reaction typed all stream long is not what this moment was about", () => {
    // "lol" is typed by many all the time here; three more in the moment is its usual rate.
    const lol = Array.from({ length: 120 }, (_, i) => comment(i * 5 + 1, `lol${i}`, "lol"));
    const r = reactionTo([...background(), ...crowd(), ...lol]);
    expect(r.lines.map((l) => l.text)).not.toContain("lol");
    expect(r.lines.map((l) => l.text)).toContain("KEKW");
  });
});

describe("titles from the crowd and the moment", () => {
  it("a title quotes the crowd's reaction and never the spam, greeting, question or small talk beside it", () => {
    const spam = [
      ...Array.from({ length: 15 }, (_, i) => comment(300 + i, "looper", "LETS GO BOYS")),
      ...Array.from({ length: 6 }, (_, i) => comment(305 + i, `bot${i}`, "buy cheap followers now")),
      ...Array.from({ length: 6 }, (_, i) => comment(306 + i, `raider${i}`, "first time here")),
      ...Array.from({ length: 6 }, (_, i) => comment(307 + i, `asker${i}`, "how long have you been live")),
    ];
    const chat = momentChat(reactionTo([...background(), ...crowd(), ...spam]));
    // Audience moments in a row: the plain templates first, then the crowd's lines.
    const moments = Array.from({ length: 8 }, (_, i) => moment(`m${i}`, 300 + i * 600, { ...chat, signals: AUDIENCE }));
    const out = distinctTitles(job(moments), writeLocalMetadata(job(moments)));
    const quotes = out.moments.flatMap((m) => [...quotedParts(m.title), ...quotedParts(m.story)]);
    expect(quotes.length).toBeGreaterThan(0);
    for (const q of quotes) expect(matchForm(q), q).toMatch(/^(kekw|no way|no way kekw|pogchamp)$/);
  });

  it("what was said in the clip comes before what chat typed, even when chat exploded", () => {
    const chat = momentChat(reactionTo([...background(), ...crowd()]));
    const out = writeLocalMetadata(job([moment("m1", 300, { ...chat, transcript: "the bridge just collapsed", spoken_phrases: ["the bridge just collapsed"], signals: AUDIENCE })]));
    expect(quotedParts(out.moments[0]!.title)).toEqual(["the bridge just collapsed"]);
  });

  it("moments of one kind with the same subject get different templates, not the same one with a time", () => {
    for (const signalsOf of [HYPE, AUDIENCE, STREAMER]) {
      // Nothing said, nothing typed: the kind of event and the game are all each moment offers.
      const input = job([0, 1, 2, 3, 4].map((i) => moment(`m${i}`, 100 + 600 * i, { signals: signalsOf })));
      const titles = distinctTitles(input, writeLocalMetadata(input)).moments.map((m) => m.title);
      expect(titles.filter((t) => / @ \d/.test(t)), titles.join(" / ")).toEqual([]);
      expect(new Set(titles.map((t) => t.replace(/ in Elden Ring$/, ""))).size, titles.join(" / ")).toBe(5);
    }
  });

  it("a generated stream: no title or story of the job quotes a spam, greeting, question or small-talk line", () => {
    const plan = planTimeline(1500, 7, [
      { kind: "hype", peak: 120 }, { kind: "chat_only", peak: 300 }, { kind: "audience_only", peak: 480, chatLag: 20 },
      { kind: "loud_only", peak: 660 }, { kind: "hype", peak: 840 }, { kind: "chat_only", peak: 1020, spamAccounts: 3 },
      { kind: "hype", peak: 1200 }, { kind: "audience_only", peak: 1380 },
    ]);
    const log = generateChatLog({ duration: 1500, seed: 7, moments: plan.moments, createdAt: "2026-01-01T00:00:00Z", baselineRate: 0.5 });
    const comments = log.comments.map((n) => commentFromNode(n)).filter((c): c is ChatComment => c !== null);
    const chatCrowd = new ChatCrowd(comments);
    const kindSignals = { hype: HYPE, chat_only: AUDIENCE, audience_only: AUDIENCE, loud_only: STREAMER, streamer_only: STREAMER, game_noise: STREAMER } as const;
    const moments = plan.moments.map((m) => moment(m.id, m.setup_start, { end: m.end, ...momentChat(chatCrowd.during(m.setup_start, m.end)), signals: kindSignals[m.kind] }));
    const input = job(moments);
    const out = distinctTitles(input, writeLocalMetadata(input));
    const small = new Set([...BASELINE_MESSAGES, ...SPAM_MESSAGES].map(matchForm));
    const quotes = out.moments.flatMap((m) => [...quotedParts(m.title), ...quotedParts(m.story)]);
    expect(quotes.length).toBeGreaterThan(0);
    for (const q of quotes) expect(small.has(matchForm(q)), q).toBe(false);
  });
});
