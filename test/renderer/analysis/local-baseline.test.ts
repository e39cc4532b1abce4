import { beforeAll, describe, expect, it } from "vitest";
import { analyzeAudio } from "../../../render-container/src/analysis/analyze-audio";
import { aboveBaseline, loudnessBaseline } from "../../../render-container/src/analysis/local-baseline";
import type { AudioAnalysis } from "../../../render-container/src/analysis/types";
import { makeSteppedLevelClip, STEPPED_LEVEL } from "./fixtures";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe("the loudness baseline follows a stream's level (local-baseline.ts)", () => {
  it("reads calm seconds near 0 dB on both sides of a level step, and a burst by its own rise", () => {
    const lufs = range(0, 600).map((i) => (i >= 300 ? -22 : -30) + (i % 7 === 0 ? 1 : 0) + (i >= 120 && i < 125 ? 10 : 0));
    const over = aboveBaseline(lufs, loudnessBaseline(lufs, -70), -70);
    expect(Math.abs(median(over.slice(0, 240)))).toBeLessThan(0.5);
    expect(Math.abs(median(over.slice(360)))).toBeLessThan(0.5);
    expect(over[122]!).toBeGreaterThan(9);
    // Against one median of the whole stream the two halves would read 4 dB under and over it.
    const whole = aboveBaseline(lufs, { overallLufs: -26, perSecondLufs: lufs.map(() => -26) }, -70);
    expect(median(whole.slice(360))).toBeGreaterThan(3.5);
  });

  it("keeps the whole stream's median where the window holds too little sound, and never moves under a short moment", () => {
    const lufs = range(0, 400).map((i) => (i < 200 ? -120 : i >= 300 && i < 320 ? -10 : -25));
    const b = loudnessBaseline(lufs, -70);
    expect(b.overallLufs).toBe(-25);
    // Digital silence (a muted stretch) has no level of its own: the stream's median stands in.
    expect(b.perSecondLufs[50]).toBe(-25);
    // A 20 s fight is under a sixth of the window: the median stays on the talk around it.
    expect(b.perSecondLufs[310]).toBeCloseTo(-25, 5);
  });

  it("never sinks more than 8 dB under the stream's median: a quiet minute's ambience does not make the next sentence a shout", () => {
    // Talk at -25 LUFS; three minutes where the streamer says nothing over the game's ambience (-42); one sentence
    // near their end, where the window around holds far more ambience than talk.
    const lufs = range(0, 900).map((i) => (i >= 300 && i < 480 && !(i >= 440 && i < 444) ? -42 : -25));
    const b = loudnessBaseline(lufs, -70);
    expect(b.overallLufs).toBe(-25);
    const over = aboveBaseline(lufs, b, -70);
    // Over the window's median (the ambience) the sentence would read 17 dB up, a shout's rise.
    expect(median(lufs.slice(382, 503))).toBe(-42);
    expect(Math.max(...over.slice(440, 444))).toBeCloseTo(8, 5);
    // A level that wanders by the bound or less is still followed: the 8 dB step of the first test.
  });
});

describe("analyzeAudio on a stream whose level steps up 8 dB halfway", () => {
  let a: AudioAnalysis;
  beforeAll(async () => {
    a = await analyzeAudio(await makeSteppedLevelClip(), { durationSeconds: STEPPED_LEVEL.duration });
  });

  it("reads the ordinary seconds of either half near its own level, not 4 dB under or over the whole stream's", () => {
    const c = STEPPED_LEVEL;
    const quiet = range(20, c.stepAt - 70).filter((i) => Math.abs(i - c.bursts[0]!) > 5);
    const loud = range(c.stepAt + 70, c.duration - 10).filter((i) => Math.abs(i - c.bursts[1]!) > 5);
    expect(Math.abs(median(quiet.map((i) => a.loudnessAboveBaselineDb[i]!)))).toBeLessThan(1.5);
    expect(Math.abs(median(loud.map((i) => a.loudnessAboveBaselineDb[i]!)))).toBeLessThan(1.5);
  });

  it("reads the burst in the quiet half as loud as the one in the loud half: each by its rise over the talk around it", () => {
    const c = STEPPED_LEVEL;
    const peak = (b: number) => Math.max(...range(b, b + c.burstSeconds).map((i) => a.loudnessAboveBaselineDb[i]!));
    expect(peak(c.bursts[0]!)).toBeGreaterThan(c.burstDb - 2);
    expect(peak(c.bursts[1]!)).toBeGreaterThan(c.burstDb - 2);
    expect(Math.abs(peak(c.bursts[0]!) - peak(c.bursts[1]!))).toBeLessThan(1.5);
  });
});
