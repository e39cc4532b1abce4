import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { ArtifactRef, JobAck } from "../../common/contract";
import { ANALYSE_TASK_ID, type JobPlan, type RenderTaskRequest, type TaskResult } from "../../common/contract/job-plan";
import type { RenderStage } from "../../common/contract/render";
import type { StoredResult } from "../../worker/src/artifacts/results";
import { buildTaskRequest, dispatchSettings } from "../../worker/src/orchestration/render-job";
import { ANALYSIS_SHARE } from "../../worker/src/orchestration/task-book";
import type { TaskClaim } from "../../worker/src/orchestration/task-dispatch";
import { openDb } from "../../worker/src/storage/db";
import { findJobById } from "../../worker/src/storage/jobs";
import { ACCEPT_MARKER } from "./doubles-protocol";
import { minimalJob } from "./helpers";
import { createJob, jobState, rendererAnswers, startedJob, type RenderedFile } from "./job-steps";
import { FIRST_TASKS, taskEvent, testPlan, waitForStart } from "./task-flow";

/**
 * Puts a job into the state a test needs the way production gets it there: the renderer's task events through
 * the Worker's real route, signed with the task attempt's token, and files stored in R2 as a render leaves them. The
 * Durable Object is only called as production calls it (the queue consumer's claim, in claimedJob), so a test's
 * setup cannot reach a state the renderers could not report. The steps (a started job, the test plan, a render
 * task's events) are job-steps.ts and task-flow.ts; this module puts them together into states:
 *
 *   claimedJob        the analysis handed to a renderer that reports before the start is confirmed: pending
 *   runningJob        the analysis task started: running, progress 0
 *   reachProgress     the job's percent exactly N (the analysis owns the first 20 %, render tasks the rest)
 *   startOnlyTask     the analysis done, its plan's one render task started (completeWith sends its result)
 *   completeWith      completed, delivering the given stored files (plus the finalising step's two documents)
 *   completeSmall     completeWith SMALL_FILES (a reel, a short, its captions), stored in R2
 *   completeAtOnce    completed by the analysis itself: its plan has no render task
 *   failJob           failed by a renderer's fatal report
 */

/** Request fields that make the renderer double accept a job delivered by the real queue (POST /jobs unchanged). */
export const ACCEPTED = { streamer_name: ACCEPT_MARKER } as const;

/** The analysis task as the renderer double received it from the real queue (jobs created with ACCEPTED). */
export function analysisStart(jobId: string): Promise<RenderTaskRequest> {
  return waitForStart(jobId, ANALYSE_TASK_ID);
}

/** The job's status, percent and stage as D1 holds them (what GET /jobs/{id} answers). */
export async function jobRow(jobId: string): Promise<{ status: string; progress: number; stage: string | null }> {
  return (await env.DB.prepare("SELECT status, progress, stage FROM jobs WHERE id = ?").bind(jobId).first())!;
}

/**
 * A job whose analysis task was claimed and handed to a renderer that reports before the queue consumer has
 * confirmed the start (a fast renderer): still pending, so its first report is what starts it. The task request
 * is the one the consumer builds (buildTaskRequest); retries go through the real queue to the renderer double.
 */
export async function claimedJob(apiKey: string, body: Record<string, unknown> = minimalJob()): Promise<{ ack: JobAck; render: RenderTaskRequest }> {
  const { ack } = await createJob(apiKey, body);
  await rendererAnswers(ack.id, 202);
  const claim = (await jobState(ack.id).claimTask(ANALYSE_TASK_ID)) as TaskClaim;
  if (!claim.ok) throw new Error(`the analysis of ${ack.id} could not be claimed: ${claim.reason}`);
  const row = (await findJobById(openDb(env.DB), ack.id))!;
  const render = await buildTaskRequest(env, dispatchSettings(env), row, { id: ANALYSE_TASK_ID, kind: claim.kind, attempt: claim.attempt }, null);
  expect((await jobRow(ack.id)).status).toBe("pending");
  return { ack, render };
}

