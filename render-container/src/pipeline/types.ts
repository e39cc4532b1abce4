import type { RenderTaskRequest, TaskResult } from "../../../common/contract/job-plan";
import type { ArtifactRef, Manifest, RenderJob } from "../../../common/contract/render";
import type { Logger } from "../log";
import type { ProgressSink } from "../output/callbacks";
import type { Uploader } from "../output/uploader";
import type { ByteCounter } from "../source";
import type { TaskProgressSink } from "./task-progress";

export interface JobContext {
  signal: AbortSignal;
  /** Private scratch folder of this job; deleted when the job ends. */
  workDir: string;
  reporter: ProgressSink;
  /** Where finished files go: R2 (S3 API or the Worker route) in service mode, a folder for the CLI. */
  uploader: Uploader;
  log: Logger;
  fetchImpl: typeof fetch;
}

export interface JobResult {
  manifest: Manifest;
  artifacts: ArtifactRef[];
}

export type JobRunner = (job: RenderJob, ctx: JobContext) => Promise<JobResult>;

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
  /** Counts the video bytes the task downloads (benchmark, in-process job statistics). */
  videoBytes?: ByteCounter;
}

export type TaskRunner = (req: RenderTaskRequest, ctx: TaskContext) => Promise<TaskResult>;
