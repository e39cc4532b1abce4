import { describe, expect, it } from "vitest";
import { ShortTranscript } from "../../../common/handoff/transcript";
import { formatSrt, parseSrt, shortTranscript, trustedWords, wordsToCues, type Word } from "../../../render-container/src/captions";

/**
 * A short's word-level transcript: every heard word, the shown ones marked, and the shown ones exactly the words
 * of its .srt (the same trustedWords output makes both, as in the short task).
 */

const w = (word: string, start: number, end: number, confidence?: number, crossChecked?: boolean): Word => ({ word, start, end, ...(confidence === undefined ? {} : { confidence }), ...(crossChecked === undefined ? {} : { crossChecked }) });

/** A phrase said clearly, a misheard stretch (low confidences), a swear word chat did not type, and one it did. */
const HEARD: Word[] = [
  w("that", 0.5, 0.7, 0.95),
  w("was", 0.72, 0.9, 0.93),
  w("insane", 0.92, 1.4, 0.97),
  w("likely", 3.0, 3.3, 0.3),
  w("of", 3.32, 3.4, 0.12),
  w("them", 3.42, 3.6, 0.4),
  w("fucking", 6.0, 6.3, 0.99),
  w("hell", 6.32, 6.6, 0.97),
  w("yes", 6.62, 6.9, 0.98),
  w("shit", 9.0, 9.3, 0.99),
  w("no", 9.32, 9.5, 0.98),
  w("way", 9.52, 9.8, 0.97),
  w("   ", 10, 10.1, 0.9),
  w("good", 12.0, 12.3),
  w("game", 12.32, 12.6),
];

function make(maskProfanity: boolean) {
  const trusted = trustedWords(HEARD, { maskProfanity, corroboration: ["shit shit"], language: "en" });
  const srt = formatSrt(wordsToCues(trusted.words));
  const transcript = shortTranscript({ index: 3, short: "short-03.mp4", vodStart: 1200.1234, vodEnd: 1230.1234, language: "en", recogniser: "pocketsphinx", captionsBurned: true, heard: HEARD, shown: trusted.words, maskProfanity, note: null });
  return { srt, transcript };
}

describe("a short's transcript", () => {
  it("marks as shown exactly the words of its .srt, in order", () => {
    for (const mask of [true, false]) {
      const { srt, transcript } = make(mask);
      const srtWords = parseSrt(srt).flatMap((c) => c.text.split(/\s+/));
      expect(srtWords.length).toBeGreaterThan(3);
      expect(transcript.words.filter((x) => x.shown).map((x) => x.word)).toEqual(srtWords);
      // Some heard words are left out of the captions, and listed all the same.
      expect(transcript.words.some((x) => !x.shown)).toBe(true);
    }
  });

  it("lists every heard word in time order with its times and confidence (null when the recogniser gives none)", () => {
    const { transcript } = make(true);
    expect(ShortTranscript.parse(transcript)).toEqual(transcript);
    expect(transcript.words).toHaveLength(HEARD.length - 1); // the blank one is no word
    expect(transcript.words.map((x) => x.start)).toEqual([...transcript.words.map((x) => x.start)].sort((a, b) => a - b));
    expect(transcript.words[0]).toEqual({ word: "that", start: 0.5, end: 0.7, confidence: 0.95, shown: true });
    expect(transcript.words.find((x) => x.word === "likely")).toMatchObject({ confidence: 0.3, shown: false });
    expect(transcript.words.at(-1)).toMatchObject({ word: "game", confidence: null });
    expect([transcript.vod_start, transcript.vod_end]).toEqual([1200.123, 1230.123]);
  });

  it("masks a profane word as the captions would, shown or not, unless the job asked for mask_profanity false", () => {
    const masked = make(true).transcript.words;
    // Chat typed "shit": shown, masked; "fucking" nobody typed: held back from the captions, masked here too.
    expect(masked.find((x) => x.start === 9)).toMatchObject({ word: "s***", shown: true });
    expect(masked.find((x) => x.start === 6)).toMatchObject({ word: "f******", shown: false });
    const plain = make(false).transcript.words;
    expect(plain.find((x) => x.start === 9)).toMatchObject({ word: "shit", shown: true });
    expect(plain.find((x) => x.start === 6)).toMatchObject({ word: "fucking", shown: false });
  });
});
