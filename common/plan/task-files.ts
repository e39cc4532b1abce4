import { STORED_ANALYSIS_NAME } from "../contract/analysis-reuse";
import { ANALYSE_TASK_ID, reelPartName, unitTasks, type JobPlan, type RenderTaskSpec, type TaskKind } from "../contract/job-plan";
import { heardWordsName } from "../contract/heard-words";
import { artifactNames } from "./artifact-names";

/**
 * The files one task of a job may touch in the job's folder: what it writes, and what it reads that others
 * wrote. The renderer names its files with the same functions (artifact-names.ts, reelPartName), and the Worker
 * presigns or accepts a task's storage request only for these names (worker/src/orchestration/task-storage-scope.ts),
 * so a task parsing hostile media cannot overwrite another task's outputs, the finalising step's documents or the
 * stored analysis (issue 23, point 6).
 */
export interface TaskFiles {
  /** Names the task stores (the writer may also read them back). */
  writes: string[];
  /** Names other tasks stored that this task reads (a reel's join reads its parts). */
  reads: string[];
}

/** The files of one unit task (a group's member or a task alone). */
function unitFiles(spec: Exclude<RenderTaskSpec, { kind: "clip_group" }>): TaskFiles {
  switch (spec.kind) {
    case "reel_moment":
      // The moment's own piece and each teaser snippet cut from it, each a part at its position.
      return { writes: [spec.position, ...spec.teasers.map((t) => t.position)].map((p) => reelPartName(spec.run_name, p)), reads: [] };
    case "short":
      return {
        // The short's heard words too: a private object later re-cuts read (contract/heard-words.ts).
        writes: [artifactNames.short(spec.index), artifactNames.shortThumbnail(spec.index), artifactNames.shortCaptions(spec.index), artifactNames.shortTranscript(spec.index), heardWordsName(spec.index)],
        reads: [],
      };
    case "reel_join":
      return {
        writes: [artifactNames.reel(spec.run_name), artifactNames.reelThumbnail(spec.run_name)],
        reads: Array.from({ length: spec.pieces }, (_, p) => reelPartName(spec.run_name, p)),
      };
  }
}

/**
 * The files of task `task` of a job, from the job's plan (null before the analysis made one). The analysis task
 * stores the analysis later jobs may reuse; a render task, what its spec in the plan makes (a group: all its
 * members'). null when the plan has no such task.
 */
export function taskFiles(task: { id: string; kind: TaskKind }, plan: JobPlan | null): TaskFiles | null {
  if (task.kind === "analyse") return task.id === ANALYSE_TASK_ID ? { writes: [STORED_ANALYSIS_NAME], reads: [] } : null;
  const spec = plan?.tasks.find((t) => t.id === task.id);
  if (!spec || spec.kind !== task.kind) return null;
  const units = unitTasks([spec]).map(unitFiles);
  return { writes: [...new Set(units.flatMap((u) => u.writes))], reads: [...new Set(units.flatMap((u) => u.reads))] };
}
