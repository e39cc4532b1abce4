import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { RenderJob, RenderStage } from "../../common/contract/render";
import type { Logger } from "../../render-container/src/log";
import { TaskProcesses } from "../../render-container/src/ffmpeg/task-processes";
import { LocalDirUploader } from "../../render-container/src/output/uploader";
import type { AnalysisStats } from "../../render-container/src/pipeline/analyse-task";
import { runTask, type TaskSettings } from "../../render-container/src/pipeline/run-task";
import { ByteCounter } from "../../render-container/src/source";
import { runJob, type JobRun, type TaskExecutor } from "./run-job";

/**
 * The renderer's task code run in this process, as its POST /tasks runs it (render-container/src/main.ts:
 * runTask on a fresh work folder that is removed afterwards), with a folder standing in for R2: files go there
 * and a reel's join reads its parts back from there.
 */

export interface InProcessFigures {
  /** Video bytes a render task downloaded. */
  videoBytes: number;
  /** The analysis task's own figures (bytes, stage seconds); null for render tasks. */
  analysis: AnalysisStats | null;
}

export interface InProcessOptions {
  settings: TaskSettings;
  /** Stands in for R2: where every file goes (reel parts too, until the finalising step deletes them). */
  filesDir: string;
  /** Each task gets a work folder of its own under this one. */
  workRoot: string;
  log: Logger;
  /** A task's stage and its own fraction done (0..1), as it would report them to the Worker. */
  onProgress?: (taskId: string, stage: RenderStage, fraction: number) => void;
  fetchImpl?: typeof fetch;
}

export function inProcessTasks(opts: InProcessOptions): TaskExecutor<InProcessFigures> {
  const uploader = new LocalDirUploader(opts.filesDir);
  return async (req, signal) => {
    const workDir = await mkdtemp(path.join(opts.workRoot, `${req.task.id}-`));
    const videoBytes = new ByteCounter();
    const analysis: AnalysisStats | null = req.task.kind === "analyse" ? { bytesDownloaded: { audio: 0, video: 0, facecam: 0 }, stageSeconds: {}, facecamSample: null } : null;
    // As on the renderer's task registry: once the task is stopped no child may start, and the folder goes only
    // after every child has exited.
    const processes = new TaskProcesses();
    const stop = () => void processes.close(signal.reason instanceof Error ? signal.reason : new Error("cancelled"));
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
    try {
      const result = await processes.run(() => runTask(
        req,
        {
          signal,
          workDir,
          progress: (stage, fraction) => opts.onProgress?.(req.task.id, stage, fraction),
          uploader,
          log: opts.log.child({ task_id: req.task.id }),
          fetchImpl: opts.fetchImpl ?? fetch,
          videoBytes,
          ...(analysis ? { analysisStats: analysis } : {}),
        },
        opts.settings,
      ));
      return { result, figures: { videoBytes: videoBytes.total, analysis } };
    } finally {
      signal.removeEventListener("abort", stop);
      await processes.close(new Error("the task has ended"));
      await rm(workDir, { recursive: true, force: true });
    }
  };
}

export interface LocalJobRun extends JobRun<InProcessFigures> {
  /** CDN bytes of the whole job: the audio rendition, and every video byte (facecam sample included). */
  bytesDownloaded: { audio: number; video: number };
}

/**
 * A whole job in this process into `outDir`: `settings.encodeConcurrency` render tasks at once, each encoding
 * one piece at a time (the tasks themselves run side by side). The reel parts are deleted at the end, as the
 * Worker deletes them from R2.
 */
export async function runJobInProcess(job: RenderJob, opts: Omit<InProcessOptions, "filesDir" | "workRoot"> & { outDir: string; workDir: string; signal?: AbortSignal }): Promise<LocalJobRun> {
  await mkdir(opts.outDir, { recursive: true });
  const runTask = inProcessTasks({ ...opts, settings: { ...opts.settings, encodeConcurrency: 1 }, filesDir: opts.outDir, workRoot: opts.workDir });
  const run = await runJob(job, {
    runTask,
    oneProcess: true,
    concurrency: opts.settings.encodeConcurrency,
    signal: opts.signal,
    writeDocument: async (name, body) => {
      await writeFile(path.join(opts.outDir, name), body);
      return { size_bytes: Buffer.byteLength(body) };
    },
  });
  for (const name of await readdir(opts.outDir)) if (name.startsWith("part-")) await rm(path.join(opts.outDir, name), { force: true });
  const analysis = run.analysis.figures.analysis!;
  const video = analysis.bytesDownloaded.video + analysis.bytesDownloaded.facecam + run.tasks.reduce((s, t) => s + t.figures.videoBytes, 0);
  return { ...run, bytesDownloaded: { audio: analysis.bytesDownloaded.audio, video } };
}
