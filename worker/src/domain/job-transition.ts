import type { JobError, JobStatus } from "../../../common/contract";

/**
 * What a job's status changes look like to those who act on them (the webhook outbox): plain data, so that
 * webhooks/ needs nothing from the JobState object that produces them (orchestration/job-state.ts).
 */

/** The mutable part of a job: what its JobState Durable Object owns and mirrors into D1. */
export interface JobLifecycle {
  job_id: string;
  account_id: string;
  status: JobStatus;
  progress: number;
  stage: string | null;
  /** Credits reserved for the job: the price at acceptance plus any difference reserved for a longer VOD. */
  credit_cost: number;
  refunded_credits: number;
  /**
   * The VOD length credit_cost's processing part is for, and the real length once the analysis measured it
   * (domain/vod-length.ts). Absent on objects created before the real length was billed.
   */
  billed_vod_seconds?: number | null;
  real_vod_seconds?: number | null;
  error: JobError | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  artifacts_expires_at: string | null;
}

/** A status change of one job, after it is stored in the object and mirrored into D1. */
export interface JobTransition {
  job_id: string;
  account_id: string;
  from: JobStatus;
  to: JobStatus;
  /** Why: the call that caused it. */
  cause: "started" | "progress" | "completed" | "failed" | "cancelled";
  /** Credits returned by this transition (0 unless it is a failure or a cancel). */
  refund_credits: number;
  state: JobLifecycle;
}
