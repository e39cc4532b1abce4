import type { ClipGroupTask, ClipTask, RenderTaskSpec } from "../../../common/contract/job-plan";
import { clipRanges } from "./tasks/task-source";

/**
 * The most encode seconds (as tasks weigh them: a short's second counts 2.5) one group may hold. Grouping saves
 * downloads but puts the members on one instance one after the other: the bound keeps a group's CPU near that of
 * a long short plus a moment in three reels, so the job's critical path (the analysis, then its longest task)
 * stays short (docs/BENCHMARKS.md, "Fan-out benchmark"). Members beyond it start another group and download that stretch again.
 */
export const MAX_GROUP_ENCODE_SECONDS = 240;

const two = (n: number) => String(n).padStart(2, "0");

/** The stretch of the VOD a clip task downloads: from its earliest to its latest needed second. */
function spanOf(task: ClipTask): { start: number; end: number } {
  const ranges = clipRanges(task);
  return { start: Math.min(...ranges.map((r) => r.start)), end: Math.max(...ranges.map((r) => r.end)) };
}

/**
 * Clip tasks (reel moments, shorts) whose stretches overlap become one `clip_group` task, so what they share is
 * downloaded once: the same moment in several profiles' reels, a short around a reel moment's peak. A task that
 * overlaps nothing stays as it is. Groups are formed sweeping the tasks in time order, each task joining the first
 * overlapping group with room under `maxEncodeSeconds`. Every join then depends on the tasks that now make its parts. Returned: groups and lone
 * clip tasks, the heaviest first (they start first, so the longest work does not start last), then the joins.
 */
export function groupClipTasks(tasks: readonly RenderTaskSpec[], maxEncodeSeconds = MAX_GROUP_ENCODE_SECONDS): RenderTaskSpec[] {
  const clips = tasks.filter((t): t is ClipTask => t.kind === "reel_moment" || t.kind === "short").map((task) => ({ task, span: spanOf(task) }));
  clips.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);

  const groups: { members: ClipTask[]; end: number; seconds: number }[] = [];
  for (const { task, span } of clips) {
    // Sweeping in time order, a group overlaps the task when it reaches past the task's start; the first such
    // group with room takes it.
    const open = groups.find((g) => span.start < g.end && g.seconds + task.expected_encode_seconds <= maxEncodeSeconds);
    if (open) {
      open.members.push(task);
      open.end = Math.max(open.end, span.end);
      open.seconds += task.expected_encode_seconds;
    } else {
      groups.push({ members: [task], end: span.end, seconds: task.expected_encode_seconds });
    }
  }

  const owner = new Map<string, string>();
  let n = 0;
  const units: RenderTaskSpec[] = groups.map((g) => {
    if (g.members.length === 1) return g.members[0]!;
    const group: ClipGroupTask = { kind: "clip_group", id: `clips-${two(++n)}`, members: g.members, expected_encode_seconds: g.seconds };
    for (const m of g.members) owner.set(m.id, group.id);
    return group;
  });
  units.sort((a, b) => b.expected_encode_seconds - a.expected_encode_seconds);
  const joins = tasks.flatMap((t) => (t.kind === "reel_join" ? [{ ...t, depends_on: [...new Set(t.depends_on.map((id) => owner.get(id) ?? id))] }] : []));
  return [...units, ...joins];
}
