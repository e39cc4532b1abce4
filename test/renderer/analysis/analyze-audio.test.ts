import { beforeAll, describe, expect, it } from "vitest";
import { analyzeAudio } from "../../../render-container/src/analysis/analyze-audio";
import type { AudioAnalysis } from "../../../render-container/src/analysis/types";
import { AUDIO_CLIP, makeAudioClip } from "./fixtures";

const argmax = (xs: number[]) => xs.reduce((best, v, i) => (v > xs[best]! ? i : best), 0);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

describe("analyzeAudio on a generated AAC/MPEG-TS clip", () => {
  let clip: string;
  let a: AudioAnalysis;
  const progress: number[] = [];

  beforeAll(async () => {
    clip = await makeAudioClip();
    a = await analyzeAudio(clip, { durationSeconds: AUDIO_CLIP.duration, onProgress: (f) => progress.push(f) });
  });

  it("returns one value per second for every signal", () => {
    expect(a.durationSeconds).toBe(AUDIO_CLIP.duration);
    for (const arr of [a.loudnessLufs, a.loudnessAboveBaselineDb, a.voiceDb, a.speechActivity, a.speechRate]) {
      expect(arr).toHaveLength(AUDIO_CLIP.duration);
      expect(arr.every(Number.isFinite)).toBe(true);
    }
  });

  it("finds the planted loud second within a second, far above the stream's baseline", () => {
    const loudest = argmax(a.loudnessAboveBaselineDb);
    expect(Math.abs(loudest - AUDIO_CLIP.loudSecond)).toBeLessThanOrEqual(1);
    expect(a.loudnessAboveBaselineDb[loudest]!).toBeGreaterThan(25);
    // The bed is the baseline: a bed-only second sits near 0 dB above it.
    expect(Math.abs(a.loudnessAboveBaselineDb[15]!)).toBeLessThan(3);
  });

  it("sees speech where the sentence was spoken and not in the noise bed", () => {
    const speechSecs = [6, 7, 8, 9].map((i) => a.speechActivity[i]!);
    const bedSecs = [14, 15, 16, 17, 18, 19].map((i) => a.speechActivity[i]!);
    expect(mean(speechSecs)).toBeGreaterThan(0.4);
    expect(Math.max(...bedSecs)).toBeLessThan(0.1);
    // ~17 syllables in ~4.5 s: a syllable-like rate of a few per second, none in the bed.
    const rate = mean([5, 6, 7, 8, 9].map((i) => a.speechRate[i]!));
    expect(rate).toBeGreaterThan(2);
    expect(rate).toBeLessThan(7);
    expect(Math.max(...[14, 15, 16, 17, 18, 19].map((i) => a.speechRate[i]!))).toBe(0);
  });

  it("reports the digital silence and offers a cut point inside it", () => {
    const { start, end } = AUDIO_CLIP.silence;
    const hit = a.silences.find((s) => s.start < end && s.end > start);
    expect(hit).toBeDefined();
    expect(Math.abs(hit!.start - start)).toBeLessThan(0.3);
    expect(Math.abs(hit!.end - end)).toBeLessThan(0.3);
    expect(a.quietPoints.some((q) => q > start && q < end)).toBe(true);
    expect([...a.quietPoints].sort((x, y) => x - y)).toEqual(a.quietPoints);
  });

  it("reports monotonic progress ending at 1", () => {
    expect(progress.length).toBeGreaterThan(3);
    for (let i = 1; i < progress.length; i++) expect(progress[i]!).toBeGreaterThanOrEqual(progress[i - 1]!);
    expect(progress.at(-1)).toBe(1);
  });

  it("measures the duration itself when none is given", async () => {
    const b = await analyzeAudio(clip);
    expect(Math.abs(b.durationSeconds - AUDIO_CLIP.duration)).toBeLessThan(0.5);
    expect(Math.abs(argmax(b.loudnessAboveBaselineDb) - AUDIO_CLIP.loudSecond)).toBeLessThanOrEqual(1);
  });

  it("stops ffmpeg and rejects when aborted", async () => {
    const ac = new AbortController();
    const run = analyzeAudio(clip, { signal: ac.signal });
    ac.abort(new Error("job cancelled"));
    await expect(run).rejects.toThrow("job cancelled");
  });

  it("fails with ffmpeg's reason on unreadable input", async () => {
    await expect(analyzeAudio("/nonexistent/audio.ts")).rejects.toThrow(/audio analysis failed|No such file/);
  });
});
