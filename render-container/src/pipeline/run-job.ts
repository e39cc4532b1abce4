import path from "node:path";
import { rm, writeFile } from "node:fs/promises";
import { ANALYSE_TASK_ID, type JobPlan, type RenderTaskRequest, type RenderTaskSpec, type TaskResult } from "../../../common/contract/job-plan";
import type { RenderJob, RenderStage } from "../../../common/contract/render";
import { finaliseJob } from "../../../common/plan/finalise";
import type { RendererConfig } from "../config";
import type { ProgressSink } from "../output/callbacks";
import { LocalDirUploader, type Uploader } from "../output/uploader";
import { mapLimit } from "../render/pool";
import { ByteCounter } from "../source";
import { runAnalysisTask, type AnalysisStats } from "./analyse-task";
import { ANALYSIS_END_PERCENT, RENDER_END_PERCENT } from "./progress";
import { runRenderTask } from "./render-task";
import type { JobContext, JobResult } from "./types";

export interface RunStats {
  bytesDownloaded: { audio: number; video: number };
  stageSeconds: Record<string, number>;
  /** When each stage ran, seconds from the job's start. */
  stageWindows?: Record<string, { start: number; end: number }>;
  /** Per render task: wall seconds and video bytes it downloaded. */
  tasks?: { id: string; kind: RenderTaskSpec["kind"]; seconds: number; video_bytes: number }[];
}

export type RunJobSettings = Pick<RendererConfig, "downloadConcurrency" | "maxVideoBytesPerJob" | "encodeConcurrency" | "env"> & { splitAnalysisAboveSeconds?: number };

/**
 * A whole job in this one process, as the fanned-out job runs it: the analysis task (-> the job plan), then every
 * render task of the plan (each reel's join after its moments), then the finalising step that writes
 * metadata.json and manifest.json (common/plan, the same code the Worker runs). Used by POST /jobs, the render
 * CLI and the benchmark. Render tasks run `encodeConcurrency` at a time, longest first; reel parts stay in the
 * work folder (they are intermediate) and every other file goes to `ctx.uploader`.
 */
export async function runRenderJob(job: RenderJob, ctx: JobContext, config: RunJobSettings, stats?: RunStats): Promise<JobResult> {
  const timings: Record<string, number> = {};
  const windows: Record<string, { start: number; end: number }> = {};
  const jobStart = performance.now();
  const timed = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      const t1 = performance.now();
      timings[name] = (t1 - t0) / 1000;
      windows[name] = { start: (t0 - jobStart) / 1000, end: (t1 - jobStart) / 1000 };
    }
  };

  const analysis: AnalysisStats = { bytesDownloaded: { audio: 0, video: 0, facecam: 0 }, stageSeconds: {}, facecamSample: null };
  const plan = await timed("analyse", () => runAnalysisTask(taskRequest(job, null, { id: ANALYSE_TASK_ID, kind: "analyse" }), ctx, config, analysis));
  // The job is billed for the VOD's real length: nothing is rendered before the Worker has settled it (a job it
  // failed for want of credits aborts ctx.signal).
  await ctx.reporter.analysed?.(plan.source.duration_seconds);
  ctx.signal.throwIfAborted();

  const bar = new TasksProgress(plan.tasks, ctx.reporter);
  const uploader = keepPartsLocal(ctx.uploader, path.join(ctx.workDir, "parts"));
  const taskStats: NonNullable<RunStats["tasks"]> = [];
  const run = async (spec: RenderTaskSpec, _i: number, signal: AbortSignal): Promise<TaskResult> => {
    const workDir = path.join(ctx.workDir, "tasks", spec.id);
    const videoBytes = new ByteCounter();
    const t0 = performance.now();
    try {
      // The tasks themselves run side by side, so each encodes one piece at a time.
      const result = await runRenderTask(
        taskRequest(job, plan, spec),
        { signal, workDir, uploader, log: ctx.log.child({ task_id: spec.id }), fetchImpl: ctx.fetchImpl, videoBytes, progress: (stage, f) => bar.report(spec.id, stage, f) },
        { ...config, encodeConcurrency: 1 },
      );
      taskStats.push({ id: spec.id, kind: spec.kind, seconds: (performance.now() - t0) / 1000, video_bytes: videoBytes.total });
      return result;
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  };
  const longestFirst = (tasks: RenderTaskSpec[]) => [...tasks].sort((a, b) => b.expected_encode_seconds - a.expected_encode_seconds);
  const pieces = await timed("render", () => mapLimit(longestFirst(plan.tasks.filter((t) => t.kind !== "reel_join")), config.encodeConcurrency, run, ctx.signal));
  const joins = await timed("join", () => mapLimit(plan.tasks.filter((t) => t.kind === "reel_join"), config.encodeConcurrency, run, ctx.signal));
  await rm(path.join(ctx.workDir, "parts"), { recursive: true, force: true });

  ctx.reporter.progress("finalising", RENDER_END_PERCENT);
  const { manifest, artifacts } = await timed("finalise", () =>
    finaliseJob(plan, [...pieces, ...joins], async (name, body) => {
      const file = path.join(ctx.workDir, name);
      await writeFile(file, body);
      return ctx.uploader.put(name, file, "application/json", ctx.signal);
    }),
  );

  const videoBytes = analysis.bytesDownloaded.video + analysis.bytesDownloaded.facecam + taskStats.reduce((s, t) => s + t.video_bytes, 0);
  if (stats) {
    stats.bytesDownloaded = { audio: analysis.bytesDownloaded.audio, video: videoBytes };
    stats.stageSeconds = { ...analysis.stageSeconds, ...timings };
    stats.stageWindows = windows;
    stats.tasks = taskStats;
  }
  ctx.log.info("job rendered", { timings, audio_bytes: analysis.bytesDownloaded.audio, video_bytes: videoBytes, tasks: plan.tasks.length, artifacts: artifacts.length });
  return { manifest, artifacts };
}

