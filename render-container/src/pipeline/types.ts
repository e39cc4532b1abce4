import type { RenderTaskRequest, TaskResult } from "../../../common/contract/job-plan";
import type { Logger } from "../log";
import type { Uploader } from "../output/uploader";
import type { ByteCounter } from "../source";
import type { AnalysisStats } from "./analyse-task";
import type { ProgressSink } from "./progress";
import type { TaskProgressSink } from "./task-progress";

/** What the analysis task's stages work with: like TaskContext, with progress on the analysis' own percent bar. */
export interface JobContext {
  signal: AbortSignal;
  /** Private scratch folder of the task; deleted when it ends. */
  workDir: string;
  reporter: ProgressSink;
  /** Where finished files go: R2 (S3 API or the Worker route) in service mode, a folder for the CLI. */
  uploader: Uploader;
  log: Logger;
  fetchImpl: typeof fetch;
}

/** What one task of a job (analysis or render) works with; like JobContext, with the task's own progress. */
export interface TaskContext {
  signal: AbortSignal;
  /** Private scratch folder of this task; deleted when the task ends. */
  workDir: string;
  /** The task's stage and its own fraction done (0..1). */
  progress: TaskProgressSink;
  /** Where files go and where a join reads its parts back from. */
  uploader: Uploader;
  log: Logger;
  fetchImpl: typeof fetch;
  /** Counts the video bytes a render task downloads (benchmark, in-process job statistics). */
  videoBytes?: ByteCounter;
  /** Filled with the analysis task's figures (bytes, stage seconds) when given (benchmark, in-process jobs). */
  analysisStats?: AnalysisStats;
}

export type TaskRunner = (req: RenderTaskRequest, ctx: TaskContext) => Promise<TaskResult>;