/** A job whose analysis task reported `started`: running at 0 %. */
export async function runningJob(apiKey: string, body: Record<string, unknown> = minimalJob()): Promise<{ ack: JobAck; render: RenderTaskRequest }> {
  const started = await startedJob(apiKey, body);
  expect(await taskEvent(started.render, { type: "started" })).toMatchObject({ accepted: true, status: "running", progress: 0 });
  return started;
}

/** The test plan at the VOD's length as the analysis measured it (so the real length settles nothing). */
export function planFor(analysis: RenderTaskRequest, base: (jobId: string) => JobPlan = testPlan): JobPlan {
  const plan = base(analysis.job_id);
  return { ...plan, source: { ...plan.source, duration_seconds: analysis.vod.duration_seconds } };
}

/**
 * Brings a running job's percent to exactly `percent` (0-97) through progress reports. Below the analysis' share
 * the analysis reports it; from there the analysis returns the test plan and its three first render tasks (started
 * through the real queue) report the same fraction. Returns those render tasks' starts (none below the share).
 */
export async function reachProgress(analysis: RenderTaskRequest, percent: number, stage?: RenderStage): Promise<RenderTaskRequest[]> {
  // +0.5: the percent the Durable Object floors lands in the middle of the wanted integer, clear of rounding.
  const target = percent + 0.5;
  let starts: RenderTaskRequest[] = [];
  if (target < ANALYSIS_SHARE) {
    await taskEvent(analysis, { type: "progress", stage: stage ?? "analysing", fraction: target / ANALYSIS_SHARE });
  } else {
    const plan = planFor(analysis);
    await taskEvent(analysis, { type: "completed", result: { kind: "analyse", plan } });
    starts = await Promise.all(FIRST_TASKS.map((id) => waitForStart(analysis.job_id, id)));
    // Render tasks share (99 - the analysis' share) by weight (expected encode seconds + 1), the join included.
    const weight = (ids: readonly string[]) => plan.tasks.filter((t) => ids.includes(t.id)).reduce((s, t) => s + t.expected_encode_seconds + 1, 0);
    const fraction = ((target - ANALYSIS_SHARE) / (99 - ANALYSIS_SHARE)) * (weight(plan.tasks.map((t) => t.id)) / weight(FIRST_TASKS));
    expect(fraction, `${percent} % is beyond what the first render tasks can report`).toBeLessThan(1);
    for (const s of starts) {
      await taskEvent(s, { type: "started" });
      await taskEvent(s, { type: "progress", stage: stage ?? "rendering_shorts", fraction });
    }
  }
  expect(await jobRow(analysis.job_id)).toMatchObject({ status: "running", progress: percent });
  return starts;
}

/** A plan of one render task (short 1) that will deliver whatever files its result names; no reel. */
function oneTaskPlan(jobId: string): JobPlan {
  const plan = testPlan(jobId);
  return { ...plan, reels: [], tasks: plan.tasks.filter((t) => t.id === "short-01") };
}

/**
 * Completes a job whose analysis was dispatched, through the task path: the analysis returns a plan of one render
 * task, which (started through the real queue) reports `refs` as its files; the Worker's finalising step adds
 * metadata.json and manifest.json. The files must be stored already (uploadFiles, or R2 for large ones).
 */
export async function completeWith(analysis: RenderTaskRequest, refs: readonly ArtifactRef[]): Promise<StoredResult> {
  const render = await startOnlyTask(analysis);
  await taskEvent(render, { type: "completed", result: onlyTaskResult(render, refs) });
  return completedResult(analysis.job_id);
}

/** A completed job's stored result (manifest and the files it lists) as D1 holds it for the results endpoint. */
export async function completedResult(jobId: string): Promise<StoredResult> {
  const row = await env.DB.prepare("SELECT status, result_json FROM jobs WHERE id = ?").bind(jobId).first<{ status: string; result_json: string | null }>();
  expect(row?.status).toBe("completed");
  return JSON.parse(row!.result_json!) as StoredResult;
}

