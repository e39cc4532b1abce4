import { describe, expect, it } from "vitest";
import type { JobPlan, RenderTaskSpec } from "../../common/contract/job-plan";
import { handedOffTask } from "../../common/plan/task-handoff";
import { handMadePlan, planMoment } from "../renderer/pipeline/task-fixtures";

/**
 * Which job's render task runs on its analysis task's instance (common/plan/task-handoff.ts): the one rule the
 * Worker (orchestration/task-handoff.ts) and the job runner (dev/job-runner/run-job.ts) decide with.
 */

const short = (id: string, index: number, start: number): RenderTaskSpec => ({
  kind: "short", id, index, moment_id: `m${index}`, start, end: start + 30, peak: start + 15, snap: false, title_text: null,
  title: "A short", description: "d", tags: [], expected_encode_seconds: 75,
});
const reused = { reused_from: "job_first", stored: null };

function plan(tasks: RenderTaskSpec[], o: Partial<JobPlan> = {}): JobPlan {
  const moments = tasks.flatMap((t) => (t.kind === "short" ? [planMoment(t.moment_id, t.start, t.end, t.peak, { source: "manual" })] : []));
  const shorts = tasks.flatMap((t) => (t.kind === "short" ? [{ index: t.index, moment_id: t.moment_id, title: t.title, description: t.description, tags: t.tags }] : []));
  return handMadePlan("job_recut", 3600, moments, tasks, { shorts, analysis: reused, ...o });
}

describe("handedOffTask", () => {
  it("is a reusing job's one short when it is the plan's only output", () => {
    const p = plan([short("short-01", 1, 100)]);
    expect(handedOffTask(p)?.id).toBe("short-01");
  });

  it("is none for a job that analysed the VOD itself, or a plan from before the field", () => {
    expect(handedOffTask(plan([short("short-01", 1, 100)], { analysis: { reused_from: null, stored: null } }))).toBeNull();
    expect(handedOffTask(plan([short("short-01", 1, 100)], { analysis: undefined }))).toBeNull();
  });

  it("is none when there is more than one output: two shorts, a reel, or nothing to render", () => {
    expect(handedOffTask(plan([short("short-01", 1, 100), short("short-02", 2, 900)]))).toBeNull();
    expect(handedOffTask(plan([short("short-01", 1, 100)], { reels: [{ run_name: "balanced", moment_ids: ["m1"], title: "t", description: "d", tags: [] }] }))).toBeNull();
    expect(handedOffTask(plan([]))).toBeNull();
    const moment: RenderTaskSpec = { kind: "reel_moment", id: "reel-balanced-m01", run_name: "balanced", moment_id: "m1", position: 0, start: 100, end: 130, snap: null, title_text: null, teasers: [], expected_encode_seconds: 30 };
    expect(handedOffTask(plan([moment], { shorts: [] }))).toBeNull();
  });
});
