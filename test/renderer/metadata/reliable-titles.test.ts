import { describe, expect, it } from "vitest";
import { containsProfanity } from "../../../render-container/src/captions/profanity";
import { trustedWords } from "../../../render-container/src/captions/trusted-words";
import type { Word } from "../../../render-container/src/captions/types";
import { distinctTitles } from "../../../render-container/src/metadata/distinct-titles";
import { judgeLanguage } from "../../../render-container/src/metadata/language-check";
import { writeLocalMetadata } from "../../../render-container/src/metadata/local-writer";
import { momentSpeech } from "../../../render-container/src/metadata/moment-speech";
import { chatQuotes, momentKind, quotableChat, spokenQuotes } from "../../../render-container/src/metadata/reliable-text";
import type { MetadataInput, MetadataMoment } from "../../../render-container/src/metadata/types";
import { TITLE_TEMPLATES } from "../../../render-container/src/metadata/title-templates";
import { sampleInput, signals } from "./sample-input";
import { allTexts, allowedWords, strayWords } from "./vocabulary";

const HYPE = signals({ chat_rate_ratio: 6, loudness_db_above_baseline: 9 });
const AUDIENCE = signals({ chat_rate_ratio: 4, loudness_db_above_baseline: 1 });
const STREAMER = signals({ chat_rate_ratio: 1, loudness_db_above_baseline: 10 });

function moment(id: string, start: number, over: Partial<MetadataMoment>): MetadataMoment {
  return { id, start, end: start + 30, profile: "balanced", transcript: null, spoken_phrases: [], top_chat_messages: [], top_emotes: [], signals: HYPE, label: null, ...over };
}

/** Speech as the pipeline hands it over: the phrases trustedWords kept, and the transcript of their words. */
function speech(...phrases: string[]): Pick<MetadataMoment, "transcript" | "spoken_phrases"> {
  return { transcript: phrases.join(" ") || null, spoken_phrases: phrases };
}

function job(moments: MetadataMoment[], over: Partial<MetadataInput> = {}): MetadataInput {
  return sampleInput({
    moments,
    reels: [{ run_name: "balanced", moment_ids: moments.map((m) => m.id) }],
    shorts: moments.map((m, i) => ({ index: i + 1, moment_id: m.id })),
    ...over,
  });
}

/** A title with its quoted subjects replaced: what the template wrote. */
const skeleton = (title: string) => title.replace(/\u201C[^\u201D]*\u201D|\u201E[^\u201C]*\u201C|\u00AB[^\u00BB]*\u00BB/g, "Q");

const MIXED = job([
  // Shouted, heard confidently as two phrases; "zebra" was heard alone, once: a doubtful word.
  moment("m1", 100, { ...speech("no no no no way", "that was insane", "zebra"), top_chat_messages: ["LETS GOOO", "KEKW KEKW KEKW"], top_emotes: ["KEKW"] }),
  // Chat erupts at something the streamer said in function words only; "walrus" once, alone.
  moment("m2", 700, { ...speech("we did it", "walrus"), top_chat_messages: ["no way", "this is bullshit", "W"], signals: AUDIENCE }),
  // The streamer rants about the boss (said twice: a reliable topic) and one confident phrase.
  moment("m3", 1300, { ...speech("the boss is broken", "the boss keeps hitting me"), signals: STREAMER }),
  // A slur typed in chat, never said.
  moment("m4", 1900, { ...speech("what a shot"), top_chat_messages: ["retards lol", "what a shot"], signals: AUDIENCE }),
  // Swearing said (the pipeline masked it: trustedWords with chat as corroboration) and typed.
  moment("m5", 2500, { ...speech("this is b*******"), top_chat_messages: ["THIS IS BULLSHIT"], signals: STREAMER }),
]);

