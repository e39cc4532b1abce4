import { describe, expect, it } from "vitest";
import { extractKeywords, tokenize } from "../../../render-container/src/metadata/keywords";
import { distinctTitles, momentsOnce } from "../../../render-container/src/metadata/distinct-titles";
import { LocalMetadataWriter, writeLocalMetadata } from "../../../render-container/src/metadata/local-writer";
import { parsePronouns } from "../../../render-container/src/metadata/pronouns";
import { hashtags, normalizeTags } from "../../../render-container/src/metadata/tags";
import { limitText } from "../../../render-container/src/metadata/text-limits";
import { LIMITS, MetadataOutput } from "../../../render-container/src/metadata/types";
import { analyticsFigure } from "../../../render-container/src/metadata/answer-checks";
import { sampleInput, signals } from "./sample-input";

describe("keywords", () => {
  it("counts content words and drops stop words, filler and short tokens", () => {
    expect(extractKeywords(["Oh my god, the DRAGON... the dragon is down! We killed the dragon, it's over 9000"], "en", 3)).toEqual([
      "dragon",
      "killed",
    ]);
  });
  it("never makes a tag or topic of the half of a phrase that says nothing on its own", () => {
    // The demo's sample VOD: the streamer shouts "no way" and chat spams "NO WAY"; the reel's tags had "way".
    const moment = { ...sampleInput().moments[0]!, transcript: "no way did you see that", spoken_phrases: ["no way"], top_chat_messages: ["NO WAY", "clip it"], top_emotes: ["LUL"] };
    const out = writeLocalMetadata(sampleInput({ moments: [moment], reels: [{ run_name: "balanced", moment_ids: ["m1"] }], shorts: [{ index: 1, moment_id: "m1" }] }));
    for (const tags of [out.reels[0]!.tags, out.shorts[0]!.tags]) expect(tags.map((t) => t.toLowerCase())).not.toContain("way");
    // The quote stays whole.
    expect(out.moments[0]!.title + out.moments[0]!.story).toMatch(/no way/i);
  });
  it("says in plain words how a balanced reel was picked", () => {
    // It read "picked by her reactions and chat's".
    const intro = writeLocalMetadata(sampleInput()).reels[0]!.description.split("\n")[0]!;
    expect(intro).toBe("3 highlights from NovaPlays's Elden Ring stream \u201CMalenia or bust\u201D, picked by the reactions of NovaPlays and her chat.");
  });
  it("uses the language's stop words", () => {
    expect(extractKeywords(["der Drache ist tot, und der Drache war schwer"], "de", 2)).toEqual(["drache", "tot"]);
    expect(extractKeywords(["el jefe final es muy difícil, el jefe"], "es", 2)).toEqual(["jefe", "final"]);
  });
  it("tokenizes any script and keeps inner apostrophes", () => {
    expect(tokenize("Ça va? C’est l'été — ПРИВЕТ 123")).toEqual(["ça", "va", "c'est", "l'été", "привет", "123"]);
  });
});

describe("tags and limits", () => {
  it("normalizes, de-duplicates and bounds tags", () => {
    const tags = normalizeTags(["#Elden Ring", "elden ring", "a", null, "x".repeat(50), "GG, WP", ...Array.from({ length: 30 }, (_, i) => `tag${i}`)]);
    expect(tags[0]).toBe("Elden Ring");
    expect(tags).not.toContain("elden ring");
    expect(tags).toContain("GG WP");
    expect(tags.every((t) => t.length <= LIMITS.tagLength && t.length >= 2)).toBe(true);
    expect(tags.length).toBeLessThanOrEqual(LIMITS.tagCount);
    expect(tags.join(",").length).toBeLessThanOrEqual(LIMITS.tagsTotal);
  });
  it("makes CamelCase hashtags", () => {
    expect(hashtags(["Elden Ring", "twitch clips", "!!", "GG"], 5)).toBe("#EldenRing #TwitchClips #GG");
  });
  it("cuts long titles at a word with an ellipsis", () => {
    const t = limitText("word ".repeat(40), 30);
    expect([...t].length).toBeLessThanOrEqual(30);
    expect(t.endsWith("\u2026")).toBe(true);
    expect(t).not.toMatch(/\s\u2026$/);
  });
  it("reads pronoun sets", () => {
    expect(parsePronouns("she/her")?.possessive).toBe("her");
    expect(parsePronouns("He/Him")?.object).toBe("him");
    expect(parsePronouns("they/them")?.be).toBe("are");
    expect(parsePronouns("xe/xem")).toBeNull();
  });
});

