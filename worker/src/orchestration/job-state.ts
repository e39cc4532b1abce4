import { DurableObject } from "cloudflare:workers";
import type { ArtifactRef, JobError, JobErrorCode, JobStatus, RenderEvent } from "../../../common/contract";
import type { NormalizedJobRequest } from "../../../common/contract/normalized-request";
import { armJobAlarm, jobOutbox, WATCHDOG_KEY } from "./job-alarm";
import { stalledError, watchdogMs } from "./watchdog";
import {
  cancelStep,
  completeStep,
  failStep,
  isTerminal,
  progressStep,
  startStep,
  type JobLifecycle,
  type Step,
} from "./job-lifecycle";
import type { Env } from "../env";
import { deliverWebhook } from "../webhooks/deliver";
import type { Delivery } from "../webhooks/outbox";
import { balance, movementStatements } from "../storage/credits";
import { isCheckConstraintError, nowIso, openDb } from "../storage/db";
import { findJobById, jobCreationBatch, lifecycleUpdate, type NewJob } from "../storage/jobs";
import { billedOutputs, undeliveredCredits } from "../domain/pricing";
import { transitionHooks, type JobTransition } from "../durable/transition-hooks";

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

/** Answer of a renderer callback: applied, ignored as old or repeated (`duplicate`), or refused after the end (`terminal`). */
export type RenderEventOutcome =
  | { outcome: "applied" | "duplicate" | "terminal"; state: JobLifecycle }
  | { outcome: "not_found" };

const STATE_KEY = "state";
/** Highest renderer event sequence number applied; older and repeated events are ignored. */
const SEQ_KEY = "render_seq";

