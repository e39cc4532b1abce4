import { describe, expect, it } from "vitest";
import type { ReelJoinTask, ReelMomentTask, RenderTaskSpec, ShortTask } from "../../../common/contract/job-plan";
import { groupClipTasks } from "../../../render-container/src/pipeline/group-clips";
import { clipRanges } from "../../../render-container/src/pipeline/tasks/task-source";

const moment = (id: string, run: "balanced" | "audience" | "streamer", start: number, end: number, snap = true): ReelMomentTask => ({
  kind: "reel_moment",
  id,
  run_name: run,
  moment_id: `m-${id}`,
  position: 0,
  start,
  end,
  snap: snap ? { min_start: start - 20, max_end: end + 20, min_duration: 10, max_duration: 60 } : null,
  title_text: null,
  teasers: [],
  expected_encode_seconds: end - start,
});
const short = (id: string, start: number, end: number): ShortTask => ({
  kind: "short", id, index: Number(id.slice(-2)), moment_id: `m-${id}`, start, end, peak: (start + end) / 2, snap: true, title_text: null, title: "t", description: "d", tags: [], expected_encode_seconds: 2.5 * (end - start),
});
const join = (run: "balanced" | "audience" | "streamer", deps: string[]): ReelJoinTask => ({
  kind: "reel_join", id: `reel-${run}-join`, run_name: run, depends_on: deps, pieces: deps.length, thumbnail_at: 1, title: "t", description: "d", tags: [], expected_encode_seconds: 1,
});
const shape = (tasks: RenderTaskSpec[]) => tasks.map((t) => (t.kind === "clip_group" ? t.members.map((m) => m.id) : t.id));

describe("groupClipTasks", () => {
  it("puts the same moment of three reels and the short around its peak in one task, and leaves lone moments alone", () => {
    const tasks = [
      moment("b1", "balanced", 100, 130),
      moment("b2", "balanced", 400, 430),
      join("balanced", ["b1", "b2"]),
      moment("a1", "audience", 100, 130),
      join("audience", ["a1"]),
      moment("s1", "streamer", 101, 129),
      join("streamer", ["s1"]),
      short("short-01", 105, 125),
    ];
    const grouped = groupClipTasks(tasks);
    expect(shape(grouped)).toEqual([["b1", "a1", "s1", "short-01"], "b2", "reel-balanced-join", "reel-audience-join", "reel-streamer-join"]);
    expect(grouped[0]).toMatchObject({ kind: "clip_group", id: "clips-01", expected_encode_seconds: 30 + 30 + 28 + 50 });
    // Every join waits for the task that now makes its moment's part (once, however many of its moments it holds).
    expect(grouped.filter((t) => t.kind === "reel_join").map((t) => t.kind === "reel_join" && t.depends_on)).toEqual([["clips-01", "b2"], ["clips-01"], ["clips-01"]]);
  });

  it("groups by the stretch each task downloads: a moment's room to snap and a short's room to move count", () => {
    // Apart by 1 s: a moment may reach 1.5 s past its end to snap, and the short 1.5 s before its start.
    const grouped = groupClipTasks([moment("b1", "balanced", 100, 130), short("short-01", 131, 151)]);
    expect(shape(grouped)).toEqual([["b1", "short-01"]]);
    expect(clipRanges(moment("x", "balanced", 100, 130))[0]!.end).toBeGreaterThan(130);
    // Without snapping (manual ranges) nothing is added, and tasks that only touch stay apart.
    const apart = groupClipTasks([moment("b1", "balanced", 100, 130, false), { ...short("short-01", 130, 150), snap: false }]);
    expect(shape(apart).sort()).toEqual(["b1", "short-01"]);
  });

  it("closes a group at the encode bound: the rest of an overlapping run starts another group", () => {
    const tasks = [moment("b1", "balanced", 100, 160), moment("a1", "audience", 100, 160), moment("s1", "streamer", 100, 160), short("short-01", 110, 150)];
    // 60 + 60 + 60 + 100 encode seconds under a bound of 160: two moments, then the third with the short.
    const grouped = groupClipTasks(tasks, 160);
    expect(shape(grouped)).toEqual([["s1", "short-01"], ["b1", "a1"]]);
    for (const t of grouped) expect(t.expected_encode_seconds).toBeLessThanOrEqual(160);
    // A single task above the bound still runs (alone).
    expect(shape(groupClipTasks([short("short-01", 0, 100)], 150))).toEqual(["short-01"]);
  });

  it("keeps every task exactly once", () => {
    const tasks: RenderTaskSpec[] = [];
    for (let i = 0; i < 30; i++) tasks.push(moment(`b${i}`, "balanced", i * 37, i * 37 + 30), short(`short-${String(i).padStart(2, "0")}`, i * 41, i * 41 + 25));
    const ids = groupClipTasks(tasks).flatMap((t) => (t.kind === "clip_group" ? t.members.map((m) => m.id) : [t.id]));
    expect(ids.sort()).toEqual(tasks.map((t) => t.id).sort());
  });
});
