import { balance } from "../storage/credits";
import { isCheckConstraintError, nowIso, openDb } from "../storage/db";
import { jobCreationBatch, type NewJob } from "../storage/jobs";
import type { JobLifecycle } from "./job-lifecycle";
import { isAbandoned, loadState, markAbandoned, saveState, type JobObject } from "./job-storage";

/** A job's birth and the id given up before one existed. Both run while JobState holds its serial chain. */

export type CreateJobResult =
  | { ok: true; state: JobLifecycle; created: boolean }
  | { ok: false; code: "insufficient_credits"; needed: number; available: number }
  /** abandon() ran first: no job may ever exist under this id (its Idempotency-Key was released). */
  | { ok: false; code: "abandoned" };

/** Reserves the credits and stores the job in one D1 batch. Idempotent: a second call returns the stored state. */
export async function createJob(o: JobObject, job: NewJob): Promise<CreateJobResult> {
  const existing = await loadState(o);
  if (existing) return { ok: true, state: existing, created: false };
  if (await isAbandoned(o)) return { ok: false, code: "abandoned" };
  const now = nowIso();
  const state: JobLifecycle = {
    job_id: job.job_id,
    account_id: job.account_id,
    status: "pending",
    progress: 0,
    stage: null,
    credit_cost: job.credit_cost,
    refunded_credits: 0,
    billed_vod_seconds: job.billed_vod_seconds,
    real_vod_seconds: null,
    error: null,
    created_at: now,
    updated_at: now,
    started_at: null,
    finished_at: null,
    artifacts_expires_at: null,
  };
  const db = openDb(o.env.DB);
  try {
    await db.batch(jobCreationBatch(db, job, state));
  } catch (error) {
    if (!isCheckConstraintError(error)) throw error;
    return { ok: false, code: "insufficient_credits", needed: job.credit_cost, available: await balance(db, job.account_id) };
  }
  await saveState(o, state);
  return { ok: true, state, created: true };
}

/**
 * Gives up this job id for a request that ended without a job, so its Idempotency-Key can be released: true
 * when no job exists (createJob then refuses the id for good) or the job failed at queueing with everything
 * refunded; false when a job exists (a concurrent request with the same key created it), and the key must keep
 * pointing at it.
 */
export async function abandonJob(o: JobObject): Promise<boolean> {
  const existing = await loadState(o);
  if (!existing) {
    await markAbandoned(o);
    return true;
  }
  return existing.status === "failed" && existing.error?.code === "queue_unavailable" && existing.refunded_credits === existing.credit_cost;
}