interface Locked<T> {
  result: T;
  transitions: JobTransition[];
}

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

  /**
   * running -> completed. `result` (renderer manifest + artifacts) is stored with the job for the results endpoint;
   * billed reels and shorts missing from its artifacts are refunded, as for a renderer's "completed" event.
   */
  async complete(result: { manifest: unknown; artifacts: readonly ArtifactRef[] } | null = null): Promise<TransitionResult> {
    const state = await this.load();
    const undelivered = state && result ? await this.undeliveredCredits(state.job_id, result.artifacts) : 0;
    return this.apply("completed", (s, now) => completeStep(s, now, undelivered), result === null ? undefined : JSON.stringify(result));
  }

  /**
   * -> failed with a processing error; `refund: "full"` returns every credit not yet refunded. `onlyFrom` limits
   * the statuses it applies to (the dead-letter queue fails a job only while it is still pending).
   */
  async fail(
    code: JobErrorCode,
    message: string,
    options: { refund: "full" | "none"; onlyFrom?: JobStatus[] } = { refund: "full" },
  ): Promise<TransitionResult> {
    const error: JobError = { code, message };
    return this.apply("failed", (s, now) =>
      options.onlyFrom && !options.onlyFrom.includes(s.status) ? { ok: false, reason: isTerminal(s.status) ? "terminal" : "invalid_transition" } : failStep(s, error, options.refund, now),
    );
  }

  /**
   * A renderer callback (POST /internal/jobs/:id/events). Events carry a sequence number: one not newer than the
   * highest applied is a retry or arrived out of order and changes nothing; after a terminal state nothing
   * changes either (`terminal`, e.g. a late report for a cancelled job). Every accepted report moves the
   * watchdog deadline.
   */
  async renderEvent(event: RenderEvent): Promise<RenderEventOutcome> {
    const locked = await this.serial(async (): Promise<Locked<RenderEventOutcome>> => {
      const current = await this.load();
      if (!current) return { result: { outcome: "not_found" }, transitions: [] };
      if (isTerminal(current.status)) return { result: { outcome: "terminal", state: current }, transitions: [] };
      const lastSeq = (await this.ctx.storage.get<number>(SEQ_KEY)) ?? 0;
      if (event.seq <= lastSeq) return { result: { outcome: "duplicate", state: current }, transitions: [] };

      const transitions: JobTransition[] = [];
      let state = current;
      const step = async (cause: JobTransition["cause"], fn: (s: JobLifecycle, now: string) => Step, resultJson?: string) => {
        const done = await this.transitionLocked(cause, fn, resultJson);
        transitions.push(...done.transitions);
        if (done.result.state) state = done.result.state;
      };
      switch (event.type) {
        case "started":
          await step("started", startStep);
          break;
        case "progress":
          await step("progress", (s, now) => progressStep(s, event.stage, event.percent, now));
          break;
        case "completed": {
          // A job that skipped "running" still reports it first: job.running is sent once, before job.completed.
          if (state.status === "pending") await step("started", startStep);
          const undelivered = await this.undeliveredCredits(current.job_id, event.artifacts);
          await step("completed", (s, now) => completeStep(s, now, undelivered), JSON.stringify({ manifest: event.manifest, artifacts: event.artifacts }));
          break;
        }
        case "failed":
          await step("failed", (s, now) => failStep(s, { code: event.error.code, message: event.error.message }, "full", now));
          break;
      }
      await this.ctx.storage.put(SEQ_KEY, event.seq);
      if (state.status === "running") await this.extendWatchdog();
      return { result: { outcome: "applied", state }, transitions };
    });
    await this.runAllHooks(locked.transitions);
    return locked.result;
  }

  /**
   * Fails a running job whose renderer has been silent past its deadline; otherwise only makes sure the alarm
   * is armed. Called by the alarm and by the hourly cron as a safety net. Returns true when it failed the job.
   */
  async checkWatchdog(): Promise<boolean> {
    const locked = await this.serial(async (): Promise<Locked<boolean>> => {
      const current = await this.load();
      if (!current || current.status !== "running") return { result: false, transitions: [] };
      const limitMs = watchdogMs(this.env);
      // Objects from before the watchdog existed have no deadline: measure from the last stored change.
      const deadline = (await this.ctx.storage.get<number>(WATCHDOG_KEY)) ?? Date.parse(current.updated_at) + limitMs;
      if (Date.now() < deadline) {
        await armJobAlarm(this.ctx.storage, this.env);
        return { result: false, transitions: [] };
      }
      const error = stalledError(limitMs / 1000);
      const done = await this.transitionLocked("failed", (s, now) => failStep(s, error, "full", now));
      return { result: done.result.changed, transitions: done.transitions };
    });
    await this.runAllHooks(locked.transitions);
    return locked.result;
  }

  /** The one alarm: the watchdog deadline and due webhook deliveries, then re-armed for whatever is next. */
  async alarm(): Promise<void> {
    try {
      await this.checkWatchdog();
    } catch (error) {
      logError("job watchdog failed", this.ctx.id.toString(), error);
    }
    const state = await this.load();
    if (state) {
      await jobOutbox(this.ctx.storage, this.env).runDue((d) => deliverWebhook(this.env, state, d));
    }
    await armJobAlarm(this.ctx.storage, this.env);
  }

  /** Webhook deliveries of this job with every attempt (GET /jobs/{id}/webhooks). */
  async listWebhooks(): Promise<Delivery[]> {
    return jobOutbox(this.ctx.storage, this.env).list();
  }

  /**
   * Sends one delivery's event again, as a new delivery due now (same event id); null when there is no such
   * delivery. A job.completed body gets freshly signed links when it is sent, like every attempt.
   */
  async redeliverWebhook(deliveryId: string): Promise<{ id: string } | null> {
    const created = jobOutbox(this.ctx.storage, this.env).redeliver(deliveryId);
    if (created) await armJobAlarm(this.ctx.storage, this.env);
    return created;
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
    const locked = await this.serial(() => this.transitionLocked(cause, step, resultJson));
    await this.runAllHooks(locked.transitions);
    return locked.result;
  }

  /** One lifecycle step; callers hold the serial chain and run the hooks of the returned transitions after it. */
  private async transitionLocked(
    cause: JobTransition["cause"],
    step: (s: JobLifecycle, now: string) => Step,
    resultJson?: string,
  ): Promise<Locked<TransitionResult>> {
    const current = await this.load();
    if (!current) return { result: { changed: false, reason: "not_found", state: null }, transitions: [] };
    const now = nowIso();
    const next = step(current, now);
    if (!next.ok) return { result: { changed: false, reason: next.reason, state: current }, transitions: [] };

    const db = openDb(this.env.DB);
    const mirror = lifecycleUpdate(db, next.next, cause === "completed" ? resultJson : undefined);
    if (next.refund > 0) {
      const { update, entry } = movementStatements(db, {
        accountId: current.account_id,
        amount: next.refund,
        kind: "refund",
        jobId: current.job_id,
        reason: cause === "cancelled" ? "cancelled by user" : cause === "completed" ? "completed without some billed outputs" : `job failed: ${next.next.error?.code ?? "error"}`,
        at: now,
      });
      await db.batch([mirror, update, entry]);
    } else {
      await mirror;
    }
    await this.ctx.storage.put(STATE_KEY, next.next);
    if (next.next.status === "running" && current.status !== "running") await this.extendWatchdog();
    if (isTerminal(next.next.status)) {
      await this.ctx.storage.delete(WATCHDOG_KEY);
      await armJobAlarm(this.ctx.storage, this.env);
    }
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
    return { result: { changed: true, state: next.next, refund_credits: next.refund }, transitions: transition ? [transition] : [] };
  }

  /** Credits of the reels and shorts the job was billed for but the renderer did not deliver. */
  private async undeliveredCredits(jobId: string, artifacts: readonly ArtifactRef[]): Promise<number> {
    const row = await findJobById(openDb(this.env.DB), jobId);
    if (!row) return 0;
    const request = JSON.parse(row.requestJson) as NormalizedJobRequest;
    const count = (kind: ArtifactRef["kind"]) => artifacts.filter((a) => a.kind === kind).length;
    return undeliveredCredits(billedOutputs(request), { reels: count("reel"), shorts: count("short") });
  }

  /** The renderer was heard from (or the job just started): it has WATCHDOG_SECONDS until the next report. */
  private async extendWatchdog(): Promise<void> {
    await this.ctx.storage.put(WATCHDOG_KEY, Date.now() + watchdogMs(this.env));
    await armJobAlarm(this.ctx.storage, this.env);
  }

  private async runAllHooks(transitions: JobTransition[]): Promise<void> {
    for (const transition of transitions) await this.runHooks(transition);
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

function logError(msg: string, objectId: string, error: unknown): void {
  console.error(JSON.stringify({ level: "error", msg, object_id: objectId, error: error instanceof Error ? error.message : String(error) }));
}
