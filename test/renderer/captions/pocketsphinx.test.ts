import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captionRange } from "../../../render-container/src/captions/caption-range";
import { createTranscriber, planCaptions } from "../../../render-container/src/captions/create-transcriber";
import { extractWav } from "../../../render-container/src/captions/extract-wav";
import { CROSS_CHECK_DELAYS, crossCheckWords, PocketsphinxTranscriber, parsePocketsphinxOutput } from "../../../render-container/src/captions/pocketsphinx";
import { parseSrt } from "../../../render-container/src/captions/srt";
import { delayedWavFile, parsePcmWav } from "../../../render-container/src/captions/wav-chunks";
import { heardLanguage, UnsupportedLanguageError } from "../../../render-container/src/captions/transcriber";
import { FallbackTranscriber } from "../../../render-container/src/captions/fallback-transcriber";
import { probeMedia } from "../../../render-container/src/ffmpeg/probe";
import { makeSourceClip, type TestClip } from "../../support/media";

const SENTENCES = [
  { at: 2, text: "hello everyone and welcome back to the stream" },
  { at: 7, text: "today we are playing a new game" },
  { at: 12, text: "this boss fight is really hard" },
  { at: 17, text: "thank you for watching and see you tomorrow" },
];
const SPOKEN = new Set(SENTENCES.flatMap((s) => s.text.split(" ")));
const CONTENT_WORDS = ["hello", "everyone", "welcome", "stream", "today", "playing", "game", "boss", "fight", "really", "hard", "thank", "watching", "tomorrow"];

let clip: TestClip;
let dir: string;

beforeAll(async () => {
  clip = await makeSourceClip({ durationSeconds: 22, width: 320, height: 180, mediaStartSeconds: 500, speech: SENTENCES });
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "captions-test-"));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("parsePocketsphinxOutput", () => {
  it("keeps words with times, drops markers and fillers, strips pronunciation variants", () => {
    const out = [
      "we are going to",
      "<s> 1.880 1.980 0.999700",
      "we 1.990 2.140 0.306286",
      "<sil> 2.580 2.650 0.973942",
      "[NOISE] 2.650 2.700 1.0",
      "++UH++ 2.700 2.750 1.0",
      "the(2) 2.760 3.240 0.997104",
      "</s> 3.850 4.290 1.000000",
    ].join("\n");
    expect(parsePocketsphinxOutput(out)).toEqual([
      { word: "we", start: 1.99, end: 2.14, confidence: 0.306286 },
      { word: "the", start: 2.76, end: 3.24, confidence: 0.997104 },
    ]);
  });
});

describe("crossCheckWords", () => {
  const w = (word: string, start: number, end = start + 0.3) => ({ word, start, end, confidence: 0.9 });

  it("marks a word heard by the second search as the same word with its middle within 0.25 s", () => {
    const accurate = [w("please", 1), w("be", 1.32), w("likely", 1.6, 2.1), w("to", 2.12)];
    const fast = [w("Please", 1.1), w("be", 1.6), w("nice", 1.62), w("to", 2.3)];
    expect(crossCheckWords(accurate, [fast]).map((x) => [x.word, x.crossChecked])).toEqual([
      ["please", true], // 0.1 s apart, case does not matter
      ["be", false], // the same word 0.28 s later is another place
      ["likely", false], // a different word at that time
      ["to", true], // 0.18 s apart
    ]);
    // The words themselves are unchanged.
    expect(crossCheckWords(accurate, [fast]).map(({ crossChecked: _, ...rest }) => rest)).toEqual(accurate);
    expect(crossCheckWords(accurate, [[]]).every((x) => x.crossChecked === false)).toBe(true);
  });

  it("needs every check to have heard the word", () => {
    const accurate = [w("please", 1), w("be", 1.32), w("nice", 1.6)];
    const one = [w("please", 1), w("be", 1.3), w("nice", 1.6)];
    const other = [w("please", 1.05), w("bee", 1.3), w("nice", 1.7)];
    expect(crossCheckWords(accurate, [one, other]).map((x) => x.crossChecked)).toEqual([true, false, true]);
  });
});

