import { describe, expect, it } from "vitest";
import { JobPlan, type TaskResult } from "../../common/contract/job-plan";
import { Manifest } from "../../common/contract/render";
import { finaliseJob } from "../../common/plan/finalise";
import { signals } from "../renderer/pipeline/plan-fixtures";
import { handMadePlan, planMoment } from "../renderer/pipeline/task-fixtures";

/** A moment's "why" as the analysis writes it: the signals, then one sentence per end of the clip. */
const why = (start: number, end: number, peak: number, setup: string) => ({
  ...signals(0.8),
  reasons: ["chat rate 2.0x baseline", `starts ${(peak - start).toFixed(1)} s before the peak: ${setup}, in a pause between sentences`, `ends ${(end - peak).toFixed(1)} s after the peak: the reaction has died down, in a pause between sentences`],
});

/** A plan of two highlights (one reel) and a short of its own window, with metadata.json as the analysis wrote it. */
function plan(): JobPlan {
  const moments = [
    planMoment("m1", 100.2, 130.4, 120, { signals: why(100.2, 130.4, 120, "the build-up begins (loudness climbing 6 dB towards the moment)") }),
    planMoment("m2", 300, 340, 330, { signals: why(300, 340, 330, "the streamer starts talking after a 2.1 s pause") }),
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

  it("restates the why of each edge a render task moved: its seconds from the peak, and how far it moved", async () => {
    const { manifest } = await finalise([reelMoment("m1", 98.61234, 131.9), reelMoment("m2", 300, 340)]);
    const peaks = new Map(plan().moments.map((m) => [m.title, m.peak]));
    // Every listed highlight's sentences state its listed edges' distance from the peak.
    for (const h of manifest.highlights) {
      const reasons = h.signals!.reasons;
      const lead = Number(/^starts (\S+) s before the peak: /.exec(reasons.find((r) => r.startsWith("starts "))!)![1]);
      const payoff = Number(/^ends (\S+) s after the peak: /.exec(reasons.find((r) => r.startsWith("ends "))!)![1]);
      expect(lead).toBeCloseTo(peaks.get(h.title!)! - h.start, 1);
      expect(payoff).toBeCloseTo(h.end - peaks.get(h.title!)!, 1);
    }
    const [m1, m2] = manifest.highlights;
    expect(m1!.signals!.reasons).toEqual([
      "chat rate 2.0x baseline",
      "starts 21.4 s before the peak: the build-up begins (loudness climbing 6 dB towards the moment), in a pause between sentences, then moved 1.6 s earlier by its render task's snap to the video's scene cuts",
      "ends 11.9 s after the peak: the reaction has died down, in a pause between sentences, then moved 1.5 s later by its render task's snap to the video's scene cuts",
    ]);
    // An unmoved moment keeps the analysis's words.
    expect(m2!.signals!.reasons).toEqual(plan().moments[1]!.signals.reasons);
  });

  it("keeps the planned edges of a moment no task moved or reported", async () => {
    const { metadata, manifest } = await finalise([]);
    expect(metadata.moments.map(({ start, end }) => [start, end])).toEqual([[100.2, 130.4], [300, 340], [110, 130]]);
    expect(manifest.highlights.map((h) => [h.start, h.end])).toEqual([[100.2, 130.4], [300, 340]]);
  });
});
