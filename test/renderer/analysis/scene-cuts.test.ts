import { beforeAll, describe, expect, it } from "vitest";
import { detectSceneCuts } from "../../../render-container/src/analysis/scene-cuts";
import { makeVideoClip, VIDEO_CLIP } from "./fixtures";

describe("detectSceneCuts (keyframes only)", () => {
  let clip: string;
  beforeAll(async () => {
    clip = await makeVideoClip();
  });

  it("reports each hard cut at or after it, within one 2 s GOP, and nothing else", async () => {
    const progress: number[] = [];
    const cuts = await detectSceneCuts(clip, { durationSeconds: VIDEO_CLIP.duration, onProgress: (f) => progress.push(f) });
    expect(cuts).toHaveLength(VIDEO_CLIP.cuts.length);
    VIDEO_CLIP.cuts.forEach((cut, i) => {
      expect(cuts[i]!).toBeGreaterThanOrEqual(cut - 0.05);
      expect(cuts[i]!).toBeLessThanOrEqual(cut + 2.05);
    });
    expect(progress.at(-1)).toBe(1);
  });

  it("finds no cuts when the threshold is above any change", async () => {
    expect(await detectSceneCuts(clip, { threshold: 100 })).toEqual([]);
  });

  it("rejects when aborted", async () => {
    const ac = new AbortController();
    const run = detectSceneCuts(clip, { signal: ac.signal });
    ac.abort(new Error("cancelled"));
    await expect(run).rejects.toThrow("cancelled");
  });
});
