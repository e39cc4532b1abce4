import { DurableObject } from "cloudflare:workers";
import type { JobError } from "../../../common/contract";
import {
  cancelStep,
  completeStep,
  failStep,
  progressStep,
  startStep,
  type JobLifecycle,
  type Step,
} from "../domain/job-lifecycle";
import type { Env } from "../env";
import { balance, movementStatements } from "../storage/credits";
import { isCheckConstraintError, nowIso, openDb } from "../storage/db";
import { jobCreationBatch, lifecycleUpdate, type NewJob } from "../storage/jobs";
import { transitionHooks, type JobTransition } from "./transition-hooks";

export type CreateJobResult =
  | { ok: true; state: JobLifecycle; created: boolean }
  | { ok: false; code: "insufficient_credits"; needed: number; available: number };

/** Answer of every lifecycle call: what changed, or why nothing did (late calls after the end say `terminal`). */
export type TransitionResult =
  | { changed: true; state: JobLifecycle; refund_credits: number }
  | { changed: false; reason: "terminal" | "invalid_transition" | "unchanged" | "not_found"; state: JobLifecycle | null };

export type CancelResult =
  | { ok: true; id: string; status: "failed"; refund_credits: number }
  | { ok: false; code: "job_not_cancellable"; status: JobLifecycle["status"] }
  | { ok: false; code: "job_not_found" };

const STATE_KEY = "state";

/**
 * One object per job (idFromName(job_id)): the single writer of its status, progress, stage and timestamps.
 * Calls are serialised, every change goes to D1 first (the record that lists and searches read, and where the
 * credits live) and then to the object's storage, so a failed D1 write changes nothing.
 */
export class JobState extends DurableObject<Env> {
  private chain: Promise<unknown> = Promise.resolve();

  /** Reserves the credits and stores the job in one D1 batch. Idempotent: a second call returns the stored state. */
  async create(job: NewJob): Promise<CreateJobResult> {
    return this.serial(async () => {
      const existing = await this.load();
      if (existing) return { ok: true, state: existing, created: false };
      const now = nowIso();
      const state: JobLifecycle = {
        job_id: job.job_id,
        account_id: job.account_id,
        status: "pending",
        progress: 0,
        stage: null,
        credit_cost: job.credit_cost,
        refunded_credits: 0,
        error: null,
        created_at: now,
        updated_at: now,
        started_at: null,
        finished_at: null,
        artifacts_expires_at: null,
      };
      const db = openDb(this.env.DB);
      try {
        await db.batch(jobCreationBatch(db, job, state));
      } catch (error) {
        if (!isCheckConstraintError(error)) throw error;
        return {
          ok: false,
          code: "insufficient_credits",
          needed: job.credit_cost,
          available: await balance(db, job.account_id),
        };
      }
      await this.ctx.storage.put(STATE_KEY, state);
      return { ok: true, state, created: true };
    });
  }

  async get(): Promise<JobLifecycle | null> {
    return this.load();
  }

  /** pending -> running (a worker picked the job up). */
  async markRunning(): Promise<TransitionResult> {
    return this.apply("started", (s, now) => startStep(s, now));
  }

  /** Stage and whole-job percent; never moves backwards. Implies running when the job was still pending. */
  async reportProgress(stage: string, percent: number): Promise<TransitionResult> {
    return this.apply("progress", (s, now) => progressStep(s, stage, percent, now));
  }

  /** running -> completed. `result` (renderer manifest + artifacts) is stored with the job for the results endpoint. */
  async complete(result: unknown = null): Promise<TransitionResult> {
    return this.apply("completed", (s, now) => completeStep(s, now), result === null || result === undefined ? undefined : JSON.stringify(result));
  }

  /** -> failed with a processing error; `refund: "full"` returns every credit not yet refunded. */
  async fail(code: string, message: string, options: { refund: "full" | "none" } = { refund: "full" }): Promise<TransitionResult> {
    const error: JobError = { code, message };
    return this.apply("failed", (s, now) => failStep(s, error, options.refund, now));
  }

  /** pending/running -> failed (cancelled_by_user) with the tiered refund. */
  async cancel(): Promise<CancelResult> {
    const result = await this.apply("cancelled", (s, now) => cancelStep(s, now));
    if (result.changed) {
      return { ok: true, id: result.state.job_id, status: "failed", refund_credits: result.refund_credits };
    }
    if (result.state === null) return { ok: false, code: "job_not_found" };
    return { ok: false, code: "job_not_cancellable", status: result.state.status };
  }

  private async apply(
    cause: JobTransition["cause"],
    step: (s: JobLifecycle, now: string) => Step,
    resultJson?: string,
  ): Promise<TransitionResult> {
    const outcome = await this.serial(async (): Promise<{ result: TransitionResult; transition: JobTransition | null }> => {
      const current = await this.load();
      if (!current) return { result: { changed: false, reason: "not_found", state: null }, transition: null };
      const now = nowIso();
      const next = step(current, now);
      if (!next.ok) return { result: { changed: false, reason: next.reason, state: current }, transition: null };

      const db = openDb(this.env.DB);
      const mirror = lifecycleUpdate(db, next.next, cause === "completed" ? resultJson : undefined);
      if (next.refund > 0) {
        const { update, entry } = movementStatements(db, {
          accountId: current.account_id,
          amount: next.refund,
          kind: "refund",
          jobId: current.job_id,
          reason: cause === "cancelled" ? "cancelled by user" : `job failed: ${next.next.error?.code ?? "error"}`,
          at: now,
        });
        await db.batch([mirror, update, entry]);
      } else {
        await mirror;
      }
      await this.ctx.storage.put(STATE_KEY, next.next);
      const transition: JobTransition | null =
        next.next.status === current.status
          ? null
          : {
              job_id: current.job_id,
              account_id: current.account_id,
              from: current.status,
              to: next.next.status,
              cause,
              refund_credits: next.refund,
              state: next.next,
            };
      return { result: { changed: true, state: next.next, refund_credits: next.refund }, transition };
    });
    if (outcome.transition) await this.runHooks(outcome.transition);
    return outcome.result;
  }

  private async runHooks(transition: JobTransition): Promise<void> {
    for (const hook of transitionHooks) {
      try {
        await hook(transition, { env: this.env, ctx: this.ctx });
      } catch (error) {
        console.error(
          JSON.stringify({
            level: "error",
            msg: "job transition hook failed",
            job_id: transition.job_id,
            to: transition.to,
            error: error instanceof Error ? error.message : String(error),
          }),
        );
      }
    }
  }

  private async load(): Promise<JobLifecycle | null> {
    return (await this.ctx.storage.get<JobLifecycle>(STATE_KEY)) ?? null;
  }

  /**
   * Runs calls one after another. Durable Object input gates do not hold while a call awaits D1 (outbound
   * I/O), so without this a cancel and a completion could both read "running" and both write.
   */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }
}
