import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_SPEECH_WORDS, type ShortSpeech } from "../../../common/contract/job-plan";
import { PocketsphinxTranscriber, trustedWords, wordsToCues, type Word } from "../../../render-container/src/captions";
import { silentLogger } from "../../../render-container/src/log";
import { joinTranscribed, plannedSpeech, recutShortRange, withoutRange } from "../../../render-container/src/pipeline/reuse/recut-captions";
import type { RenderPlan } from "../../../render-container/src/pipeline/render-plan";
import { plannedCovers, shortWords, wordsInRange } from "../../../render-container/src/pipeline/tasks/short-speech";
import type { RenderTaskRun } from "../../../render-container/src/pipeline/tasks/task-source";
import type { Moment } from "../../../render-container/src/selection/types";

/**
 * A re-cut's one short heard once (issue 21, point 2): which short the analysis transcribes whole, what the plan
 * carries to it, and how the short task turns those words into its captions by the same rules. The whole path on
 * a real VOD (real recogniser, the comparison with a short transcribing itself) is analysis-reuse.test.ts.
 */
const moment = (source: Moment["source"], start: number, end: number): Moment => ({ start, end, peak: start + 5, score: 1, profile: "balanced", source, label: null, signals: {} as Moment["signals"] });
const plan = (shorts: Moment[], reels = 0): Pick<RenderPlan, "reels" | "shorts"> => ({
  reels: Array.from({ length: reels }, () => ({ profile: "balanced", moments: [moment("auto", 0, 10)], coldOpen: [] })) as RenderPlan["reels"],
  shorts: shorts.map((m, i) => ({ index: i + 1, moment: m })),
});
const word = (w: string, start: number, end: number, confidence = 0.95, crossChecked = true): Word => ({ word: w, start, end, confidence, crossChecked });

describe("which short a re-cut's analysis hears whole", () => {
  it("the one short of fixed bounds of a job that renders nothing else", () => {
    expect(recutShortRange(plan([moment("manual", 100, 130)]))).toEqual({ index: 1, range: { start: 100, end: 130 } });
  });
  it("not an automatic short (its task may move its start to a scene cut), nor a job of several outputs", () => {
    expect(recutShortRange(plan([moment("auto", 100, 130)]))).toBeNull();
    expect(recutShortRange(plan([moment("manual", 100, 130), moment("manual", 200, 230)]))).toBeNull();
    expect(recutShortRange(plan([moment("manual", 100, 130)], 1))).toBeNull();
    expect(recutShortRange(plan([]))).toBeNull();
  });
});

describe("the stored words around a range heard again", () => {
  const stored = { words: [word("before", 90, 91), word("edge", 99.5, 100.5), word("inside", 110, 111), word("after", 131, 132)], covered: [{ start: 85, end: 115 }, { start: 128, end: 140 }], warnings: [] };
  it("drops the stored words and coverage inside it, keeps the rest", () => {
    const left = withoutRange(stored, { start: 100, end: 130 })!;
    expect(left.words.map((w) => w.word)).toEqual(["before", "after"]);
    expect(left.covered).toEqual([{ start: 85, end: 100 }, { start: 130, end: 140 }]);
    expect(withoutRange(undefined, { start: 0, end: 1 })).toBeUndefined();
  });
  it("joined with the new pass, the story windows inside the short are covered already", () => {
    const heard = { words: [word("new", 101, 102)], covered: [{ start: 100, end: 130 }], warnings: [] };
    const joined = joinTranscribed(withoutRange(stored, { start: 100, end: 130 }), heard);
    expect(joined.words.map((w) => w.word)).toEqual(["before", "after", "new"]);
    expect(joined.covered).toContainEqual({ start: 100, end: 130 });
  });
});

