import type { JobLifecycle } from "../domain/job-lifecycle";
import { publishResults, type PublishedResults, type StoredResult } from "../dispatch/results";
import type { Env } from "../env";
import type { JobRow } from "../storage/schema";

/** job.running: the job was picked up (spec part 6 leaves the payload open). */
export interface RunningPayload {
  job_id: string;
  status: "running";
  started_at: string | null;
  stage: string | null;
  progress: number;
}

/** job.failed: failure or cancellation; `error` is the human message, `error_code` the stable code. */
export interface FailedPayload {
  job_id: string;
  status: "failed";
  error: string;
  error_code: string;
  refunded_credits: number;
}

/** job.completed: identical to GET /jobs/{id}/results (deliverables, zip_url, links_expire_at, manifest). */
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