describe("delayed decoding", () => {
  it("prepends whole samples of silence and keeps the format", async () => {
    const wav = await extractWav(clip, 501, 503, path.join(dir, "two.wav"));
    const file = new Uint8Array(await fs.readFile(wav.path));
    const original = parsePcmWav(file);
    const delayed = parsePcmWav(delayedWavFile(file, 0.015));
    expect({ ...delayed, data: null }).toEqual({ ...original, data: null });
    // 15 ms at 16 kHz: 240 samples of 2 bytes, all zero, then the original samples unchanged.
    expect(delayed.data.byteLength - original.data.byteLength).toBe(480);
    expect(delayed.data.subarray(0, 480).every((b) => b === 0)).toBe(true);
    expect(Buffer.from(delayed.data.subarray(480)).equals(Buffer.from(original.data))).toBe(true);
  });

  it("puts the words of a delayed search back on the wav's clock", async () => {
    const wav = await extractWav(clip, 501, 521, path.join(dir, "clock.wav"));
    const shifted = await new PocketsphinxTranscriber({ search: "accurate", crossCheck: false, delaySeconds: 1.5 }).transcribe(wav.path, { language: "en" });
    const plain = await new PocketsphinxTranscriber({ search: "accurate", crossCheck: false }).transcribe(wav.path, { language: "en" });
    // The same words come out at the same times (within a frame or two), not 1.5 s later.
    const nearest = (p: (typeof plain)[number]) => Math.min(...shifted.filter((s) => s.word === p.word).map((s) => Math.abs(s.start - p.start)));
    const pairs = plain.map(nearest).filter((d) => d < 2);
    expect(pairs.length, JSON.stringify({ plain, shifted })).toBeGreaterThanOrEqual(8);
    for (const d of pairs) expect(Math.abs(d)).toBeLessThan(0.1);
  });
});

describe("extractWav", () => {
  it("writes 16 kHz mono wav of exactly the requested range", async () => {
    const wav = await extractWav(clip, 503, 511.5, path.join(dir, "range.wav"));
    const info = await probeMedia(wav.path);
    expect(info.audio?.codecName).toBe("pcm_s16le");
    expect(info.audio?.sampleRate).toBe(16000);
    expect(info.audio?.channels).toBe(1);
    expect(info.durationSeconds).toBeCloseTo(8.5, 1);
    expect(wav.duration_seconds).toBeCloseTo(8.5, 3);
  });
});

