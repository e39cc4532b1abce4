import { describe, expect, it } from "vitest";
import { deriveVoiceFeatures } from "../../../render-container/src/analysis/voice-features";

const FRAME = 0.02;

/** An envelope (dB per 20 ms frame) built from a function of time. */
function envelope(seconds: number, db: (t: number) => number): Float32Array {
  const n = Math.round(seconds / FRAME);
  return Float32Array.from({ length: n }, (_, i) => db(i * FRAME));
}

describe("deriveVoiceFeatures", () => {
  // Floor at -60 dB; from 10 s to 20 s speech-like bursts at 4 syllables per second reaching -30 dB.
  const syllables = (t: number) => (t >= 10 && t < 20 ? -60 + 30 * Math.max(0, Math.sin(2 * Math.PI * 4 * t)) : -60);

  it("counts syllable-like peaks at their rate and none in steady noise", () => {
    const f = deriveVoiceFeatures(envelope(30, syllables), FRAME, 30, []);
    for (let s = 11; s < 19; s++) expect(f.speechRate[s]!).toBeGreaterThanOrEqual(3), expect(f.speechRate[s]!).toBeLessThanOrEqual(5);
    for (let s = 0; s < 10; s++) expect(f.speechRate[s]).toBe(0);
  });

  it("does not count a loud steady tone as speech rate, though it is voiced", () => {
    const tone = (t: number) => (t >= 10 && t < 20 ? -25 : -60);
    const f = deriveVoiceFeatures(envelope(30, tone), FRAME, 30, []);
    expect(f.speechActivity[15]).toBe(1);
    expect(f.speechRate.slice(11, 19).every((r) => r === 0)).toBe(true);
  });

  it("measures activity as the voiced share of each second, relative to the floor", () => {
    const f = deriveVoiceFeatures(envelope(30, syllables), FRAME, 30, []);
    expect(f.voiceFloorDb).toBeCloseTo(-60, 0);
    expect(f.speechActivity[5]).toBe(0);
    expect(f.speechActivity[15]!).toBeGreaterThan(0.3);
    expect(f.speechActivity[15]!).toBeLessThan(0.8);
    expect(f.voiceDb[15]!).toBeGreaterThan(f.voiceDb[5]! + 15);
  });

  it("offers pauses and silence midpoints as quiet points, but not seconds of continuous loud sound", () => {
    const loud = (t: number) => (t >= 10 && t < 20 ? -20 : -60);
    const f = deriveVoiceFeatures(envelope(30, loud), FRAME, 30, [{ start: 24, end: 26 }]);
    expect(f.quietPoints.some((q) => q > 10.5 && q < 19.5)).toBe(false);
    expect(f.quietPoints.some((q) => q < 10)).toBe(true);
    expect(f.quietPoints).toContain(25);
  });

  it("finds the pauses between sentences against the local floor, not inside words, whatever the stream does elsewhere", () => {
    // 0-60 s: sentences of 3.4 s (syllables down to -52 dB between them) with 0.6 s pauses at the bed (-55 dB);
    // 60-240 s: a long quiet stretch at -75 dB that drags the stream-wide floor down; 250-260 s: digital silence.
    const db = (t: number) => {
      if (t >= 250 && t < 260) return -120;
      if (t >= 60) return -75;
      const inSentence = t % 4 < 3.4;
      return inSentence ? -52 + 25 * Math.max(0, Math.sin(2 * Math.PI * 4 * t)) : -55;
    };
    const f = deriveVoiceFeatures(envelope(270, db), FRAME, 270, [{ start: 250, end: 260 }]);
    const talkPauses = f.pauses.filter((p) => p.end <= 60);
    // One pause per sentence gap (the 4th s of every 4), none inside a sentence (gaps between syllables are short).
    expect(talkPauses.length).toBeGreaterThanOrEqual(13);
    for (const p of talkPauses) {
      expect(p.end - p.start).toBeGreaterThanOrEqual(0.45);
      expect((p.start + p.end) / 2 % 4).toBeGreaterThan(3.2);
    }
    // Talk stays voiced against its own surroundings, not everything above the quiet stretch's level.
    expect(f.speechActivity[30]!).toBeLessThan(0.9);
  });
});
