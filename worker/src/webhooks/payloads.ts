import type { JobFailedPayload, JobRunningPayload } from "../../../common/contract/webhooks";
import type { JobLifecycle } from "../domain/job-lifecycle";
import { publishResults, type PublishedResults, type StoredResult } from "../dispatch/results";
import type { Env } from "../env";
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
  const baseUrl = env.PUBLIC_BASE_URL?.trim().replace(/\/+$/, "");
  if (!baseUrl) throw new Error("PUBLIC_BASE_URL is not set: job.completed links cannot be built");
  if (!env.LINK_SIGNING_KEY) throw new Error("LINK_SIGNING_KEY is not set: job.completed links cannot be signed");
  if (!row.resultJson) throw new Error(`completed job ${row.id} has no stored result`);
  return publishResults(
    { ...env, LINK_SIGNING_KEY: env.LINK_SIGNING_KEY },
    baseUrl,
    { id: row.id, artifacts_expires_at: row.artifactsExpiresAt },
    JSON.parse(row.resultJson) as StoredResult,
  );
}