describe("local titles from reliable text", () => {
  it("classify moments by what happened: chat and streamer together, chat, the streamer", () => {
    expect(momentKind({ profile: "balanced", signals: HYPE })).toBe("hype");
    expect(momentKind({ profile: "balanced", signals: AUDIENCE })).toBe("audience");
    expect(momentKind({ profile: "balanced", signals: signals({ chat_rate_ratio: 1.8, hype_density: 0.5, loudness_db_above_baseline: 0 }) })).toBe("audience");
    expect(momentKind({ profile: "balanced", signals: STREAMER })).toBe("streamer");
    expect(momentKind({ profile: "audience", signals: signals({ chat_rate_ratio: 1, loudness_db_above_baseline: 0 }) })).toBe("audience");
    expect(momentKind({ profile: "balanced", signals: null })).toBe("streamer");
  });

  it("quote chat as typed, without links, commands, mentions or one-word spam", () => {
    expect(quotableChat("KEKW KEKW KEKW KEKW")).toBe("KEKW");
    expect(quotableChat("no no no no no way")).toBe("no no no way");
    expect(quotableChat("@mod look https://x.y/z wow")).toBe("look wow");
    expect(quotableChat("!discord")).toBeNull();
    expect(quotableChat("????????")).toBeNull();
    expect(quotableChat("AAAAAAAAAAAA")).toBeNull();
    expect(quotableChat("this is a very long message that nobody would put in a title at all")).toBeNull();
  });

  it("quote only spoken phrases of two words or more with a content word, cut to six words without a dangling end", () => {
    const m = moment("x", 0, { ...speech("we actually killed the dragon with", "oh my god", "insane"), top_chat_messages: [] });
    expect(spokenQuotes(m, "en", true).map((q) => q.text)).toEqual(["we actually killed the dragon"]);
    // Without phrases (a transcript alone) nothing is quoted.
    expect(spokenQuotes({ ...m, spoken_phrases: undefined }, "en", true)).toEqual([]);
    // Chat echoing a phrase puts it first.
    const echoed = moment("y", 0, { ...speech("that was insane", "the boss is broken"), top_chat_messages: ["broken boss lol"] });
    expect(spokenQuotes(echoed, "en", true)[0]!.text).toBe("the boss is broken");
  });

  it("quote the offline recogniser's speech, and tag its words, only where chat typed them too", () => {
    // What the quick start's VOD gave: "let me check the map real quick" heard, confidently and by both searches,
    // as "come out real quick before"; chat typed something else.
    const misheard = moment("x", 0, { ...speech("come out real quick before", "no way"), top_chat_messages: ["no way", "PogChamp PogChamp"], signals: HYPE, speech_offline: true });
    expect(spokenQuotes(misheard, "en", true).map((q) => q.text)).toEqual(["no way"]);
    const out = writeLocalMetadata(job([misheard]));
    for (const text of allTexts(out)) expect(text, text).not.toMatch(/come out|real quick/);
    expect(out.shorts[0]!.tags).not.toContain("quick");
    // The same speech from a remote Whisper is quoted as it is.
    expect(spokenQuotes({ ...misheard, speech_offline: false }, "en", true).map((q) => q.text)).toContain("come out real quick");
  });

  it("never use profanity nobody said, mask what was said, and never a slur", () => {
    const m2 = MIXED.moments[1]!;
    expect(chatQuotes(m2, "en", true).map((q) => q.text)).toEqual(["no way", "W"]);
    const m5 = MIXED.moments[4]!;
    expect(chatQuotes(m5, "en", true).map((q) => q.text)).toEqual(["THIS IS B*******"]);
    expect(chatQuotes({ ...m5, transcript: "this is bullshit", spoken_phrases: ["this is bullshit"] }, "en", false).map((q) => q.text)).toEqual(["THIS IS BULLSHIT"]);
    expect(chatQuotes(MIXED.moments[3]!, "en", true).map((q) => q.text)).toEqual(["what a shot"]);
  });

  for (const language of ["en", "es", "de", "fr", "pt"]) {
    it(`${language}: titles, stories and tags hold only template words and reliable input, are unique, and carry no profanity`, () => {
      const out = writeLocalMetadata({ ...MIXED, language });
      expect(out.language).toBe(language);
      const allowed = allowedWords(MIXED, language);
      for (const text of allTexts(out)) {
        expect(strayWords(text, allowed, "NovaPlays"), text).toEqual([]);
        expect(text).not.toMatch(/zebra|walrus|retard/i);
        expect(containsProfanity(text), text).toBe(false);
      }
      const titles = out.moments.map((m) => m.title);
      expect(new Set(titles).size, titles.join(" / ")).toBe(titles.length);
      // The said swearing shows masked, the way the transcript had it; never in a tag.
      expect(out.moments[4]!.title + out.moments[4]!.story).toMatch(/b\*\*\*\*\*\*\*/i);
      for (const s of out.shorts) for (const tag of s.tags) expect(tag).not.toMatch(/\*/);
    });
  }

  it("quote what was shouted in a hype moment; title an audience one by its kind before quoting its crowd", () => {
    const out = writeLocalMetadata(MIXED);
    expect(out.moments[0]!.title).toMatch(/\u201C(no no no no way|that was insane)\u201D/);
    expect(out.moments[0]!.story).toMatch(/\bsa(id|ying) \u201C(no no no no way|that was insane)\u201D/);
    // Nothing said to quote: the chat explosion itself, in Elden Ring, is the subject.
    const plain = TITLE_TEMPLATES.en!.moments.audience.plain.map((t) => t("NovaPlays", " in Elden Ring"));
    expect(plain).toContain(out.moments[1]!.title);
    // Once the kind's plain templates are used in the job, the crowd's reaction.
    const six = job([0, 1, 2, 3, 4, 5].map((i) => moment(`a${i}`, 100 + 300 * i, { top_chat_messages: ["no way"], signals: AUDIENCE })));
    const titles = writeLocalMetadata(six).moments.map((m) => m.title);
    expect(titles.slice(0, plain.length).every((t) => plain.includes(t)), titles.join(" / ")).toBe(true);
    expect(titles[plain.length]).toContain("\u201Cno way\u201D");
    // "the boss keeps hitting me" is quoted without its dangling function word.
    expect(out.moments[2]!.title).toMatch(/\u201Cthe boss (is broken|keeps hitting)\u201D/);
    expect(out.moments[2]!.story).toMatch(/boss/);
  });

  it("show swearing as said when the job turns masking off (still never in a tag)", () => {
    const unmasked = job([moment("m5", 2500, { ...speech("this is bullshit"), top_chat_messages: ["THIS IS BULLSHIT"], signals: STREAMER })], { mask_profanity: false });
    const out = writeLocalMetadata(unmasked);
    expect(out.moments[0]!.title).toContain("this is bullshit");
    for (const tag of [...out.shorts[0]!.tags, ...out.reels[0]!.tags]) expect(containsProfanity(tag)).toBe(false);
  });

  for (const language of ["en", "es", "de", "fr", "pt"]) {
    it(`${language}: moments of one kind get different templates, and two jobs start at different ones`, () => {
      const phrases = ["no way", "LETS GO", "what a play", "clutch", "he did it"];
      const input = (seedName: string) =>
        job(phrases.map((p, i) => moment(`m${i}`, 100 + 300 * i, { top_chat_messages: [p] })), { language, streamer: { ...sampleInput().streamer, name: seedName } });
      const titles = writeLocalMetadata(input("NovaPlays")).moments.map((m) => m.title);
      const shapes = new Set(titles.map(skeleton));
      // Hype moments with a chat phrase each: the kind's chat templates in turn (three or four per language).
      expect(shapes.size, titles.join(" / ")).toBeGreaterThanOrEqual(3);
      expect(new Set(titles).size).toBe(titles.length);
      // Deterministic per job.
      expect(writeLocalMetadata(input("NovaPlays")).moments.map((m) => m.title)).toEqual(titles);
      const firstShapes = ["NovaPlays", "Kai", "Mira", "Oslo", "Zed", "Quinn"].map((n) => skeleton(writeLocalMetadata(input(n)).moments[0]!.title.replace(n, "N")));
      expect(new Set(firstShapes).size).toBeGreaterThan(1);
    });
  }

  it("distinctTitles keeps every title of a large job unique, stories too", () => {
    const moments = Array.from({ length: 24 }, (_, i) =>
      moment(`m${i}`, 60 * i, { top_chat_messages: [["no way", "GG", "LUL"][i % 3]!], signals: [HYPE, AUDIENCE, STREAMER][i % 3]! }),
    );
    const input = job(moments);
    const out = distinctTitles(input, writeLocalMetadata(input));
    expect(new Set(out.moments.map((m) => m.title)).size).toBe(24);
    expect(new Set(out.shorts.map((s) => s.title)).size).toBe(24);
    expect(new Set(out.moments.map((m) => m.story)).size).toBe(24);
  });
});

