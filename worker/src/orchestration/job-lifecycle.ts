import type { JobError, JobStatus } from "../../../common/contract";
import { cancelRefundCredits } from "../domain/refund-tiers";
import type { LengthDecrease } from "../domain/vod-length";
import type { LedgerPurpose } from "../storage/schema";
import type { JobLifecycle } from "../domain/job-transition";

/** Files are kept this long after the job last changed (docs/API.md, Retention). */
export const ARTIFACT_RETENTION_DAYS = 30;

/**
 * Days after upload at which the bucket's lifecycle rule deletes a job's files (`wrangler r2 bucket lifecycle add
 * highlight-artifacts expire-jobs jobs/ --expire-days 31`, a deploy step; test/dev/deploy-steps.test.ts holds the
 * step to this). One day past the retention: every file is uploaded before its job completes, and R2 deletes
 * "within 24 hours" of the age, so no file goes before artifacts_expires_at (completion + 30 days) as long as a
 * job completes within a day of its first upload. The hourly cron only marks records (cron/retention.ts).
 */
export const LIFECYCLE_EXPIRE_DAYS = ARTIFACT_RETENTION_DAYS + 1;

export type { JobLifecycle } from "../domain/job-transition";

export const CANCELLED_BY_USER: JobError = { code: "cancelled_by_user", message: "Cancelled by user" };

/** One refund ledger entry of a step; a step without parts refunds `refund` as one entry with a reason by cause. */
export interface RefundPart {
  amount: number;
  purpose: LedgerPurpose | null;
  reason: string;
}

export type Step =
  | { ok: true; next: JobLifecycle; refund: number; parts?: RefundPart[] }
  | { ok: false; reason: "terminal" | "invalid_transition" | "unchanged" };

export const isTerminal = (status: JobStatus): boolean => status === "completed" || status === "failed";

/**
 * Pure transition rules of a job's status (docs/API.md, Job record). Each returns the next state (and credits
 * to refund) or why nothing changes. Later calls after a terminal state are answered with `terminal` and change
 * nothing.
 */
export function startStep(s: JobLifecycle, now: string): Step {
  if (isTerminal(s.status)) return { ok: false, reason: "terminal" };
  if (s.status === "running") return { ok: false, reason: "invalid_transition" };
  return { ok: true, refund: 0, next: { ...s, status: "running", started_at: now, updated_at: now } };
}

/**
 * Progress never goes backwards; a report while pending means a worker has picked the job up. A report that
 * changes nothing is not written (renderers repeat themselves; D1 and updated_at should not churn).
 */
export function progressStep(s: JobLifecycle, stage: string, percent: number, now: string): Step {
  if (isTerminal(s.status)) return { ok: false, reason: "terminal" };
  const reported = Number.isFinite(percent) ? Math.min(100, Math.max(0, Math.floor(percent))) : s.progress;
  const progress = Math.max(s.progress, reported);
  if (s.status === "running" && progress === s.progress && stage === s.stage) return { ok: false, reason: "unchanged" };
  return {
    ok: true,
    refund: 0,
    next: {
      ...s,
      status: "running",
      started_at: s.started_at ?? now,
      progress,
      stage,
      updated_at: now,
    },
  };
}

/**
 * `undelivered`: credits of billed outputs the renderer could not make; `length`: the VOD was shorter than billed
 * (domain/vod-length.ts). Both are returned with the completion, each as its own ledger entry.
 */
export function completeStep(s: JobLifecycle, now: string, undelivered = 0, length: LengthDecrease | null = null): Step {
  if (isTerminal(s.status)) return { ok: false, reason: "terminal" };
  const left = s.credit_cost - s.refunded_credits;
  const forOutputs = Math.max(0, Math.min(undelivered, left));
  const forLength = length ? Math.max(0, Math.min(length.refundCredits, left - forOutputs)) : 0;
  const parts: RefundPart[] = [];
  if (forOutputs > 0) parts.push({ amount: forOutputs, purpose: null, reason: "completed without some billed outputs" });
  if (forLength > 0) parts.push({ amount: forLength, purpose: "vod_length", reason: length!.reason });
  const refund = forOutputs + forLength;
  return {
    ok: true,
    refund,
    parts,
    next: {
      ...s,
      status: "completed",
      refunded_credits: s.refunded_credits + refund,
      ...(length ? { billed_vod_seconds: length.billedSeconds } : {}),
      progress: 100,
      stage: null,
      started_at: s.started_at ?? now,
      finished_at: now,
      updated_at: now,
      artifacts_expires_at: addDays(now, ARTIFACT_RETENTION_DAYS),
    },
  };
}

export function failStep(s: JobLifecycle, error: JobError, refund: "full" | "none", now: string): Step {
  if (isTerminal(s.status)) return { ok: false, reason: "terminal" };
  const amount = refund === "full" ? s.credit_cost - s.refunded_credits : 0;
  return { ok: true, refund: amount, next: failed(s, error, amount, now) };
}

export function cancelStep(s: JobLifecycle, now: string): Step {
  if (isTerminal(s.status)) return { ok: false, reason: "terminal" };
  const amount = cancelRefundCredits(s.credit_cost, s.status as "pending" | "running", s.progress);
  return { ok: true, refund: amount, next: failed(s, CANCELLED_BY_USER, amount, now) };
}

function failed(s: JobLifecycle, error: JobError, refund: number, now: string): JobLifecycle {
  return {
    ...s,
    status: "failed",
    error,
    refunded_credits: s.refunded_credits + refund,
    finished_at: now,
    updated_at: now,
  };
}

export function addDays(iso: string, days: number): string {
  return new Date(Date.parse(iso) + days * 86_400_000).toISOString();
}
