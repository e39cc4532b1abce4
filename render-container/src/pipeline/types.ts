import type { ArtifactRef, Manifest, RenderJob } from "../../../common/contract/render";
import type { Logger } from "../log";
import type { ProgressSink } from "../output/callbacks";
import type { Uploader } from "../output/uploader";

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
