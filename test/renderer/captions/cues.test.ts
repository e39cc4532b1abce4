import { describe, expect, it } from "vitest";
import { buildAssScript, escapeAssText } from "../../../render-container/src/captions/ass";
import { clipCues, wordsToCues } from "../../../render-container/src/captions/cues";
import { formatSrt, formatSrtTime, parseSrt } from "../../../render-container/src/captions/srt";
import type { Word } from "../../../render-container/src/captions/types";

const w = (word: string, start: number, end: number): Word => ({ word, start, end });

describe("wordsToCues", () => {
  it("breaks on length, duration and pauses, and keeps word order", () => {
    const words = [
      w("hello", 0.0, 0.3), w("everyone", 0.35, 0.8), w("and", 0.85, 1.0), w("welcome", 1.05, 1.5),
      w("back", 1.55, 1.8), w("to", 1.85, 1.95), w("the", 2.0, 2.1), w("stream", 2.15, 2.6),
      // a 2 s pause
      w("today", 4.6, 5.0), w("we", 5.05, 5.2), w("play", 5.25, 5.5),
    ];
    const cues = wordsToCues(words, { maxChars: 20, maxDuration: 3, maxGap: 0.8 });
    expect(cues.map((c) => c.text)).toEqual(["hello everyone and", "welcome back to the", "stream", "today we play"]);
    for (const c of cues) {
      expect(c.text.length).toBeLessThanOrEqual(20);
      expect(c.end).toBeGreaterThan(c.start);
    }
    for (let i = 1; i < cues.length; i++) expect(cues[i]!.start).toBeGreaterThanOrEqual(cues[i - 1]!.end);
    expect(cues[3]!.start).toBe(4.6);
  });

  it("never stretches the last cue past the end of the clip", () => {
    // The demo's short 2 (23.6 s) ends on "come" at 23.3-23.45: 0.7 s would reach 24.0.
    const cues = wordsToCues([w("come", 23.3, 23.45)], { duration: 23.6 });
    expect(cues.map((c) => [c.start, c.end])).toEqual([[23.3, 23.6]]);
    expect(parseSrt(formatSrt(cues)).at(-1)!.end).toBeLessThanOrEqual(23.6);
    // A cue already at least minDuration long keeps its end.
    expect(wordsToCues([w("come", 22.0, 23.5)], { duration: 23.6 })[0]!.end).toBe(23.5);
  });

  it("splits a long monologue by duration", () => {
    const words = Array.from({ length: 40 }, (_, i) => w("go", i * 0.25, i * 0.25 + 0.2));
    const cues = wordsToCues(words, { maxChars: 1000, maxDuration: 2 });
    expect(cues.length).toBeGreaterThanOrEqual(5);
    for (const c of cues) expect(c.end - c.start).toBeLessThanOrEqual(2.0001);
  });

  it("stretches very short cues into the following silence but never over the next cue", () => {
    const cues = wordsToCues([w("hey", 1, 1.1), w("you", 1.3, 1.4)], { maxChars: 3, minDuration: 0.7 });
    expect(cues).toEqual([
      { start: 1, end: 1.3, text: "hey", words: [{ text: "hey", start: 1, end: 1.1 }] },
      { start: 1.3, end: 2, text: "you", words: [{ text: "you", start: 1.3, end: 1.4 }] },
    ]);
  });

  it("ignores blank words and empty input", () => {
    expect(wordsToCues([])).toEqual([]);
    expect(wordsToCues([w("  ", 0, 1)])).toEqual([]);
  });

  it("clipCues shifts into a window, clips the edges and drops what falls outside", () => {
    const cues = [
      { start: 0, end: 1, text: "gone before" },
      { start: 2, end: 4, text: "clipped start" },
      { start: 5, end: 6, text: "inside" },
      { start: 7, end: 9, text: "clipped end" },
      { start: 9, end: 12, text: "gone after" },
    ];
    expect(clipCues(cues, -3, 5)).toEqual([
      { start: 0, end: 1, text: "clipped start" },
      { start: 2, end: 3, text: "inside" },
      { start: 4, end: 5, text: "clipped end" },
    ]);
  });

  it("clipCues moves the words' times with their cue and keeps them inside it", () => {
    const [cue] = wordsToCues([w("one", 10, 10.4), w("two", 10.5, 10.9), w("three", 11, 11.5)]);
    expect(clipCues([cue!], -10.2, 5)).toEqual([
      {
        start: 0, end: 1.3, text: "one two three",
        words: [{ text: "one", start: 0, end: 0.2 }, { text: "two", start: 0.3, end: 0.7 }, { text: "three", start: 0.8, end: 1.3 }],
      },
    ]);
  });
});

describe("SRT", () => {
  it("formats times like SubRip", () => {
    expect(formatSrtTime(0)).toBe("00:00:00,000");
    expect(formatSrtTime(3661.2345)).toBe("01:01:01,235");
    expect(formatSrtTime(59.9999)).toBe("00:01:00,000");
  });

  it("round-trips cues with awkward text", () => {
    const cues = [
      { start: 0.5, end: 2.25, text: "it's 100% \"real\" --> no" },
      { start: 2.25, end: 4, text: "two\nlines" },
      { start: 61.001, end: 62.5, text: "accents: ça, Straße, ¿qué?" },
    ];
    const srt = formatSrt(cues);
    expect(srt.split("\n")[0]).toBe("1");
    expect(srt).toContain("00:00:00,500 --> 00:00:02,250");
    expect(parseSrt(srt)).toEqual(cues);
  });

  it("never lets a blank line inside a cue split it", () => {
    const srt = formatSrt([{ start: 0, end: 1, text: "a\n\n\nb" }]);
    expect(parseSrt(srt)).toEqual([{ start: 0, end: 1, text: "a\nb" }]);
  });

  it("parses what other tools write: BOM, CRLF, dots, no index", () => {
    const text = "\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\nHello\r\n\r\n00:00:03.5 --> 00:00:04.000\r\nWorld\r\n\r\ngarbage\r\n";
    expect(parseSrt(text)).toEqual([
      { start: 1, end: 2.5, text: "Hello" },
      { start: 3.5, end: 4, text: "World" },
    ]);
  });
});

describe("ASS", () => {
  it("escapes override braces and backslashes", () => {
    expect(escapeAssText("a {\\b1} b\\N c\nd")).toBe("a (\u2216b1) b\u2216N c\\Nd");
  });

  it("builds a script sized for the video with one event per cue", () => {
    const ass = buildAssScript(
      [
        { start: 0, end: 1.5, text: "first" },
        { start: 3723.456, end: 3725, text: "second {x}" },
        { start: 5, end: 5, text: "zero length is dropped" },
      ],
      { width: 1080, height: 1920, fontName: "DejaVu Sans" },
    );
    expect(ass).toContain("PlayResX: 1080");
    expect(ass).toContain("PlayResY: 1920");
    expect(ass).toMatch(/^Style: Default,DejaVu Sans,96,/m);
    const events = ass.split("\n").filter((l) => l.startsWith("Dialogue:"));
    expect(events).toEqual([
      "Dialogue: 0,0:00:00.00,0:00:01.50,Default,,0,0,0,,first",
      "Dialogue: 0,1:02:03.46,1:02:05.00,Default,,0,0,0,,second (x)",
    ]);
  });
});
