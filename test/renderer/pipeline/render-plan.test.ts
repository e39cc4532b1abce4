import { describe, expect, it } from "vitest";
import { buildRenderPlan, coldOpenSnippets } from "../../../render-container/src/pipeline/render-plan";
import { JobError } from "../../../render-container/src/pipeline/job-error";
import { planRendering } from "../../../render-container/src/pipeline/stages/plan-rendering";
import { moment, normalizedRequest } from "./plan-fixtures";

const balanced = [moment(300, 340, 0.6, { peak: 330 }), moment(100, 130, 0.9, { peak: 120 }), moment(500, 525, 0.7, { peak: 502 }), moment(700, 740, 0.5)];
const audience = [moment(200, 230, 0.8, { profile: "audience" }), moment(600, 640, 0.4, { profile: "audience" })];

describe("buildRenderPlan", () => {
  it("plans one reel per executed profile, segments in VOD order", () => {
    const request = normalizedRequest({ run_profiles: ["balanced", "audience"], executed_profiles: ["balanced", "audience"] });
    const plan = buildRenderPlan(request, { balanced, audience }, []);
    expect(plan.reels.map((r) => r.profile)).toEqual(["balanced", "audience"]);
    expect(plan.reels[0]!.moments.map((m) => m.start)).toEqual([100, 300, 500, 700]);
    expect(plan.reels[1]!.moments.map((m) => m.start)).toEqual([200, 600]);
    expect(plan.reels.every((r) => r.coldOpen.length === 0)).toBe(true);
  });

  it("opens each reel with cold_open_max_clips snippets of cold_open_snippet_duration from its best moments", () => {
    const request = normalizedRequest({ parameters: { cold_open_enabled: true, cold_open_max_clips: 3, cold_open_snippet_duration: 4 } });
    const [reel] = buildRenderPlan(request, { balanced }, []).reels;
    // Best first: 0.9 (peak 120), 0.7 (peak 502, near its start), 0.6 (peak 330).
    expect(reel!.coldOpen).toEqual([
      { start: 118, end: 122 },
      { start: 500, end: 504 },
      { start: 328, end: 332 },
    ]);
    const teaserSeconds = reel!.coldOpen.reduce((s, c) => s + (c.end - c.start), 0);
    expect(teaserSeconds).toBe(3 * 4);
  });

  it("takes one snippet per moment: fewer moments than clips give a shorter teaser; a short moment gives its whole length", () => {
    const request = normalizedRequest({ parameters: { cold_open_enabled: true, cold_open_max_clips: 6, cold_open_snippet_duration: 10 } });
    const [reel] = buildRenderPlan(request, { balanced: [moment(50, 56, 0.9, { peak: 55 }), moment(80, 120, 0.5)] }, []).reels;
    expect(reel!.coldOpen).toEqual([{ start: 50, end: 56 }, { start: 95, end: 105 }]);
    expect(coldOpenSnippets(balanced, 2, 2).map((s) => s.end - s.start)).toEqual([2, 2]);
  });

  it("plans no reel when compilation_enabled is false, only the shorts, and downloads only what they need", () => {
    const request = normalizedRequest({ compilation_enabled: false, final_video_length_minutes: 0, num_shorts: 2, parameters: { cold_open_enabled: true } });
    const plan = buildRenderPlan(request, { balanced }, [balanced[1]!, balanced[2]!]);
    expect(plan.reels).toEqual([]);
    expect(plan.shorts.map((s) => [s.index, s.moment.start])).toEqual([[1, 100], [2, 500]]);
    expect(plan.videoRanges).toEqual([{ start: 100, end: 130 }, { start: 500, end: 525 }]);
  });

  it("plans at most num_shorts shorts, numbered from 1, and skips a profile with nothing chosen", () => {
    const request = normalizedRequest({ num_shorts: 2, run_profiles: ["balanced", "streamer"], executed_profiles: ["balanced", "streamer"] });
    const plan = buildRenderPlan(request, { balanced, streamer: [] }, [balanced[1]!, balanced[0]!, balanced[2]!]);
    expect(plan.reels.map((r) => r.profile)).toEqual(["balanced"]);
    expect(plan.shorts.map((s) => s.index)).toEqual([1, 2]);
    // Every rendered range is inside one merged download range.
    for (const m of [...balanced, ...plan.shorts.map((s) => s.moment)]) {
      expect(plan.videoRanges.some((r) => r.start <= m.start && r.end >= m.end)).toBe(true);
    }
  });
});

describe("planRendering", () => {
  it("fails a job with nothing to render: no_highlights_found, or the reason a later step gives", () => {
    const request = normalizedRequest({});
    const empty = { momentsByProfile: { balanced: [] }, shorts: [] };
    expect(() => planRendering(request, empty)).toThrow(expect.objectContaining({ code: "no_highlights_found" }));
    const why = new JobError("vod_format_unsupported", "every moment crossed a format change");
    expect(() => planRendering(request, empty, why)).toThrow(why);
    // With something to render the reason is not used.
    expect(planRendering(request, { momentsByProfile: { balanced }, shorts: [] }, why).reels).toHaveLength(1);
  });
});
