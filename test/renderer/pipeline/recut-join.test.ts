import { describe, expect, it } from "vitest";
import type { HeardWords } from "../../../common/contract/heard-words";
import { CONTEXT_S, cutPoints, EDGE_MARGIN_S, edgeWords, planRecutJoin } from "../../../render-container/src/pipeline/reuse/recut-join";
import { HALVES_MIN_S, halvesAtPause, hearsInHalves, ownWords } from "../../../render-container/src/pipeline/reuse/hear-in-halves";
import { withKept } from "../../../render-container/src/pipeline/reuse/recut-captions";

/**
 * Where a re-cut takes an earlier short's words and where it hears again (reuse/recut-join.ts): the edges outside
 * the earlier short are heard, cut at a pause inside it that no earlier word reaches into, at least EDGE_MARGIN_S
 * inside its own cut.
 */
const word = (w: string, start: number, end: number) => ({ word: w, start, end, confidence: 0.9, crossChecked: true });
// Sentences at 100-103.5, 104.5-108 and 109-115 s of the VOD; the earlier short was 100-130 s.
const earlier: HeardWords = {
  version: 1,
  vod_id: "1",
  language: "en",
  recogniser: "pocketsphinx",
  start: 100,
  end: 130,
  words: [word("one", 100.2, 100.6), word("two", 100.7, 103.4), word("three", 104.6, 105.2), word("four", 105.3, 107.9), word("five", 109.1, 110), word("six", 110.1, 114.8), word("seven", 120.5, 121), word("eight", 126, 127.6), word("nine", 127.8, 129.7)],
};
// The analysis' pauses between sentences (one of them, 114.9-120.4, long; 127.62-127.88 too short to hold a cut clear of its words).
const pauses = [
  { start: 103.5, end: 104.5 },
  { start: 108, end: 109 },
  { start: 114.9, end: 120.4 },
  { start: 121.1, end: 125.9 },
  { start: 127.62, end: 127.88 },
];

describe("a re-cut's words joined with an earlier short's", () => {
  it("keeps every earlier word of a range inside the earlier short and hears nothing", () => {
    const join = planRecutJoin([earlier], { start: 104, end: 122 }, pauses);
    expect(join?.hear).toEqual([]);
    expect(join?.kept.map((w) => w.word)).toEqual(["three", "four", "five", "six", "seven"]);
    expect(join?.keptRange).toEqual({ start: 104, end: 122 });
  });

  it("hears a moved start up to the first pause past the margin, and keeps the words from there", () => {
    const join = planRecutJoin([earlier], { start: 96, end: 128 }, pauses);
    // The pause at 103.5-104.5: its middle, 104, is the first cut point EDGE_MARGIN_S inside the earlier short.
    // It is heard with CONTEXT_S of the shared part after it; only the words starting before the cut are used.
    expect(join?.hear).toEqual([{ range: { start: 96, end: 104 + CONTEXT_S }, take: { start: 96, end: 104 } }]);
    expect(join?.kept.map((w) => w.word)).toEqual(["three", "four", "five", "six", "seven", "eight", "nine"]);
    expect(join!.hear[0]!.take.end).toBeGreaterThanOrEqual(earlier.start + EDGE_MARGIN_S);
    const heard = [word("hello", 96.5, 97), word("there", 103, 103.9), word("three", 104.6, 105.2), word("fore", 105.3, 106)];
    expect(edgeWords(join!, heard).map((w) => w.word)).toEqual(["hello", "there"]);
  });

  it("hears a moved end from the last pause before the margin", () => {
    const join = planRecutJoin([earlier], { start: 105, end: 134 }, pauses);
    // 127.75 (the last pause) lies within 0.1 s of "nine": no cut there; 123.5 is the last clear one.
    expect(join?.hear).toEqual([{ range: { start: 123.5 - CONTEXT_S, end: 134 }, take: { start: 123.5, end: 134.05 } }]);
    // A word starting up to 0.05 s past the range's end belongs to it (as a short's own transcription places it).
    expect(edgeWords(join!, [word("six", 120.5, 121), word("ten", 124, 125), word("last", 134.03, 134.5), word("after", 134.2, 134.9)]).map((w) => w.word)).toEqual(["ten", "last"]);
    expect(join?.kept.map((w) => w.word)).toEqual(["four", "five", "six", "seven"]);
  });

  it("hears both edges of a range longer on both sides", () => {
    const join = planRecutJoin([earlier], { start: 95, end: 135 }, pauses);
    expect(join?.hear.map((h) => h.take)).toEqual([
      { start: 95, end: 104 },
      { start: 123.5, end: 135.05 },
    ]);
  });

  it("a pause a word reaches into is no cut point; without pauses, long gaps between words are", () => {
    expect(cutPoints(earlier.words, earlier, [{ start: 110, end: 111 }])).toEqual([]);
    expect(cutPoints(earlier.words, earlier, undefined)).toEqual([104, 108.5, 117.65, 123.5]);
  });

  it("hears the range whole when too little is shared or no cut point is left", () => {
    expect(planRecutJoin([earlier], { start: 128, end: 158 }, pauses)).toBeNull();
    expect(planRecutJoin([earlier], { start: 90, end: 140 }, [])).toBeNull();
    expect(planRecutJoin([], { start: 100, end: 130 }, pauses)).toBeNull();
  });

  it("takes, of several earlier shorts, the one that leaves the least to hear", () => {
    const later: HeardWords = { ...earlier, start: 96, end: 126, words: [word("zero", 97, 99), ...earlier.words.filter((w) => w.end < 126)] };
    const join = planRecutJoin([earlier, later], { start: 96, end: 122 }, pauses);
    expect(join?.earlier).toEqual({ start: 96, end: 126 });
    expect(join?.hear).toEqual([]);
    expect(join?.kept[0]?.word).toBe("zero");
  });
});