describe("PocketsphinxTranscriber", () => {
  it("turns espeak-ng speech into an .srt with many of the spoken words at the right times", async () => {
    const t = new PocketsphinxTranscriber();
    // The short starts at VOD 501 s, i.e. 1 s into the clip: cue times are relative to that.
    const res = await captionRange(t, clip, 501, 521, { language: "en", workDir: dir });
    const cues = parseSrt(res.srt);
    expect(cues.length).toBeGreaterThanOrEqual(1);
    // pocketsphinx misses ~30-50 % of synthetic speech; most of what it outputs must still be spoken words.
    const recognised = res.words.map((w) => w.word.toLowerCase());
    const hits = CONTENT_WORDS.filter((w) => recognised.includes(w));
    expect(hits.length, `recognised: ${recognised.join(" ")}`).toBeGreaterThanOrEqual(4);
    const spokenShare = recognised.filter((w) => SPOKEN.has(w)).length / recognised.length;
    expect(spokenShare).toBeGreaterThan(0.4);
    // What the .srt shows is only the words it was sure of: a larger share of them was really said.
    const shown = cues.flatMap((c) => c.text.toLowerCase().split(/\s+/));
    expect(shown.filter((w) => SPOKEN.has(w)).length / shown.length, `shown: ${shown.join(" ")}`).toBeGreaterThanOrEqual(spokenShare);

    // Word times: relative to the short, inside it, and the first words come ~1 s in (sentence at 2 s - 1 s).
    expect(res.words[0]!.start).toBeGreaterThan(0.6);
    expect(res.words[0]!.start).toBeLessThan(1.6);
    for (const c of cues) {
      expect(c.start).toBeGreaterThanOrEqual(0);
      expect(c.end).toBeLessThanOrEqual(20.01);
    }
    // Nothing is said between the sentences' ends and the next start, e.g. 14.5..16 s in the clip.
    for (const wd of res.words) expect(wd.start < 13.6 || wd.start > 15.3).toBe(true);
    expect(res.text.split(" ").length).toBe(res.shownWords.length);
  });

  it("cross-checks the accurate search with the fast one over the audio delayed 5 and 15 ms by default, and can leave it out", async () => {
    const wav = await extractWav(clip, 501, 521, path.join(dir, "cross.wav"));
    const checked = await new PocketsphinxTranscriber().transcribe(wav.path, { language: "en" });
    const alone = await new PocketsphinxTranscriber({ crossCheck: false }).transcribe(wav.path, { language: "en" });
    const delayed = await Promise.all(CROSS_CHECK_DELAYS.map((d) => new PocketsphinxTranscriber({ search: "fast", delaySeconds: d }).transcribe(wav.path, { language: "en" })));
    // The accurate search's words, each marked; without the check, the same words with no mark.
    expect(checked.map(({ crossChecked: _, ...rest }) => rest)).toEqual(alone);
    expect(alone.every((x) => x.crossChecked === undefined)).toBe(true);
    expect(delayed.flat().every((x) => x.crossChecked === undefined)).toBe(true);
    expect(checked).toEqual(crossCheckWords(alone, delayed));
    // The delayed copies are removed.
    expect((await fs.readdir(dir)).filter((f) => f.includes("delay"))).toEqual([]);
    // Words both searches heard were said far more often than words only the accurate search heard.
    const spokenShare = (ws: typeof checked) => ws.filter((x) => SPOKEN.has(x.word)).length / Math.max(1, ws.length);
    const agreed = checked.filter((x) => x.crossChecked);
    const disputed = checked.filter((x) => !x.crossChecked);
    expect(agreed.length, JSON.stringify(checked)).toBeGreaterThanOrEqual(4);
    expect(disputed.length, JSON.stringify(checked)).toBeGreaterThanOrEqual(1);
    expect(spokenShare(agreed), JSON.stringify(checked)).toBeGreaterThan(spokenShare(disputed) + 0.2);
  });

  it("refuses languages it has no model for", async () => {
    const t = new PocketsphinxTranscriber();
    expect(t.supportsLanguage("en")).toBe(true);
    expect(t.supportsLanguage("en-GB")).toBe(true);
    expect(t.supportsLanguage(null)).toBe(true);
    expect(t.supportsLanguage("de")).toBe(false);
    await expect(t.transcribe(path.join(dir, "range.wav"), { language: "de" })).rejects.toBeInstanceOf(UnsupportedLanguageError);
  });
});

describe("createTranscriber / planCaptions", () => {
  it("takes what the offline recogniser heard as English when the stream's language is unknown, and only then", () => {
    expect(heardLanguage(new PocketsphinxTranscriber(), null)).toBe("en");
    expect(heardLanguage(new PocketsphinxTranscriber(), "en-GB")).toBe("en-GB");
    expect(heardLanguage({ local: false }, null)).toBeNull();
    expect(heardLanguage({ local: false }, "de")).toBe("de");
  });

  it("uses the API when configured (backed by pocketsphinx), pocketsphinx otherwise", () => {
    expect(createTranscriber({})).toBeInstanceOf(PocketsphinxTranscriber);
    // Captions' default: the accurate search, cross-checked by the fast one; each can be turned off.
    expect(createTranscriber({})).toMatchObject({ search: "accurate", crossCheck: true });
    expect(createTranscriber({ POCKETSPHINX_CROSS_CHECK: "0" })).toMatchObject({ search: "accurate", crossCheck: false });
    expect(createTranscriber({ POCKETSPHINX_FAST: "1" })).toMatchObject({ search: "fast", crossCheck: false });
    expect(createTranscriber({ TRANSCRIBE_API_URL: "http://127.0.0.1:9/v1", TRANSCRIBE_API_KEY: "k" })).toBeInstanceOf(FallbackTranscriber);
  });

  it("drops captions with a warning for non-English speech without an API", () => {
    const offline = createTranscriber({});
    expect(planCaptions(offline, "en", true)).toEqual({ transcribe: true, burn: true, warning: null });
    expect(planCaptions(offline, "en", false)).toEqual({ transcribe: true, burn: false, warning: null });
    const de = planCaptions(offline, "de", true);
    expect(de.transcribe).toBe(false);
    expect(de.burn).toBe(false);
    expect(de.warning).toMatch(/English/);
    const api = createTranscriber({ TRANSCRIBE_API_URL: "http://127.0.0.1:9/v1" });
    expect(planCaptions(api, "de", true)).toEqual({ transcribe: true, burn: true, warning: null });
  });
});
