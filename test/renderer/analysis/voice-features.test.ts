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
});
