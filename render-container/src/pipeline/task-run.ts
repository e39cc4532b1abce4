import type { RenderJob } from "../../../common/contract/render";
import type { JobProgress } from "./progress";
import type { JobContext } from "./types";

/**
 * What every stage of one task shares, passed along whole: the job it belongs to, where it runs (signal, work
 * folder, uploader, log), its progress and the renderer's settings the stages read.
 */
export interface TaskRun {
  job: RenderJob;
  ctx: JobContext;
  progress: JobProgress;
  env: NodeJS.ProcessEnv;
  /** Segments fetched at once (DOWNLOAD_CONCURRENCY). */
  downloadConcurrency: number;
}
