import type { ArtifactRef } from "../../../common/contract";
import type { NormalizedJobRequest } from "../../../common/contract/normalized-request";
import type { JobPlan, TaskResult } from "../../../common/contract/job-plan";
import { VodInfo } from "../../../common/contract/render";
import { workerConfig } from "../config";
import { analysisExpiry, analysisOptionsHash } from "../domain/analysis-reuse";
import { registerAnalysis } from "../storage/analyses";
import { billedOutputs, undeliveredCredits } from "../domain/pricing";
import { atCompletion, type LengthDecrease } from "../domain/vod-length";
import { openDb } from "../storage/db";
import { findJobById } from "../storage/jobs";
import { finaliseInWorker } from "./finalise";
import { completeStep, type JobLifecycle } from "./job-lifecycle";
import { loadPlan, loadResult, loadState, type JobObject } from "./job-storage";
import type { StepFn, StepRule } from "./job-transitions";
import type { TaskRecord } from "./task-book";

/**
 * Completion and its refunds: when every render task is done, the job's last step (metadata.json and
 * manifest.json, finalise.ts) runs here, and the job completes with what it did not deliver given back.
 */

/**
 * What a completion gives back: the price of billed reels and shorts the renderer did not deliver, and the
 * difference when the VOD turned out shorter than billed (known once the analysis measured it).
 */
export async function completionRefunds(o: JobObject, state: JobLifecycle, artifacts: readonly ArtifactRef[]): Promise<{ undelivered: number; length: LengthDecrease | null }> {
  const row = await findJobById(openDb(o.env.DB), state.job_id);
  if (!row) return { undelivered: 0, length: null };
  const request = JSON.parse(row.requestJson) as NormalizedJobRequest;
  const count = (kind: ArtifactRef["kind"]) => artifacts.filter((a) => a.kind === kind).length;
  const undelivered = undeliveredCredits(billedOutputs(request), { reels: count("reel"), shorts: count("short") });
  const real = state.real_vod_seconds ?? null;
  const billed = state.billed_vod_seconds ?? row.billedVodSeconds;
  // A job reusing an earlier analysis was charged no processing credits: there is no length difference to give back.
  const settles = real !== null && billed !== null && !row.analysisReusedFrom;
  return { undelivered, length: settles ? atCompletion(request, billed, real) : null };
}

/** The completion rule for these files, with the refunds they call for. */
export async function completionRule(o: JobObject, artifacts: readonly ArtifactRef[]): Promise<StepRule> {
  const refunds = await completionRefunds(o, (await loadState(o))!, artifacts);
  return (s, now) => completeStep(s, now, refunds.undelivered, refunds.length);
}

/** Every render task is done: the results are finalised into the job's manifest and the job completes. */
export async function finishJob(o: JobObject, book: readonly TaskRecord[], step: StepFn): Promise<void> {
  const plan = (await loadPlan(o))!;
  const results = await Promise.all(book.filter((t) => t.kind !== "analyse").map((t) => loadResult(o, t.id)));
  const state = (await loadState(o))!;
  const finalised = await finaliseInWorker(o.env.ARTIFACTS, state.job_id, plan, results.filter((r): r is TaskResult => !!r));
  await step("completed", await completionRule(o, finalised.artifacts), JSON.stringify({ manifest: finalised.manifest, artifacts: finalised.artifacts }));
  await indexStoredAnalysis(o, plan);
}

/**
 * A completed job's stored analysis becomes reusable by the account's later jobs on the VOD: indexed with its
 * expiry (the reuse window, never past the job's files). A job accepted without a probe is not indexed (a later
 * job could not check that the VOD is the same). Failing to index costs this job nothing: it is logged.
 */
async function indexStoredAnalysis(o: JobObject, plan: JobPlan): Promise<void> {
  const stored = plan.analysis?.stored;
  const state = (await loadState(o))!;
  if (!stored || state.status !== "completed") return;
  const reuseHours = workerConfig(o.env).analysisReuseHours;
  try {
    const db = openDb(o.env.DB);
    const row = await findJobById(db, state.job_id);
    if (!row?.vodJson || reuseHours <= 0) return;
    const request = JSON.parse(row.requestJson) as NormalizedJobRequest;
    await registerAnalysis(db, {
      jobId: row.id,
      accountId: row.accountId,
      vodId: row.vodId,
      analysisVersion: stored.version,
      optionsHash: await analysisOptionsHash(request),
      objectName: stored.name,
      probedDurationSeconds: VodInfo.parse(JSON.parse(row.vodJson)).duration_seconds,
      vodDurationSeconds: stored.duration_seconds,
      analysedAt: stored.analysed_at,
      expiresAt: analysisExpiry(stored.analysed_at, reuseHours, state.artifacts_expires_at),
    });
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "stored analysis not indexed", job_id: state.job_id, error: String(error) }));
  }
}
