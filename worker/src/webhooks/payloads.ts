import type { JobFailedPayload, JobRunningPayload } from "../../../common/contract/webhooks";
import type { JobLifecycle } from "../domain/job-transition";
import { publishResults, type PublishedResults, type StoredResult } from "../artifacts/results";
import { workerConfig } from "../config";
import type { Env } from "../env";
import { logEvent } from "../lib/log";
import { openDb } from "../storage/db";
import { filesGoneAt } from "../artifacts/expired";
import { findJobById } from "../storage/jobs";
import type { JobRow } from "../storage/schema";

/** Payload shapes are the contract's (common/contract/webhooks.ts), the same ones the OpenAPI document shows. */
export type RunningPayload = JobRunningPayload;
export type FailedPayload = JobFailedPayload;
export type CompletedPayload = PublishedResults;

export function runningPayload(s: JobLifecycle): RunningPayload {
  return { job_id: s.job_id, status: "running", started_at: s.started_at, stage: s.stage, progress: s.progress };
}

export function failedPayload(s: JobLifecycle): FailedPayload {
  return {
    job_id: s.job_id,
    status: "failed",
    error: s.error?.message ?? "The job failed.",
    error_code: s.error?.code ?? "failed",
    refunded_credits: s.refunded_credits,
  };
}

/** Links in a webhook are built from PUBLIC_BASE_URL: there is no incoming request to take an origin from. */
export async function completedPayload(env: Env, row: JobRow): Promise<CompletedPayload> {
  const baseUrl = workerConfig(env).publicBaseUrl;
  if (!baseUrl) throw new Error("PUBLIC_BASE_URL is not set: job.completed links cannot be built");
  if (!env.LINK_SIGNING_KEY) throw new Error("LINK_SIGNING_KEY is not set: job.completed links cannot be signed");
  if (!row.resultJson) throw new Error(`completed job ${row.id} has no stored result`);
  return publishResults(
    { ...env, LINK_SIGNING_KEY: env.LINK_SIGNING_KEY },
    baseUrl,
    { id: row.id, artifacts_expires_at: row.artifactsExpiresAt, refunded_credits: row.refundedCredits },
    JSON.parse(row.resultJson) as StoredResult,
  );
}

/**
 * The body one attempt sends. job.completed carries signed links that expire (LINK_TTL_SECONDS), and a retry or a
 * redelivery can go out hours or days after the event, so its payload is rebuilt from the job's stored result for
 * every attempt: the same event and shape, links signed at send time. job.running and job.failed carry no links and
 * go out as stored. The stored body is also sent when the files are already deleted (retention) or the links cannot
 * be built (a logged misconfiguration): a stale body beats no delivery.
 */
export async function bodyForAttempt(env: Env, jobId: string, d: { event: string; body: string; id?: string }): Promise<string> {
  if (d.event !== "job.completed") return d.body;
  try {
    const row = await findJobById(openDb(env.DB), jobId);
    if (!row || row.status !== "completed" || filesGoneAt(row)) return d.body;
    return JSON.stringify({ event: d.event, payload: await completedPayload(env, row) });
  } catch (error) {
    logEvent("warn", "job.completed links could not be re-signed; sending the stored body", {
      job_id: jobId,
      delivery_id: d.id,
      error: error instanceof Error ? error.message : String(error),
    });
    return d.body;
  }
}
