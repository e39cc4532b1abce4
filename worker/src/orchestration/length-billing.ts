import type { JobError } from "../../../common/contract";
import type { NormalizedJobRequest } from "../../../common/contract/normalized-request";
import { MAX_VOD_HOURS, MAX_VOD_SECONDS } from "../domain/pricing";
import { atAnalysis, increaseReason, tooLongMessage, unpaidLengthMessage } from "../domain/vod-length";
import { balance, movementStatements } from "../storage/credits";
import { isCheckConstraintError, isUniqueConstraintError, nowIso, openDb } from "../storage/db";
import { findJobById, lifecycleUpdate } from "../storage/jobs";
import { failStep, isTerminal, type JobLifecycle } from "./job-lifecycle";
import { loadState, saveState, type JobObject } from "./job-storage";
import type { StepFn } from "./job-transitions";

/**
 * Billing settlement of the real length. The analysis measured the VOD (its plan says how long it is); a length
 * longer than billed beyond the tolerance is billed now: the difference is reserved (ledger entry `reserve`,
 * purpose `vod_length`) in the batch that raises credit_cost, or, when the account cannot cover it, the job fails
 * with every credit back and an error naming the real length (as it does for a VOD over the 24 h maximum, which
 * only a job accepted without the probe can meet). Callers hold the serial chain; the job's failure goes through
 * `step` so its webhooks go out. Returns whether the job goes on.
 *
 * Exactly once: the first call stores the real length and later ones (a duplicate event, a retried analysis)
 * change nothing; should the object lose its write after D1 took the batch, the ledger's unique index refuses a
 * second reservation and the stored row is read back instead.
 */
export async function settleRealLength(o: JobObject, realSeconds: number, step: StepFn): Promise<boolean> {
  const current = (await loadState(o))!;
  if (isTerminal(current.status)) return false;
  if (current.real_vod_seconds != null) return true;
  const db = openDb(o.env.DB);
  const row = await findJobById(db, current.job_id);
  if (!row) return false;
  if (realSeconds > MAX_VOD_SECONDS) {
    const failure: JobError = { code: "vod_too_long", message: tooLongMessage(realSeconds, MAX_VOD_HOURS) };
    await step("failed", (s, at) => failStep({ ...s, real_vod_seconds: realSeconds }, failure, "full", at));
    return false;
  }
  const request = JSON.parse(row.requestJson) as NormalizedJobRequest;
  // Objects from before billed lengths were stored: the row's billed length, else its stored length.
  const billed = current.billed_vod_seconds ?? row.billedVodSeconds ?? row.vodDurationSeconds;
  // A job reusing an earlier analysis pays no processing credits, whatever the VOD's length (analysis-reuse.ts).
  const increase = row.analysisReusedFrom ? null : atAnalysis(request, billed, realSeconds);
  const now = nowIso();
  const next: JobLifecycle = {
    ...current,
    billed_vod_seconds: increase?.billedSeconds ?? billed,
    real_vod_seconds: realSeconds,
    credit_cost: current.credit_cost + (increase?.extraCredits ?? 0),
    updated_at: now,
  };
  if (!increase || increase.extraCredits === 0) {
    await lifecycleUpdate(db, next);
    await saveState(o, next);
    return true;
  }
  const { update, entry } = movementStatements(db, {
    accountId: current.account_id,
    amount: -increase.extraCredits,
    kind: "reserve",
    purpose: "vod_length",
    jobId: current.job_id,
    reason: increaseReason(billed, realSeconds),
    at: now,
  });
  try {
    await db.batch([update, entry, lifecycleUpdate(db, next)]);
  } catch (error) {
    if (isUniqueConstraintError(error)) {
      // Reserved by an earlier call whose state write was lost: the row holds what that batch wrote.
      const stored = (await findJobById(db, current.job_id))!;
      await saveState(o, { ...next, credit_cost: stored.creditCost, billed_vod_seconds: stored.billedVodSeconds ?? next.billed_vod_seconds });
      return true;
    }
    if (!isCheckConstraintError(error)) throw error;
    const available = await balance(db, current.account_id);
    const failure: JobError = { code: "insufficient_credits", message: unpaidLengthMessage(billed, realSeconds, increase.extraCredits, available) };
    await step("failed", (s, at) => failStep({ ...s, real_vod_seconds: realSeconds }, failure, "full", at));
    return false;
  }
  await saveState(o, next);
  return true;
}