describe("a re-cut's short heard in halves side by side (reuse/hear-in-halves.ts)", () => {
  it("cuts at the pause nearest the middle, within the middle third; each half heard with the other's context, its words only its own", () => {
    // 100-130 s: pauses at 108.5 (first third), 117.65 (mid 115: nearest) and 123.5 (last third).
    const halves = halvesAtPause({ start: 100, end: 130 }, pauses)!;
    expect(halves.kept).toEqual([]);
    expect(halves.hear).toEqual([
      { range: { start: 100, end: 117.65 + CONTEXT_S }, take: { start: 100, end: 117.65 } },
      { range: { start: 117.65 - CONTEXT_S, end: 130 }, take: { start: 117.65, end: 130.05 } },
    ]);
    // Each half keeps the words of its own part: "b" at 116, heard in both (the second half's context), is kept once,
    // from the first half; "d" just past the end still belongs to the range.
    const first = [word("a", 100, 100.4), word("b", 116, 116.5), word("c", 118, 118.6)];
    const second = [word("b", 116.01, 116.5), word("c", 118, 118.6), word("d", 130.02, 130.3)];
    expect(ownWords(halves.hear[0]!, first).map((w) => w.word)).toEqual(["a", "b"]);
    expect(ownWords(halves.hear[1]!, second).map((w) => w.word)).toEqual(["c", "d"]);
    expect(withKept(halves, { start: 100, end: 130 }, { words: [word("x", 105, 106), word("y", 118, 118.4)], covered: [], warnings: [] })).toMatchObject({ words: [{ word: "x" }, { word: "y" }], covered: [{ start: 100, end: 130 }] });
  });

  it("hears in one piece a range shorter than HALVES_MIN_S, or one without a pause in its middle third", () => {
    expect(halvesAtPause({ start: 100, end: 100 + HALVES_MIN_S - 1 }, pauses)).toBeNull();
    expect(halvesAtPause({ start: 100, end: 130 }, [{ start: 101, end: 102 }, { start: 127, end: 128 }])).toBeNull();
    expect(halvesAtPause({ start: 100, end: 130 }, undefined)).toBeNull();
  });

  it("only where the instance says so (the re-cut class sets RECUT_HEAR_IN_HALVES=1)", () => {
    expect(hearsInHalves({ RECUT_HEAR_IN_HALVES: "1" })).toBe(true);
    expect(hearsInHalves({})).toBe(false);
    expect(hearsInHalves({ RECUT_HEAR_IN_HALVES: "0" })).toBe(false);
  });
});
