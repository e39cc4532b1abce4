import { describe, expect, it } from "vitest";
import type { JobPlan, ReelMomentTask, ShortTask } from "../../common/contract/job-plan";
import { taskFiles } from "../../common/plan/task-files";

/**
 * The files each task may touch, as the Worker's storage routes enforce them (worker/src/orchestration/
 * task-storage-scope.ts). That the renderer stores exactly these: test/renderer/pipeline/render-task.test.ts.
 */
const moment: ReelMomentTask = {
  kind: "reel_moment", id: "reel-audience-m02", run_name: "audience", moment_id: "m2", position: 3, start: 10, end: 20, snap: null, title_text: null,
  teasers: [{ position: 0, start: 12, end: 13 }], expected_encode_seconds: 11,
};
const short: ShortTask = {
  kind: "short", id: "short-07", index: 7, moment_id: "m2", start: 10, end: 40, peak: 15, snap: false, title_text: null,
  title: "t", description: "d", tags: [], expected_encode_seconds: 30,
};
const plan = {
  tasks: [
    { kind: "clip_group", id: "clips-01", members: [moment, short], expected_encode_seconds: 41 },
    { kind: "reel_join", id: "reel-audience", run_name: "audience", depends_on: ["clips-01"], pieces: 4, thumbnail_at: 1, title: "t", description: "d", tags: [], expected_encode_seconds: 0 },
  ],
} as unknown as JobPlan;

describe("taskFiles", () => {
  it("a group writes its members' files: the moment's piece and teaser parts, the short's four files and its heard words; it reads none", () => {
    expect(taskFiles({ id: "clips-01", kind: "clip_group" }, plan)).toEqual({
      writes: ["part-audience-003.mp4", "part-audience-000.mp4", "short-07.mp4", "short-07.jpg", "short-07.srt", "short-07.transcript.json", "short-07.heard.json"],
      reads: [],
    });
  });

  it("a reel's join writes the reel and its thumbnail and reads every part", () => {
    expect(taskFiles({ id: "reel-audience", kind: "reel_join" }, plan)).toEqual({
      writes: ["reel-audience.mp4", "reel-audience.jpg"],
      reads: ["part-audience-000.mp4", "part-audience-001.mp4", "part-audience-002.mp4", "part-audience-003.mp4"],
    });
  });

  it("the analysis writes the stored analysis only, with or without a plan", () => {
    expect(taskFiles({ id: "analyse", kind: "analyse" }, null)).toEqual({ writes: ["analysis.json.gz"], reads: [] });
  });

  it("knows no task the plan lacks, nor one of another kind under a known id, nor a plan-less render task", () => {
    expect(taskFiles({ id: "short-08", kind: "short" }, plan)).toBeNull();
    expect(taskFiles({ id: "reel-audience", kind: "short" }, plan)).toBeNull();
    expect(taskFiles({ id: "reel-audience", kind: "reel_join" }, null)).toBeNull();
    expect(taskFiles({ id: "other", kind: "analyse" }, null)).toBeNull();
  });
});
