import type { ArtifactRef, Manifest, RenderJob } from "../../../common/contract/render";
import type { Logger } from "../log";
import type { ProgressSink } from "../output/callbacks";

export interface JobContext {
  signal: AbortSignal;
  /** Private scratch folder of this job; deleted when the job ends. */
  workDir: string;
  reporter: ProgressSink;
  log: Logger;
  fetchImpl: typeof fetch;
}

export interface JobResult {
  manifest: Manifest;
  artifacts: ArtifactRef[];
}

export type JobRunner = (job: RenderJob, ctx: JobContext) => Promise<JobResult>;
