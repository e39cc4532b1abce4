import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { JOB_PLAN_VERSION, RenderTaskRequest, type JobPlan, type PlanMoment, type RenderTaskSpec } from "../../../common/contract/job-plan";
import type { RenderJob, RenderStage } from "../../../common/contract/render";
import { silentLogger } from "../../../render-container/src/log";
import { LocalDirUploader, type Uploader } from "../../../render-container/src/output/uploader";
import type { TaskContext } from "../../../render-container/src/pipeline/types";
import { ByteCounter } from "../../../render-container/src/source";
import { afterAll } from "vitest";
import { removeScratchUnlessFailed } from "../../support/scratch-dirs";
import { signals } from "./plan-fixtures";

/**
 * Folders the tests of one file made (task work folders, stores): removed after that file's tests unless one failed
 * (test/support/scratch-dirs.ts). A task's work folder holds its downloaded segments and renders; left behind, a
 * day's runs piled up about a thousand of them (4 GB) in the system temp folder. Registered while the importing
 * test file is collected, so it runs after that file's tests.
 */
const madeDirs: string[] = [];
afterAll(async ({}, suite) => {
  await removeScratchUnlessFailed(suite, madeDirs.splice(0));
});

/** A fresh folder in the system temp folder, removed after the importing file's tests (kept after a failure). */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  madeDirs.push(dir);
  return dir;
}

/** A plan moment of the balanced profile, as an analysis would write it. */
export function planMoment(id: string, start: number, end: number, peak: number, o: Partial<PlanMoment> = {}): PlanMoment {
  return { id, profile: "balanced", start, end, peak, score: 0.8, source: "auto", label: null, signals: signals(0.8), title: `Moment ${id}`, story: `What happened in ${id}.`, highlight: true, chat_profanity: [], ...o };
}

/** A hand-made job plan on the synthetic VOD's source rendition ("chunked"), with the given moments and tasks. */
export function handMadePlan(jobId: string, durationSeconds: number, moments: PlanMoment[], tasks: RenderTaskSpec[], o: Partial<JobPlan> = {}): JobPlan {
  return {
    version: JOB_PLAN_VERSION,
    job_id: jobId,
    source: { duration_seconds: durationSeconds, video_rendition: "chunked", format_switches: [] },
    languages: { stream: "en", metadata: "en" },
    captions: { burn: true, language: "en" },
    facecam: null,
    moments,
    reels: [],
    shorts: [],
    tasks,
    metadata: {},
    warnings: [],
    ...o,
  };
}

/** The request the Worker would send for one task of `plan` (validated by the contract's own schema). */
export function taskRequest(job: RenderJob, plan: JobPlan, taskId: string, attempt = 1): RenderTaskRequest {
  const spec = plan.tasks.find((t) => t.id === taskId);
  if (!spec) throw new Error(`no task ${taskId}`);
  return RenderTaskRequest.parse({ ...job, job_id: plan.job_id, task: { id: taskId, kind: spec.kind, attempt }, plan });
}

/**
 * A task context storing files in `store` (the folder uploader), recording the task's progress and the names it
 * stored and read (to hold against the files the Worker lets that task touch: common/plan/task-files.ts).
 */
export async function taskContext(store: string, signal = new AbortController().signal) {
  const workDir = await tempDir("task-work-");
  const progress: { stage: RenderStage; fraction: number }[] = [];
  const videoBytes = new ByteCounter();
  const files = new LocalDirUploader(store);
  const touched = { stored: [] as string[], read: [] as string[] };
  const uploader: Uploader = {
    put: (name, filePath) => (touched.stored.push(name), files.put(name, filePath)),
    fetchTo: (name, filePath) => (touched.read.push(name), files.fetchTo(name, filePath)),
  };
  const ctx: TaskContext = { signal, workDir, uploader, log: silentLogger, fetchImpl: fetch, progress: (stage, fraction) => progress.push({ stage, fraction }), videoBytes };
  return { ctx, progress, videoBytes, touched };
}
