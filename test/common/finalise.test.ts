import { describe, expect, it } from "vitest";
import { JobPlan, type TaskResult } from "../../common/contract/job-plan";
import { Manifest } from "../../common/contract/render";
import { finaliseJob } from "../../common/plan/finalise";
import { handMadePlan, planMoment } from "../renderer/pipeline/task-fixtures";

/** A plan of two highlights (one reel) and a short of its own window, with metadata.json as the analysis wrote it. */
function plan(): JobPlan {
  const moments = [
    planMoment("m1", 100.2, 130.4, 120),
    planMoment("m2", 300, 340, 330),
    planMoment("m3", 110, 130, 120, { highlight: false }),
  ];
  const metadata = {
    language: "en",
    reels: [{ run_name: "balanced", title: "Reel", description: "d", tags: [] }],
    shorts: [{ index: 1, title: "Short", description: "d", tags: [] }],
    moments: moments.map((m) => ({ id: m.id, title: m.title, story: m.story })),
    warnings: [],
  };
  return JobPlan.parse(handMadePlan("job_final", 1000, moments, [], { metadata }));
}

const reelMoment = (id: string, start: number, end: number): TaskResult => ({ kind: "reel_moment", parts: [], moment: { id, start, end } });

async function finalise(results: TaskResult[]) {
  const written = new Map<string, string>();
  const out = await finaliseJob(plan(), results, async (name, body) => {
    written.set(name, body);
    return { size_bytes: body.length };
  });
  return { manifest: Manifest.parse(JSON.parse(written.get("manifest.json")!)), metadata: JSON.parse(written.get("metadata.json")!) as { moments: { id: string; title: string; start: number; end: number }[] }, out };
}

describe("finalising a job", () => {
  it("gives metadata.json the edges the render tasks settled on, the same the manifest lists", async () => {
    // m1's task snapped both edges to scene cuts; m2's kept them; the short nudged its start.
    // m1 and the short ran as one clip group (they share video).
    const { manifest, metadata } = await finalise([
      { kind: "clip_group", results: [reelMoment("m1", 98.61234, 131.9) as Extract<TaskResult, { kind: "reel_moment" }>, { kind: "short", artifacts: [], moment: { id: "m3", start: 111.2, end: 131.2 } }] },
      reelMoment("m2", 300, 340),
    ]);
    expect(metadata.moments.map(({ id, start, end }) => ({ id, start, end }))).toEqual([
      { id: "m1", start: 98.612, end: 131.9 },
      { id: "m2", start: 300, end: 340 },
      { id: "m3", start: 111.2, end: 131.2 },
    ]);
    // Every listed highlight is a metadata moment with the same title and edges.
    expect(manifest.highlights).toHaveLength(2);
    for (const h of manifest.highlights) {
      const m = metadata.moments.find((x) => x.title === h.title)!;
      expect([m.start, m.end]).toEqual([h.start, h.end]);
    }
  });

  it("keeps the planned edges of a moment no task moved or reported", async () => {
    const { metadata, manifest } = await finalise([]);
    expect(metadata.moments.map(({ start, end }) => [start, end])).toEqual([[100.2, 130.4], [300, 340], [110, 130]]);
    expect(manifest.highlights.map((h) => [h.start, h.end])).toEqual([[100.2, 130.4], [300, 340]]);
  });
});