/** The request the Worker would send for one task of this job. */
function taskRequest(job: RenderJob, plan: JobPlan | null, task: Pick<RenderTaskSpec, "id"> & { kind: RenderTaskRequest["task"]["kind"] }): RenderTaskRequest {
  return { ...job, task: { id: task.id, kind: task.kind, attempt: 1 }, plan };
}

/** Reel parts (`part-*`) go to a local folder, where their join reads them back; everything else to `store`. */
function keepPartsLocal(store: Uploader, dir: string): Uploader {
  const parts = new LocalDirUploader(dir);
  const local = (name: string) => name.startsWith("part-");
  return {
    put: (name, file, contentType, signal) => (local(name) ? parts.put(name, file) : store.put(name, file, contentType, signal)),
    fetchTo: (name, file, signal) => (local(name) ? parts.fetchTo(name, file) : store.fetchTo(name, file, signal)),
  };
}

/**
 * The render tasks' progress on the whole job's bar, after the analysis: each task's own fraction weighted by
 * the seconds it encodes (as the Worker weights them), so the bar moves with the work and never back; the stage
 * shown is that of the task that reported last.
 */
class TasksProgress {
  private readonly weight = new Map<string, number>();
  private readonly done = new Map<string, number>();
  private readonly total: number;
  private last = 0;

  constructor(tasks: readonly RenderTaskSpec[], private readonly sink: ProgressSink) {
    // A join encodes nothing but still takes a moment: never weighed as nothing.
    for (const t of tasks) this.weight.set(t.id, Math.max(0.5, t.expected_encode_seconds));
    this.total = [...this.weight.values()].reduce((a, b) => a + b, 0) || 1;
  }

  report(id: string, stage: RenderStage, fraction: number): void {
    this.done.set(id, Math.max(this.done.get(id) ?? 0, fraction));
    const share = [...this.done].reduce((s, [task, f]) => s + f * (this.weight.get(task) ?? 0), 0) / this.total;
    const percent = ANALYSIS_END_PERCENT + (RENDER_END_PERCENT - ANALYSIS_END_PERCENT) * Math.min(1, share);
    if (percent < this.last) return;
    this.last = percent;
    this.sink.progress(stage, percent);
  }
}