describe("spoken phrases from what captions show", () => {
  const w = (word: string, start: number, confidence: number): Word => ({ word, start, end: start + 0.25, confidence });

  it("trustedWords ends a phrase where a word was left out or at a pause, and momentSpeech hands them over", () => {
    const words = [
      w("that", 1, 0.9), w("was", 1.26, 0.9), w("insane", 1.52, 0.9),
      // Doubtful: left out, and the words around it are not one phrase (at 0.2 its neighbours stay; below 0.15 they
      // would go too, as the border of a misheard stretch).
      w("liberal", 1.78, 0.2),
      w("the", 2.04, 0.9), w("boss", 2.3, 0.9), w("is", 2.56, 0.9), w("down", 2.82, 0.9),
      // A pause.
      w("good", 4, 0.9), w("game", 4.26, 0.9),
    ];
    const t = trustedWords(words);
    expect(t.phrases.map((p) => p.map((x) => x.word).join(" "))).toEqual(["that was insane", "the boss is down", "good game"]);
    expect(momentSpeech(t)).toEqual({ transcript: "that was insane the boss is down good game", spoken_phrases: ["that was insane", "the boss is down", "good game"] });
    expect(momentSpeech(t, { start: 2, end: 3.2 })).toEqual({ transcript: "the boss is down", spoken_phrases: ["the boss is down"] });
    expect(momentSpeech(t, { start: 10, end: 20 })).toEqual({ transcript: null, spoken_phrases: [] });
  });

  it("a held-back swear word splits the phrase too", () => {
    const words = [w("oh", 0, 0.95), w("shit", 0.26, 0.95), w("he", 0.52, 0.95), w("died", 0.78, 0.95)];
    expect(trustedWords(words).phrases.map((p) => p.map((x) => x.word))).toEqual([["oh"], ["he", "died"]]);
  });
});

