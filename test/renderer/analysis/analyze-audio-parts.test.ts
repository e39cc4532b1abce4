import { beforeAll, describe, expect, it } from "vitest";
import { analyzeAudio } from "../../../render-container/src/analysis/analyze-audio";
import { analyzeAudioInParts, mergeAnalyses } from "../../../render-container/src/analysis/analyze-audio-parts";
import type { AudioAnalysis } from "../../../render-container/src/analysis/types";
import { AUDIO_CLIP, makeAudioClip } from "./fixtures";

const argmax = (xs: number[]) => xs.reduce((best, v, i) => (v > xs[best]! ? i : best), 0);

describe("analysing a VOD's audio in parallel spans", () => {
  let whole: AudioAnalysis;
  let split: AudioAnalysis;
  beforeAll(async () => {
    const clip = await makeAudioClip();
    whole = await analyzeAudio(clip, { durationSeconds: AUDIO_CLIP.duration });
    split = await analyzeAudioInParts(clip, AUDIO_CLIP.duration, 2, { splitAboveSeconds: 0 });
  });

  it("gives the same per-second signals as one pass", () => {
    expect(split.durationSeconds).toBeCloseTo(whole.durationSeconds, 6);
    for (const key of ["loudnessLufs", "voiceDb", "speechActivity"] as const) {
      expect(split[key]).toHaveLength(whole[key].length);
      const worst = Math.max(...split[key].map((v, i) => Math.abs(v - whole[key][i]!)));
      // ebur128's 400 ms momentary window restarts at the span boundary; everything else matches closely.
      expect(worst, key).toBeLessThan(key === "loudnessLufs" ? 6 : 1);
    }
    expect(argmax(split.loudnessAboveBaselineDb)).toBe(argmax(whole.loudnessAboveBaselineDb));
    expect(Math.abs(split.baselineLufs - whole.baselineLufs)).toBeLessThan(1);
  });

  it("keeps silences and quiet points at VOD times", () => {
    const mid = Math.ceil(AUDIO_CLIP.duration / 2);
    expect(split.quietPoints.some((t) => t > mid)).toBe(whole.quietPoints.some((t) => t > mid));
    for (const s of whole.silences.filter((x) => x.end - x.start > 1)) {
      expect(split.silences.some((x) => x.start <= s.start + 0.5 && x.end >= s.end - 0.5), JSON.stringify(s)).toBe(true);
    }
  });

  it("joins a silence cut in two by a span boundary", () => {
    const part = (silences: { start: number; end: number }[], seconds: number): AudioAnalysis => ({
      durationSeconds: seconds, loudnessLufs: new Array(seconds).fill(-30), baselineLufs: -30,
      loudnessAboveBaselineDb: new Array(seconds).fill(0), voiceDb: new Array(seconds).fill(-60), voiceFloorDb: -70,
      speechActivity: new Array(seconds).fill(0), speechRate: new Array(seconds).fill(0), silences, quietPoints: [1],
    });
    const merged = mergeAnalyses([part([{ start: 8, end: 10 }], 10), part([{ start: 0, end: 3 }, { start: 5, end: 6 }], 10)], [0, 10]);
    expect(merged.silences).toEqual([{ start: 8, end: 13 }, { start: 15, end: 16 }]);
    expect(merged.quietPoints).toEqual([1, 11]);
    expect(merged.loudnessLufs).toHaveLength(20);
  });
});