describe("what the plan carries to the short", () => {
  const range = { start: 100, end: 130 };
  it("the words heard inside the range, in order, with their confidences and cross-checks", () => {
    const heard = { words: [word("b", 120, 120.4, 0.7, false), word("a", 101, 101.3), word("outside", 131, 131.5)], covered: [range], warnings: [] };
    const s = plannedSpeech(heard, range, "pocketsphinx")!;
    expect(s).toMatchObject({ recogniser: "pocketsphinx", start: 100, end: 130 });
    expect(s.words).toEqual([
      { word: "a", start: 101, end: 101.3, confidence: 0.95, crossChecked: true },
      { word: "b", start: 120, end: 120.4, confidence: 0.7, crossChecked: false },
    ]);
  });
  it("nothing when the pass warned (a recogniser that failed or fell back) or the words would not fit the plan", () => {
    expect(plannedSpeech({ words: [word("a", 101, 102)], covered: [range], warnings: ["Captions for 100-130 s: whisper failed"] }, range, "workers-ai")).toBeNull();
    const many = Array.from({ length: MAX_SPEECH_WORDS + 1 }, (_, i) => word("w", 100 + i * 0.04, 100 + i * 0.04 + 0.03));
    expect(plannedSpeech({ words: many, covered: [range], warnings: [] }, range, "pocketsphinx")).toBeNull();
  });
});

describe("the short task's captions from the plan's words", () => {
  const speech: ShortSpeech = { recogniser: "pocketsphinx", start: 100, end: 130, words: [word("so", 99.9, 100.2), word("that", 100.3, 100.6), word("was", 100.7, 101), word("a", 101.05, 101.1), word("huge", 101.2, 101.6), word("play", 101.7, 102.1), word("tail", 129.8, 130.4)] };
  it("serve a short of the recogniser that heard them, inside their range", () => {
    const sphinx = { name: "pocketsphinx" };
    expect(plannedCovers(speech, sphinx, { start: 100, end: 130 })).toBe(true);
    expect(plannedCovers(speech, sphinx, { start: 100.04, end: 129 })).toBe(true);
    expect(plannedCovers(speech, { name: "workers-ai" }, { start: 100, end: 130 })).toBe(false);
    expect(plannedCovers(speech, sphinx, { start: 98.5, end: 128.5 })).toBe(false);
    expect(plannedCovers(speech, sphinx, { start: 101, end: 131 })).toBe(false);
  });
  it("are moved onto the short's clock as a transcription of the range places them", () => {
    const inRange = wordsInRange(speech.words, { start: 100, end: 130 });
    // "so" starts before the range (a transcription of the range would not have it); "tail" ends at the range's end.
    expect(inRange.map((w) => w.word)).toEqual(["that", "was", "a", "huge", "play", "tail"]);
    expect(inRange[0]).toMatchObject({ start: expect.closeTo(0.3, 6), end: expect.closeTo(0.6, 6) });
    expect(inRange.at(-1)).toMatchObject({ start: expect.closeTo(29.8, 6), end: 30 });
  });
  it("make the captions by the same rules, without running the recogniser", async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), "recut-captions-"));
    const run = {
      plan: { captions: { language: "en", burn: true } },
      req: { request: { parameters: { mask_profanity: true } } },
      ctx: { signal: new AbortController().signal, workDir: work, log: silentLogger },
    } as unknown as RenderTaskRun;
    // The clip does not exist: had the task transcribed, the wav could not have been cut and it would say so.
    const clip = { path: path.join(work, "missing.ts"), media_start_seconds: 90, media_end_seconds: 140, bytes: 0, muted_ranges: [] };
    const got = await shortWords(run, new PocketsphinxTranscriber(), { clip, range: { start: 100, end: 130 }, chatProfanity: [], planned: speech }, () => {});
    expect(got.from).toBe("plan");
    expect(got.warning).toBeNull();
    const expected = trustedWords(wordsInRange(speech.words, { start: 100, end: 130 }), { maskProfanity: true, corroboration: [], language: "en" });
    expect(got.heard.map((w) => w.word)).toEqual(["that", "was", "a", "huge", "play", "tail"]);
    expect(got.shown).toEqual(expected.words);
    expect(got.shown.length).toBeGreaterThan(0);
    // "tail" (29.8-30) is held for no more than the short lasts.
    expect(got.cues).toEqual(wordsToCues(expected.words, { duration: 30 }));
    expect(got.cues.at(-1)!.end).toBeLessThanOrEqual(30);
    // Another recogniser's words are not used: the task transcribes (here: fails on the missing clip, and says so).
    const own = await shortWords(run, new PocketsphinxTranscriber(), { clip, range: { start: 100, end: 130 }, chatProfanity: [], planned: { ...speech, recogniser: "workers-ai" } }, () => {});
    expect(own.from).toBe("transcribed");
    expect(own.warning).toMatch(/could not be produced/);
  });
});
