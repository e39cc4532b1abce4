import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captionRange, type CaptionedRange } from "../../../render-container/src/captions/caption-range";
import { PocketsphinxTranscriber } from "../../../render-container/src/captions/pocketsphinx";
import { parseSrt } from "../../../render-container/src/captions/srt";
import { probeMedia } from "../../../render-container/src/ffmpeg/probe";
import { scoreCaptionWords, type SpokenSentence } from "../../../scripts/caption-eval/score";
import { makeSourceClip, speakWav, type SpokenLine } from "../../support/media";

/**
 * The caption rules were chosen on espeak-ng speech; the streams they caption are spoken by other voices. Here
 * three flite voices (another synthesis method: a 16 kHz diphone voice and two statistical ones, one of them
 * shouting, louder and higher) talk over game-like noise, cut and transcribed as the renderer does a short (real
 * FFmpeg, real pocketsphinx with its cross-check). The recogniser mishears much of it; the captions must show
 * only words that were said, where they were said (scored as the caption evaluation scores them: the same word
 * said within a second of when it was heard).
 */
const SPEECH: SpokenLine[] = [
  { at: 1, text: "Let me read the chat for a moment before we continue.", speak: { voice: "slt", speed: 170, flite: { pitch: 190 } } },
  { at: 6, text: "We need two more wins to reach the top of the ladder.", speak: { voice: "kal16", speed: 160, flite: {} } },
  { at: 11, text: "Run! Get out of there right now!", speak: { voice: "awb", speed: 200, flite: { pitch: 170 } }, gainDb: 8 },
];
const DURATION = 16;

let dir: string;
let said: SpokenSentence[];
const heard = new Map<number, CaptionedRange>();

async function caption(noise: number): Promise<CaptionedRange> {
  const clip = await makeSourceClip({ durationSeconds: DURATION, width: 320, height: 180, speech: SPEECH, noise });
  return captionRange(new PocketsphinxTranscriber(), clip, 0, DURATION, { language: "en", workDir: dir });
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "flite-captions-"));
  said = await Promise.all(
    SPEECH.map(async (s) => ({ text: s.text, start: s.at, end: s.at + (await probeMedia(await speakWav(s.text, s.speak))).durationSeconds })),
  );
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("captions of flite speech under game noise", () => {
  for (const noise of [0.02, 0.06]) {
    it(`show no word that was not said there (pink noise at ${noise})`, async () => {
      const res = await caption(noise);
      heard.set(noise, res);
      const recognised = res.words.map((w) => `${w.word}:${w.confidence?.toFixed(2)}@${w.start.toFixed(1)}`).join(" ");
      // The recogniser got plenty wrong, so the rules had wrong words to hold back...
      expect(scoreCaptionWords(res.words, said).wrong.length, recognised).toBeGreaterThanOrEqual(3);
      // ...and every word the captions show was said there,
      const shown = res.cues.flatMap((c) => (c.words ?? []).map((w) => ({ word: w.text, start: w.start, end: w.end })));
      expect(scoreCaptionWords(shown, said).wrong, `shown: ${res.text}; heard: ${recognised}`).toEqual([]);
      // and the .srt says those words and nothing else.
      expect(parseSrt(res.srt).map((c) => c.text).join(" ")).toBe(res.cues.map((c) => c.text).join(" "));
      expect(res.cues.flatMap((c) => c.words ?? []).length).toBe(res.shownWords.length);
    });
  }

  it("still shows some of what was said over the quieter noise", () => {
    const quiet = heard.get(0.02);
    expect(quiet, "the first case ran").toBeDefined();
    expect(quiet!.shownWords.length, quiet!.text).toBeGreaterThanOrEqual(2);
  });
});