describe("judgeLanguage", () => {
  it("tells a text in another language, leaving quotes and names out of it", () => {
    expect(judgeLanguage("NovaPlays has chat losing it over the boss and it is wild", "de")).toEqual({ plausible: false, looksLike: "English" });
    expect(judgeLanguage("Der Chat rastet aus, als NovaPlays über den Boss spricht", "de").plausible).toBe(true);
    // An English quote inside a German title is still German.
    expect(judgeLanguage("NovaPlays schreit \u201Eit is what it is and that was the end\u201C", "de").plausible).toBe(true);
    expect(judgeLanguage("El chat explota cuando NovaPlays dice que el jefe es muy difícil", "es").plausible).toBe(true);
    expect(judgeLanguage("Le chat de NovaPlays ne parle que de ça, il est vraiment dans son élément avec nous", "es")).toEqual({ plausible: false, looksLike: "French" });
    // Close languages share function words: a short French line is not told from Spanish (no false alarm either).
    expect(judgeLanguage("Le chat explose quand NovaPlays dit que le boss est trop dur", "es").plausible).toBe(true);
    expect(judgeLanguage("The best moments of the stream are all in this video", "ja")).toEqual({ plausible: false, looksLike: "another script" });
    expect(judgeLanguage("配信のベストシーンをまとめました", "ja").plausible).toBe(true);
    // Too short to judge.
    expect(judgeLanguage("GG", "fr").plausible).toBe(true);
    // Italian has no word list: only an answer in English is caught.
    expect(judgeLanguage("La chat impazzisce quando NovaPlays dice che il boss è rotto", "it").plausible).toBe(true);
    expect(judgeLanguage("The chat goes wild when NovaPlays says that the boss is broken", "it").plausible).toBe(false);
  });
});