/** The analysis returns the one-task plan; its render task starts through the real queue and reports `started`. */
export async function startOnlyTask(analysis: RenderTaskRequest): Promise<RenderTaskRequest> {
  await taskEvent(analysis, { type: "completed", result: { kind: "analyse", plan: planFor(analysis, oneTaskPlan) } });
  const render = await waitForStart(analysis.job_id, "short-01");
  await taskEvent(render, { type: "started" });
  return render;
}

/** The one-task plan's result naming `refs` (the task's last report: it completes the job). */
export function onlyTaskResult(render: RenderTaskRequest, refs: readonly ArtifactRef[]): TaskResult {
  const spec = render.plan!.tasks.find((t) => t.id === render.task.id);
  if (spec?.kind !== "short") throw new Error(`${render.task.id} is not the one-task plan's short`);
  return { kind: "short", artifacts: [...refs], moment: { id: spec.moment_id, start: spec.start, end: spec.end } };
}

/**
 * Completes a job with the analysis' own report: its plan has no render task (nothing worth a video), so the
 * finalising step runs at once. From a pending job this one report takes it through running to completed.
 */
export async function completeAtOnce(analysis: RenderTaskRequest): Promise<void> {
  const nothing = (jobId: string): JobPlan => ({ ...testPlan(jobId), moments: [], reels: [], shorts: [], tasks: [] });
  await taskEvent(analysis, { type: "completed", result: { kind: "analyse", plan: planFor(analysis, nothing) } });
  expect((await jobRow(analysis.job_id)).status).toBe("completed");
}

/** The renderer reports that the input itself is the problem (not retryable): the job fails with every credit back. */
export async function failJob(analysis: RenderTaskRequest, error: { code: string; message: string }): Promise<void> {
  await taskEvent(analysis, { type: "failed", retryable: false, error });
  expect((await jobRow(analysis.job_id)).status).toBe("failed");
}

/** A small finished render: one reel, one short and its captions, contents a few bytes each. */
export const SMALL_FILES: readonly RenderedFile[] = [
  small({ name: "reel-balanced.mp4", kind: "reel", content_type: "video/mp4", run_name: "balanced", title: "Best of", duration_seconds: 60 }, "reel-bytes!"),
  small({ name: "short-01.mp4", kind: "short", content_type: "video/mp4", index: 1, title: "Clutch", duration_seconds: 30, tags: ["celeste"] }, "short"),
  small({ name: "short-01.srt", kind: "captions", content_type: "application/x-subrip", index: 1 }, "1\n00:00:00,000 --> 00:00:01,0\n"),
];

function small(ref: Partial<ArtifactRef> & Pick<ArtifactRef, "name" | "kind" | "content_type">, text: string): RenderedFile {
  const bytes = new TextEncoder().encode(text);
  return { ref: { run_name: null, index: null, title: null, duration_seconds: null, tags: null, ...ref, size_bytes: bytes.byteLength }, bytes };
}

/**
 * Stores files in the job's folder in R2 (through the binding), as a render would have stored them. Not through
 * the upload route: a task may store only the files it makes (common/plan/task-files.ts), and the one-task plan's
 * short does not make a reel; the routes themselves are tested in task-events, multipart-uploads and
 * task-storage-scope.test.ts.
 */
export async function uploadFiles(analysis: RenderTaskRequest, files: readonly RenderedFile[]): Promise<ArtifactRef[]> {
  for (const f of files) await env.ARTIFACTS.put(`jobs/${analysis.job_id}/${f.ref.name}`, f.bytes, { httpMetadata: { contentType: f.ref.content_type } });
  return files.map((f) => f.ref);
}

/** A started job completed with SMALL_FILES (stored in R2), as a small render would deliver them. */
export async function completeSmall(analysis: RenderTaskRequest): Promise<StoredResult> {
  return completeWith(analysis, await uploadFiles(analysis, SMALL_FILES));
}