describe("LocalMetadataWriter", () => {
  it("writes English from keywords, chat reaction, game, streamer, pronouns and links", async () => {
    const out = await new LocalMetadataWriter().write(sampleInput());
    MetadataOutput.parse(out);
    expect(out.language).toBe("en");
    expect(out.warnings).toEqual([]);

    const [m1, m2, m3] = out.moments;
    // "killed" was said once, with nothing backing it up: not a word to build on ("dragon" was said three times).
    // Its story: chat reacting, its emote and phrase, and the one reliable spoken word, in one of the wordings.
    expect(m1!.story).toMatch(/^Chat (lost it|went wild|blew up).*PogChamp and \u201Cdragon down\u201D.* NovaPlays .*\u201Cdragon\u201D\.$/);
    // A hype moment without quotable speech: chat's phrase that echoes what was said.
    expect(m1!.title).toContain("\u201Cdragon down\u201D");
    expect(m2!.story).toMatch(/^(It got loud|Things got loud on stream|The stream got loud) (as NovaPlays talked about|while NovaPlays was talking about|just as NovaPlays brought up) \u201Cboss\u201D\.$/);
    expect(m3!.title).toContain("The secret ending");
    // A manual highlight's story opens on its label, as the streamer named it.
    expect(m3!.story).toMatch(/^The secret ending, (during|in the middle of|while|live on) /);
    for (const m of out.moments) {
      expect(m.story).not.toContain("\n");
      expect(m.title.length).toBeLessThanOrEqual(LIMITS.title);
    }

    const reel = out.reels[0]!;
    expect(reel.run_name).toBe("balanced");
    expect(reel.title).toContain("NovaPlays");
    expect(reel.title).toContain("Elden Ring");
    expect(reel.description).toContain("https://www.twitch.tv/novaplays");
    expect(reel.description).toContain("https://x.com/novaplays");
    expect(reel.description).toMatch(/\bher\b/);
    expect(reel.description).toContain("Malenia or bust");
    for (const m of out.moments) expect(reel.description).toContain(m.title);
    expect(reel.tags).toEqual(expect.arrayContaining(["NovaPlays", "Elden Ring", "dragon", "boss"]));
    for (const stop of ["the", "is", "we", "oh", "god", "with"]) expect(reel.tags).not.toContain(stop);

    expect(out.shorts.map((s) => s.index)).toEqual([1, 2]);
    expect(out.shorts[0]!.title).toBe(m1!.title);
    // What happened, then where it is from (the story does not name the game), then the links and hashtags.
    expect(out.shorts[0]!.description.startsWith(`${m1!.story} Clipped from NovaPlays's Elden Ring stream.\n\nFollow her:\nTwitch: https://www.twitch.tv/novaplays`)).toBe(true);
    expect(out.shorts[0]!.description).toContain("#Shorts");
    expect(out.shorts[0]!.tags).toContain("shorts");
    expect(out.shorts[1]!.tags).toContain("boss");
  });

  it("is deterministic", () => {
    expect(writeLocalMetadata(sampleInput())).toEqual(writeLocalMetadata(sampleInput()));
  });

  it("follows the pronouns, and repeats the name for sets it does not know", () => {
    const he = writeLocalMetadata(sampleInput({ streamer: { ...sampleInput().streamer, pronouns: "he/him" } }));
    expect(he.reels[0]!.description).toMatch(/Follow him:/);
    expect(he.reels[0]!.description).toMatch(/\bhis\b/);
    const they = writeLocalMetadata(sampleInput({ streamer: { ...sampleInput().streamer, pronouns: "they" } }));
    expect(they.reels[0]!.description).toMatch(/Follow them:/);
    const xe = writeLocalMetadata(sampleInput({ streamer: { ...sampleInput().streamer, pronouns: "xe/xem" } }));
    expect(xe.reels[0]!.description).toMatch(/Follow NovaPlays:/);
    expect(xe.reels[0]!.description).not.toMatch(/\b(her|his|their)\b/);
  });

  it("leaves out the link block when there are no links, and copes without game or transcript", () => {
    const bare = sampleInput({
      streamer: { name: null, pronouns: "they", twitch_url: null, twitter_url: null },
      game: null,
      vod_title: null,
      moments: sampleInput().moments.map((m) => ({ ...m, transcript: null, top_chat_messages: [], top_emotes: [], signals: signals({ chat_rate_ratio: null }), label: null })),
    });
    const out = writeLocalMetadata(bare);
    MetadataOutput.parse(out);
    expect(out.reels[0]!.description).not.toMatch(/Follow|Twitch:/);
    const stories = out.moments.map((m) => m.story);
    expect(new Set(stories).size).toBe(3);
    for (const story of stories) expect(story).toMatch(/^(A standout moment|A moment worth a clip|One of the stream's standout moments) (during|in the middle of|live on) Streamer's stream\.$/);
  });

  const EXPECTED: Record<string, { chat: RegExp; follow: RegExp }> = {
    es: { chat: /^El chat .*PogChamp y \u201Cdragon down\u201D.* NovaPlays/, follow: /Sigue a NovaPlays:/ },
    de: { chat: /^(Der Chat|Im Chat) .*PogChamp und \u201Edragon down\u201C.*, (als|während|gerade als) NovaPlays über \u201Edragon\u201C (sprach|redete)\.$/, follow: /Folge NovaPlays:/ },
    fr: { chat: /^Le chat .*PogChamp et \u00AB\s?dragon down\s?\u00BB.* NovaPlays/, follow: /Suivez NovaPlays :/ },
    pt: { chat: /^O chat .*PogChamp e \u201Cdragon down\u201D.* NovaPlays/, follow: /Siga a NovaPlays:/ },
  };
  for (const [language, e] of Object.entries(EXPECTED)) {
    it(`writes ${language}`, () => {
      const out = writeLocalMetadata(sampleInput({ language }));
      MetadataOutput.parse(out);
      expect(out.language).toBe(language);
      expect(out.warnings).toEqual([]);
      expect(out.moments[0]!.story).toMatch(e.chat);
      expect(out.reels[0]!.description).toMatch(e.follow);
      expect(out.reels[0]!.description).toContain("https://www.twitch.tv/novaplays");
      // No English template text leaks into other languages.
      expect(out.reels[0]!.description).not.toMatch(/highlights from|Follow|baseline/);
    });
  }

  it("falls back to English with a warning for other languages", () => {
    const out = writeLocalMetadata(sampleInput({ language: "ja" }));
    expect(out.language).toBe("en");
    expect(out.warnings.join(" ")).toMatch(/"ja".*English/);
    expect(out.moments[0]!.story).toMatch(/^Chat (lost it|went wild|blew up)/);
  });

  it("accepts region subtags", () => {
    expect(writeLocalMetadata(sampleInput({ language: "pt-BR" })).language).toBe("pt");
  });
});

describe("titles within one job", () => {
  const moment = (id: string, start: number, transcript: string, profile: "balanced" | "audience" = "balanced") => ({
    id, start, end: start + 30, profile, transcript, top_chat_messages: [], top_emotes: [],
    signals: signals({ chat_rate_ratio: 6 }), label: null,
  });
  const repetitive = sampleInput({
    moments: [
      moment("a", 100, "good good good that was a clean jump"),
      moment("b", 700, "good good good nice flank there"),
      moment("c", 3725, "good good good"),
      moment("d", 5000, "good good good"),
    ],
    reels: [{ run_name: "balanced", moment_ids: ["a", "b", "c", "d"] }],
    shorts: [{ index: 1, moment_id: "a" }, { index: 2, moment_id: "b" }, { index: 3, moment_id: "c" }, { index: 4, moment_id: "d" }],
  });

  it("the local writer does not build a second title on what the streamer keeps saying, nor on a word said once", () => {
    const titles = writeLocalMetadata(repetitive).shorts.map((s) => s.title);
    expect(titles[0]).toContain("good");
    for (const t of titles.slice(1)) expect(t).not.toMatch(/good|nice|flank|clean|jump/);
    expect(new Set(titles).size).toBe(4);
  });

  it("never repeat after distinctTitles: with nothing new to say, the time in the VOD tells them apart", () => {
    const many = sampleInput({
      ...repetitive,
      moments: Array.from({ length: 10 }, (_, i) => moment(String.fromCharCode(97 + i), 100 + 600 * i, "good good good")),
      reels: [{ run_name: "balanced", moment_ids: ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"] }],
      shorts: ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"].map((id, i) => ({ index: i + 1, moment_id: id })),
    });
    const out = distinctTitles(many, writeLocalMetadata(many));
    const titles = out.shorts.map((s) => s.title);
    expect(new Set(titles).size).toBe(10);
    // Three topic and five plain templates of the kind tell eight apart; the last two need their time.
    expect(titles.filter((t) => / @ \d+:\d\d(:\d\d)?$/.test(t))).toEqual([titles[8], titles[9]]);
    expect(titles[8]).toMatch(/ @ 1:21:40$/);
    expect(titles[9]).toMatch(/ @ 1:31:40$/);
    // Shorts and their moments agree (reel title cards and the manifest show the moment's title).
    expect(out.moments.find((m) => m.id === "i")!.title).toBe(titles[8]);
  });

  it("hold for any writer's output (an LLM repeating itself), and keep one title for a range two profiles share", () => {
    const input = sampleInput({
      moments: [moment("a", 100, "x"), moment("b", 100, "x", "audience"), moment("c", 65, "y")],
      reels: [{ run_name: "balanced", moment_ids: ["a", "c"] }, { run_name: "audience", moment_ids: ["b"] }],
      shorts: [{ index: 1, moment_id: "a" }, { index: 2, moment_id: "c" }],
    });
    const same = { title: "Insane clutch", description: "d", tags: ["t"] };
    const out = distinctTitles(input, {
      language: "en",
      reels: [],
      moments: ["a", "b", "c"].map((id) => ({ id, title: "Insane clutch", story: "s" })),
      shorts: [{ index: 1, ...same }, { index: 2, ...same }],
      warnings: [],
    });
    expect(out.moments.map((m) => m.title)).toEqual(["Insane clutch", "Insane clutch", "Insane clutch @ 1:05"]);
    expect(out.shorts.map((s) => s.title)).toEqual(["Insane clutch", "Insane clutch @ 1:05"]);
  });

  it("list each stretch of the VOD once in metadata.json, however many reels and shorts use it", () => {
    // A short cut from a reel moment and a second profile's pick of the same moment are one moment to a reader.
    const input = sampleInput({
      moments: [moment("a", 100, "x"), moment("b", 65, "y"), moment("c", 100, "x"), moment("d", 100, "x", "audience"), moment("e", 300, "z")],
      reels: [{ run_name: "balanced", moment_ids: ["a", "b"] }, { run_name: "audience", moment_ids: ["d"] }],
      shorts: [{ index: 1, moment_id: "c" }, { index: 2, moment_id: "e" }],
    });
    const out = distinctTitles(input, writeLocalMetadata(input));
    const listed = momentsOnce(input, out.moments);
    expect(listed.map((m) => m.id)).toEqual(["a", "b", "e"]);
    expect(new Set(listed.map((m) => m.title)).size).toBe(3);
    expect(new Set(listed.map((m) => m.story)).size).toBe(3);
  });

  it("stay distinct when titles are at the length limit or moments start in the same second", () => {
    const long = "x".repeat(LIMITS.title);
    const input = sampleInput({
      moments: [moment("a", 100, "a"), moment("b", 100.4, "b"), moment("c", 100.6, "c")],
      reels: [{ run_name: "balanced", moment_ids: ["a", "b", "c"] }],
      shorts: [],
    });
    const out = distinctTitles(input, { language: "en", reels: [], shorts: [], warnings: [], moments: ["a", "b", "c"].map((id) => ({ id, title: long, story: "s" })) });
    const titles = out.moments.map((m) => m.title);
    expect(new Set(titles).size).toBe(3);
    for (const t of titles) expect([...t].length).toBeLessThanOrEqual(LIMITS.title);
    expect(titles[1]).toMatch(/… @ 1:40$/);
    expect(titles[2]).toMatch(/… @ 1:40 \(2\)$/);
  });
});


describe("stories within one job", () => {
  // Five chat explosions with the same signals and nothing said: what the old single wording told apart only by time.
  const alike = (language = "en") =>
    sampleInput({
      language,
      moments: Array.from({ length: 5 }, (_, i) => ({
        id: `m${i}`, start: 100 + 500 * i, end: 130 + 500 * i, profile: "balanced" as const, transcript: null,
        top_chat_messages: [], top_emotes: ["PogChamp"],
        signals: signals({ chat_rate_ratio: 12, loudness_db_above_baseline: 14 }), label: null,
      })),
      reels: [{ run_name: "balanced", moment_ids: ["m0", "m1", "m2", "m3", "m4"] }],
      shorts: [],
    });

  for (const language of ["en", "es", "de", "fr", "pt"]) {
    it(`${language}: moments with the same facts read differently, each telling the facts, before any needs its time`, () => {
      const stories = writeLocalMetadata(alike(language)).moments.map((m) => m.story);
      expect(new Set(stories).size, stories.join("\n")).toBe(5);
      // Three openings by three endings: nine wordings before a time is added.
      for (const s of stories) expect(s, s).not.toMatch(/\(\d+:\d\d\)\.$/);
      // The first three open differently (openings are taken in turn, not only the endings).
      expect(new Set(stories.slice(0, 3).map((s) => s.split(" ").slice(0, 4).join(" "))).size, stories.join("\n")).toBe(3);
      for (const s of stories) {
        expect(s).toContain("PogChamp");
        expect(s).toContain("NovaPlays");
        expect(s).toMatch(/\.$/);
        expect(s).not.toMatch(/ ,|,,|\.\.|\s{2}/);
      }
    });
  }

  for (const language of ["en", "es", "de", "fr", "pt"]) {
    it(`${language}: stories and descriptions tell what happened in words, never the figures it was picked by`, () => {
      // It read "Chat exploded (12x baseline, PogChamp spam) as NovaPlays got loud (+14 dB)."
      const input = alike(language);
      input.shorts = input.moments.map((m, i) => ({ index: i + 1, moment_id: m.id }));
      const out = writeLocalMetadata(input);
      const texts = [...out.moments.map((m) => m.story), ...out.shorts.map((s) => s.description)];
      for (const t of [...texts, ...out.reels.map((r) => r.description)]) expect(analyticsFigure(t), t).toBeNull();
      // No figure at all in what a short says happened (a reel's intro counts its highlights).
      for (const t of texts) expect(t, t).not.toMatch(/\d/);
      // The streamer getting loud is still told, in words.
      if (language === "en") expect(out.moments.map((m) => m.story).some((s) => /(let loose|got loud|reacted out loud)/.test(s))).toBe(true);
    });
  }

  it("tell a moment that was only loud in one sentence about the streamer, not twice (\"It got loud as NovaPlays got loud\")", () => {
    const input = alike();
    input.moments = input.moments.map((m) => ({ ...m, top_emotes: [], signals: signals({ chat_rate_ratio: 1, loudness_db_above_baseline: 14 }) }));
    const stories = writeLocalMetadata(input).moments.map((m) => m.story);
    expect(new Set(stories).size).toBe(5);
    for (const s of stories) {
      expect(s, s).toMatch(/^NovaPlays (let loose|got loud|reacted out loud)\b/);
      expect(s.match(/NovaPlays/g), s).toHaveLength(1);
      expect(s.match(/loud/g)?.length ?? 0, s).toBeLessThanOrEqual(1);
    }
  });

  it("tells the game once in a short's description: where the story does not say it, after the story", () => {
    const input = sampleInput();
    const plain = { ...input.moments[0]!, transcript: null, spoken_phrases: [], top_chat_messages: [], top_emotes: [], signals: signals({ chat_rate_ratio: null, loudness_db_above_baseline: 0 }), label: null };
    const bare = sampleInput({ moments: [plain], reels: [], shorts: [{ index: 1, moment_id: plain.id }] });
    const out = writeLocalMetadata(bare);
    // Its story ends on the stream (and the game): no second line saying where the clip is from.
    expect(out.moments[0]!.story).toMatch(/Elden Ring/);
    expect(out.shorts[0]!.description.match(/Elden Ring/g)?.length ?? 0).toBe(1);
  });

  it("run out of wordings only after nine, then add the time", () => {
    const many = alike();
    many.moments = Array.from({ length: 11 }, (_, i) => ({ ...many.moments[0]!, id: `m${i}`, start: 100 + 500 * i, end: 130 + 500 * i }));
    const stories = writeLocalMetadata(many).moments.map((m) => m.story);
    expect(new Set(stories).size).toBe(11);
    expect(stories.filter((s) => /\(\d+:\d\d(:\d\d)?\)\.$/.test(s))).toHaveLength(2);
  });
});
