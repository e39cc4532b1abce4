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
import { isCheckConstraintError, isUniqueConstraintError, nowIso, openDb } from "../storage/db";
import { findJobById, jobCreationBatch, lifecycleUpdate, type NewJob } from "../storage/jobs";
import { billedOutputs, MAX_VOD_HOURS, MAX_VOD_SECONDS, undeliveredCredits } from "../domain/pricing";
import { atAnalysis, atCompletion, increaseReason, tooLongMessage, unpaidLengthMessage, type LengthDecrease } from "../domain/vod-length";
import type { JobTransition } from "../domain/job-transition";
import { enqueueWebhooks } from "../webhooks/enqueue";
import { ANALYSE_TASK_ID, taskKey, type JobPlan, type TaskEvent, type TaskKind, type TaskResult } from "../../../common/contract/job-plan";
import { JOB_ERROR_CODES } from "../../../common/contract/job-errors";
import { deleteReelParts, finaliseInWorker } from "./finalise";
import { cancelRender } from "./renderer-client";
import { cancelTask, releaseInstance } from "./renderers";
import {
  activeTasks,
  allRenderTasksDone,
  analysisTask,
  DISPATCH_CLAIM_MS,
  jobPercent,
  nextTaskDeadline,
  releaseReady,
  renderTasksOf,
  retryOrGiveUp,
  type TaskRecord,
} from "./task-book";

export type CreateJobResult =
  | { ok: true; state: JobLifecycle; created: boolean }
  | { ok: false; code: "insufficient_credits"; needed: number; available: number }
  /** abandon() ran first: no job may ever exist under this id (its Idempotency-Key was released). */
  | { ok: false; code: "abandoned" };

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
/** Set by abandon(): this id was given up before a job existed under it, so create() refuses it for good. */
const ABANDONED_KEY = "abandoned";
/** The task book (task-book.ts), the stored plan and each render task's result. */
const TASKS_KEY = "tasks";
const PLAN_KEY = "plan";
const resultKey = (taskId: string) => `result:${taskId}`;
/** A queued task whose message seems lost (no claim for this long) is sent again; duplicates are harmless. */
const REQUEUE_AFTER_MS = 15 * 60 * 1000;

/** Answer to the queue consumer's claim of a task: start it (this attempt, this request) or why not. */
export type TaskClaim = { ok: true; attempt: number; kind: TaskKind; plan: JobPlan | null } | { ok: false; reason: string };

/** Answer to a task event (POST /internal/jobs/:id/tasks/:task/events). */
export type TaskEventOutcome =
  | { outcome: "applied" | "duplicate"; state: JobLifecycle }
  /** The job is settled, or this attempt was superseded: the renderer stops the task (409). */
  | { outcome: "terminal" | "stale"; state: JobLifecycle }
  | { outcome: "not_found" };
/** Highest renderer event sequence number applied; older and repeated events are ignored. */
const SEQ_KEY = "render_seq";

/** A lifecycle step taken while holding the serial chain; its transitions' webhooks are enqueued after the chain is released. */
type StepFn = (cause: JobTransition["cause"], fn: (s: JobLifecycle, now: string) => Step, resultJson?: string) => Promise<void>;

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
    return this.serial(async (): Promise<CreateJobResult> => {
      const existing = await this.load();
      if (existing) return { ok: true, state: existing, created: false };
      if (await this.ctx.storage.get<boolean>(ABANDONED_KEY)) return { ok: false, code: "abandoned" };
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

  /**
   * Gives up this job id for a request that ended without a job, so its Idempotency-Key can be released.
   * Serialised with create(), so "nothing to pay for" cannot turn false afterwards: true when no job exists
   * (create() then refuses the id for good) or the job failed at queueing with everything refunded; false when a
   * job exists (a concurrent request with the same key created it), and the key must keep pointing at it.
   */
  async abandon(): Promise<boolean> {
    return this.serial(async () => {
      const existing = await this.load();
      if (!existing) {
        await this.ctx.storage.put(ABANDONED_KEY, true);
        return true;
      }
      return existing.status === "failed" && existing.error?.code === "queue_unavailable" && existing.refunded_credits === existing.credit_cost;
    });
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
    const refunds = state && result ? await this.completionRefunds(state, result.artifacts) : { undelivered: 0, length: null };
    return this.apply("completed", (s, now) => completeStep(s, now, refunds.undelivered, refunds.length), result === null ? undefined : JSON.stringify(result));
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
        case "analysed":
          // Whole-job mode: the renderer waits for this answer before it renders anything (a job failed here
          // answers 409 and the renderer stops).
          if (state.status === "pending") await step("started", startStep);
          await this.settleRealLength(event.vod_duration_seconds, step);
          break;
        case "completed": {
          // A job that skipped "running" still reports it first: job.running is sent once, before job.completed.
          if (state.status === "pending") await step("started", startStep);
          const refunds = await this.completionRefunds(state, event.artifacts);
          await step("completed", (s, now) => completeStep(s, now, refunds.undelivered, refunds.length), JSON.stringify({ manifest: event.manifest, artifacts: event.artifacts }));
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
    await this.afterTransitions(locked.transitions);
    return locked.result;
  }

  /**
   * Fails a running job whose renderer has been silent past its deadline; otherwise only makes sure the alarm
   * is armed. Called by the alarm and by the hourly cron as a safety net. Returns true when it failed the job.
   */
  async checkWatchdog(): Promise<boolean> {
    if ((await this.loadBook()).length > 0) {
      const before = (await this.load())?.status;
      await this.checkTasks();
      return before === "running" && (await this.load())?.status === "failed";
    }
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
    await this.afterTransitions(locked.transitions);
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

  // ───────────────────────────── tasks (a job is a plan of tasks) ─────────────────────────────

  /**
   * The queue consumer claims a queued task before it starts it on a renderer. Queues deliver at least once:
   * only a queued task is claimed, so a duplicate message starts nothing twice. The claim counts as an attempt
   * only once a renderer takes it (`releaseTask` gives a busy renderer's claim back).
   */
  async claimTask(taskId: string): Promise<TaskClaim> {
    return this.serial(async (): Promise<TaskClaim> => {
      const state = await this.load();
      if (!state) return { ok: false, reason: "no such job" };
      if (isTerminal(state.status)) return { ok: false, reason: `job is already ${state.status}` };
      const book = await this.loadBook();
      if (book.length === 0 && taskId === ANALYSE_TASK_ID) book.push(analysisTask());
      const task = book.find((t) => t.id === taskId);
      if (!task) return { ok: false, reason: "no such task" };
      if (task.state !== "queued") return { ok: false, reason: `task is ${task.state}` };
      const plan = task.kind === "analyse" ? null : await this.loadPlan();
      const attempt = task.attempt + 1;
      Object.assign(task, { state: "dispatching", attempt, seq: 0, fraction: 0, instance: null, heard_at: Date.now() });
      await this.saveBook(book);
      await this.armTaskWatchdog(book);
      return { ok: true, attempt, kind: task.kind, plan };
    });
  }

  /** No renderer could take the claimed attempt (all busy, or unreachable): the task waits in the queue again. */
  async releaseTask(taskId: string, attempt: number): Promise<void> {
    await this.serial(async () => {
      const book = await this.loadBook();
      const task = book.find((t) => t.id === taskId);
      if (!task || task.attempt !== attempt || task.state !== "dispatching") return;
      Object.assign(task, { state: "queued", attempt: attempt - 1, heard_at: Date.now() });
      await this.saveBook(book);
    });
  }

  /**
   * A renderer took the attempt. Answers `stop: true` when the job ended (e.g. was cancelled) or the attempt
   * was superseded meanwhile: the caller then stops it on the renderer.
   */
  async taskDispatched(taskId: string, attempt: number, instance: string): Promise<{ stop: boolean }> {
    const locked = await this.serial(async (): Promise<Locked<{ stop: boolean }>> => {
      const state = await this.load();
      const book = await this.loadBook();
      const task = book.find((t) => t.id === taskId);
      if (!state || isTerminal(state.status) || !task || task.attempt !== attempt || (task.state !== "dispatching" && task.state !== "running")) return { result: { stop: true }, transitions: [] };
      task.instance = instance;
      if (task.state === "dispatching") Object.assign(task, { state: "running", heard_at: Date.now() });
      await this.saveBook(book);
      // A renderer picked the job up: pending -> running (job.running, once).
      const started = state.status === "pending" ? await this.transitionLocked("started", startStep) : null;
      await this.armTaskWatchdog(book);
      return { result: { stop: false }, transitions: started?.transitions ?? [] };
    });
    await this.afterTransitions(locked.transitions);
    return locked.result;
  }

  /** Whether a task's attempt is still running here (a container keeps its instance alive while it is). */
  async isTaskRunning(taskId: string, attempt: number): Promise<boolean> {
    const state = await this.load();
    if (!state || isTerminal(state.status)) return false;
    const task = (await this.loadBook()).find((t) => t.id === taskId);
    return !!task && task.attempt === attempt && (task.state === "running" || task.state === "dispatching");
  }

  /** A task's instance stopped without a word (crash, eviction): the attempt is lost and the task retried. */
  async taskLost(taskId: string, attempt: number, reason: string): Promise<void> {
    await this.taskOutcome(taskId, attempt, "lost", { code: "renderer_stalled", message: reason });
  }

  /**
   * The queue gave up starting a task (its retries are spent) or the renderer rejected it outright: the job
   * fails with every credit back. Only while the task was still waiting to start.
   */
  async taskUndispatchable(taskId: string, message: string): Promise<boolean> {
    const locked = await this.serial(async (): Promise<Locked<boolean>> => {
      const book = await this.loadBook();
      // No task yet: the analysis never started (or the job runs in whole-job mode): only a pending job fails.
      const state = await this.load();
      const task = book.find((t) => t.id === taskId) ?? (taskId === ANALYSE_TASK_ID && book.length === 0 && state?.status === "pending" ? analysisTask() : undefined);
      if (!task || (task.state !== "queued" && task.state !== "dispatching")) return { result: false, transitions: [] };
      const done = await this.transitionLocked("failed", (s, now) => failStep(s, { code: "dispatch_failed", message }, "full", now));
      return { result: done.result.changed, transitions: done.transitions };
    });
    await this.afterTransitions(locked.transitions);
    return locked.result;
  }

  /** A renderer's report about one task. */
  async taskEvent(taskId: string, event: TaskEvent): Promise<TaskEventOutcome> {
    if (event.type === "failed") return this.taskOutcome(taskId, event.attempt, event.retryable ? "failed" : "fatal", event.error, event.seq);
    if (event.type === "interrupted") return this.taskOutcome(taskId, event.attempt, "interrupted", { code: "renderer_stalled", message: event.reason }, event.seq);
    const locked = await this.serial(async (): Promise<Locked<TaskEventOutcome>> => {
      const pre = await this.preamble(taskId, event.attempt, event.seq);
      if ("answer" in pre) return { result: pre.answer, transitions: [] };
      const { book, task } = pre;
      const transitions: JobTransition[] = [];
      const step = async (cause: JobTransition["cause"], fn: (s: JobLifecycle, now: string) => Step, resultJson?: string) => {
        const done = await this.transitionLocked(cause, fn, resultJson);
        transitions.push(...done.transitions);
      };
      task.seq = event.seq;
      task.heard_at = Date.now();
      if (task.state === "dispatching") task.state = "running";
      const current = (await this.load())!;
      if (current.status === "pending") await step("started", startStep);
      if (event.type === "progress") {
        task.fraction = Math.max(task.fraction, event.fraction);
        task.stage = event.stage;
        await step("progress", (s, now) => progressStep(s, event.stage, jobPercent(book), now));
      } else if (event.type === "completed") {
        await this.completeTask(book, task, event.result, step);
      }
      await this.saveBook(book);
      await this.armTaskWatchdog(book);
      return { result: { outcome: "applied", state: (await this.load())! }, transitions };
    });
    await this.afterTransitions(locked.transitions);
    return locked.result;
  }

  /** Checks shared by every task event: the job and task exist, the job is not settled, the attempt is current, the event is new. */
  private async preamble(taskId: string, attempt: number, seq: number | null): Promise<{ book: TaskRecord[]; task: TaskRecord } | { answer: TaskEventOutcome }> {
    const state = await this.load();
    if (!state) return { answer: { outcome: "not_found" } };
    if (isTerminal(state.status)) return { answer: { outcome: "terminal", state } };
    const book = await this.loadBook();
    const task = book.find((t) => t.id === taskId);
    if (!task) return { answer: { outcome: "not_found" } };
    if (task.attempt !== attempt || (task.state !== "running" && task.state !== "dispatching")) return { answer: { outcome: task.state === "done" && task.attempt === attempt ? "duplicate" : "stale", state } };
    if (seq !== null && seq <= task.seq) return { answer: { outcome: "duplicate", state } };
    return { book, task };
  }

  /**
   * A task's attempt ended without a result. `failed`/`lost`/`interrupted` run it again (bounded, see
   * task-book.ts); `fatal` (the input is the problem, e.g. no_highlights_found) and a spent budget fail the job
   * with every credit back and an error naming the output.
   */
  private async taskOutcome(taskId: string, attempt: number, why: "failed" | "lost" | "interrupted" | "fatal", error: { code: string; message: string }, seq: number | null = null): Promise<TaskEventOutcome> {
    const locked = await this.serial(async (): Promise<Locked<TaskEventOutcome>> => {
      const pre = await this.preamble(taskId, attempt, seq);
      if ("answer" in pre) return { result: pre.answer, transitions: [] };
      const { book, task } = pre;
      if (seq !== null) task.seq = seq;
      const instance = task.instance;
      let jobError: JobError | null = null;
      if (why === "fatal") {
        jobError = { code: knownCode(error.code), message: error.message };
      } else if (retryOrGiveUp(task, why, error) === "give_up") {
        const tries = why === "interrupted" ? `was interrupted ${task.interruptions} times` : `failed ${task.failures} times`;
        jobError = {
          code: why === "lost" ? "renderer_stalled" : knownCode(error.code),
          message: `Rendering ${task.label} ${tries} (last: ${error.message}), so the job was stopped. All credits were refunded; please submit it again.`,
        };
      }
      if (instance) this.ctx.waitUntil(releaseInstance(this.env, instance));
      if (jobError) {
        const failure = jobError;
        const done = await this.transitionLocked("failed", (s, now) => failStep(s, failure, "full", now));
        await this.saveBook(book);
        return { result: { outcome: "applied", state: (await this.load())! }, transitions: done.transitions };
      }
      await this.saveBook(book);
      // Says why an attempt runs again (a renderer's failure or interruption report, or the watchdog finding it
      // lost): the one place that tells a SIGTERM handled by the renderer from a crash found minutes later.
      console.log(JSON.stringify({ level: "info", msg: "task retried", job_id: (await this.load())?.job_id, task_id: taskId, why, ended_attempt: attempt, error: error.code }));
      await this.sendTasks([task]);
      await this.armTaskWatchdog(book);
      return { result: { outcome: "applied", state: (await this.load())! }, transitions: [] };
    });
    await this.afterTransitions(locked.transitions);
    return locked.result;
  }

  /** A task's result: the plan (render tasks created and sent) or a render task's files (then its dependants, or the end). */
  private async completeTask(book: TaskRecord[], task: TaskRecord, result: TaskResult, step: StepFn): Promise<void> {
    Object.assign(task, { state: "done", fraction: 1 });
    if (task.instance) this.ctx.waitUntil(releaseInstance(this.env, task.instance));
    const ready: TaskRecord[] = [];
    if (result.kind === "analyse") {
      await this.ctx.storage.put(PLAN_KEY, result.plan);
      // The real length is known now: it is paid for before any render task exists (or the job fails here).
      if (!(await this.settleRealLength(result.plan.source.duration_seconds, step))) return;
      const created = renderTasksOf(result.plan).filter((t) => !book.some((b) => b.id === t.id));
      book.push(...created);
      ready.push(...created.filter((t) => t.state === "queued"));
    } else {
      await this.ctx.storage.put(resultKey(task.id), result);
    }
    ready.push(...releaseReady(book));
    for (const t of ready) t.heard_at = Date.now();
    await step("progress", (s, now) => progressStep(s, task.stage ?? "rendering", jobPercent(book), now));
    if (allRenderTasksDone(book) || (result.kind === "analyse" && result.plan.tasks.length === 0)) {
      const plan = (await this.loadPlan())!;
      const results = await Promise.all(book.filter((t) => t.kind !== "analyse").map((t) => this.ctx.storage.get<TaskResult>(resultKey(t.id))));
      const state = (await this.load())!;
      const finalised = await finaliseInWorker(this.env.ARTIFACTS, state.job_id, plan, results.filter((r): r is TaskResult => !!r));
      const refunds = await this.completionRefunds(state, finalised.artifacts);
      await step("completed", (s, now) => completeStep(s, now, refunds.undelivered, refunds.length), JSON.stringify({ manifest: finalised.manifest, artifacts: finalised.artifacts }));
      return;
    }
    await this.sendTasks(ready);
  }

  /** One queue message per task; a message that cannot be sent now is sent again by the alarm (REQUEUE_AFTER_MS). */
  private async sendTasks(tasks: readonly TaskRecord[]): Promise<void> {
    if (tasks.length === 0) return;
    const state = await this.load();
    if (!state) return;
    const messages = tasks.map((t) => ({ body: { job_id: state.job_id, task_id: t.id } }));
    try {
      // sendBatch takes up to 100 messages.
      for (let i = 0; i < messages.length; i += 100) await this.env.JOBS_QUEUE.sendBatch(messages.slice(i, i + 100));
    } catch (error) {
      logError("task messages not sent; the alarm sends them again", this.ctx.id.toString(), error);
    }
  }

  /**
   * The job ended: every task still running is stopped and reel parts are deleted. Best effort and not awaited:
   * the state and the refund are already durable, and a renderer that misses the stop gets 409 for its next
   * report. A job rendered whole by one renderer (RENDER_MODE=job) that was running is told to stop too.
   */
  private async endTasks(book: TaskRecord[], wasRunning = false): Promise<void> {
    const state = await this.load();
    if (!state) return;
    if (book.length === 0 && wasRunning) {
      const jobId = state.job_id;
      this.ctx.waitUntil(cancelRender(this.env, jobId).then((stopped) => console.log(JSON.stringify({ level: "info", msg: "renderer stop", job_id: jobId, code: state.error?.code, stopped }))));
      return;
    }
    for (const t of activeTasks(book)) {
      const instance = t.instance!;
      this.ctx.waitUntil(cancelTask(this.env, instance, taskKey(state.job_id, t.id)).then(() => releaseInstance(this.env, instance)));
    }
    this.ctx.waitUntil(deleteReelParts(this.env.ARTIFACTS, state.job_id).catch(() => 0));
  }

  /**
   * The task watchdog: a running task silent for WATCHDOG_SECONDS is lost (retried, bounded); a claim the
   * consumer never confirmed is queued again; a queued task whose message seems lost is sent again.
   */
  private async checkTasks(): Promise<void> {
    const book = await this.loadBook();
    if (book.length === 0) return;
    const now = Date.now();
    const limit = watchdogMs(this.env);
    for (const t of book) {
      if (t.state === "running" && t.heard_at !== null && now >= t.heard_at + limit) {
        await this.taskLost(t.id, t.attempt, `the renderer stopped reporting for more than ${Math.round(limit / 1000)} seconds`);
      }
    }
    await this.serial(async () => {
      const fresh = await this.loadBook();
      const resend: TaskRecord[] = [];
      for (const t of fresh) {
        if (t.state === "dispatching" && t.heard_at !== null && now >= t.heard_at + DISPATCH_CLAIM_MS) {
          Object.assign(t, { state: "queued", attempt: t.attempt - 1, heard_at: now });
          resend.push(t);
        } else if (t.state === "queued" && t.heard_at !== null && now >= t.heard_at + REQUEUE_AFTER_MS) {
          t.heard_at = now;
          resend.push(t);
        }
      }
      if (resend.length) {
        await this.saveBook(fresh);
        await this.sendTasks(resend);
      }
      await this.armTaskWatchdog(fresh);
    });
  }

  private async armTaskWatchdog(book: readonly TaskRecord[]): Promise<void> {
    const state = await this.load();
    if (!state || isTerminal(state.status)) return;
    const queued = book.filter((t) => t.state === "queued" && t.heard_at !== null).map((t) => t.heard_at! + REQUEUE_AFTER_MS);
    const at = [nextTaskDeadline(book, watchdogMs(this.env)), ...queued].filter((t): t is number => t !== null);
    if (at.length === 0) return;
    await this.ctx.storage.put(WATCHDOG_KEY, Math.min(...at));
    await armJobAlarm(this.ctx.storage, this.env);
  }

  private async loadBook(): Promise<TaskRecord[]> {
    return (await this.ctx.storage.get<TaskRecord[]>(TASKS_KEY)) ?? [];
  }

  private async saveBook(book: TaskRecord[]): Promise<void> {
    await this.ctx.storage.put(TASKS_KEY, book);
  }

  private async loadPlan(): Promise<JobPlan | null> {
    return (await this.ctx.storage.get<JobPlan>(PLAN_KEY)) ?? null;
  }

  /** The job's tasks as the Durable Object tracks them (operators, tests). */
  async tasks(): Promise<TaskRecord[]> {
    return this.loadBook();
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
    await this.afterTransitions(locked.transitions);
    return locked.result;
  }

  /** One lifecycle step; callers hold the serial chain and pass the returned transitions to afterTransitions after it. */
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
    const parts = next.refund <= 0 ? [] : (next.parts ?? [{ amount: next.refund, purpose: null, reason: cause === "cancelled" ? "cancelled by user" : `job failed: ${next.next.error?.code ?? "error"}` }]);
    if (parts.length > 0) {
      const movements = parts.flatMap((p) => {
        const { update, entry } = movementStatements(db, { accountId: current.account_id, amount: p.amount, kind: "refund", purpose: p.purpose, jobId: current.job_id, reason: p.reason, at: now });
        return [update, entry];
      });
      await db.batch([mirror, ...movements]);
    } else {
      await mirror;
    }
    await this.ctx.storage.put(STATE_KEY, next.next);
    if (next.next.status === "running" && current.status !== "running") await this.extendWatchdog();
    if (isTerminal(next.next.status)) {
      await this.ctx.storage.delete(WATCHDOG_KEY);
      await armJobAlarm(this.ctx.storage, this.env);
      // Whatever ended the job (cancel, a failure, the watchdog), nothing keeps rendering for it.
      if (next.next.status === "failed") await this.endTasks(await this.loadBook(), current.status === "running");
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

  /**
   * What a completion gives back: the price of billed reels and shorts the renderer did not deliver, and the
   * difference when the VOD turned out shorter than billed (known once the analysis measured it).
   */
  private async completionRefunds(state: JobLifecycle, artifacts: readonly ArtifactRef[]): Promise<{ undelivered: number; length: LengthDecrease | null }> {
    const row = await findJobById(openDb(this.env.DB), state.job_id);
    if (!row) return { undelivered: 0, length: null };
    const request = JSON.parse(row.requestJson) as NormalizedJobRequest;
    const count = (kind: ArtifactRef["kind"]) => artifacts.filter((a) => a.kind === kind).length;
    const undelivered = undeliveredCredits(billedOutputs(request), { reels: count("reel"), shorts: count("short") });
    const real = state.real_vod_seconds ?? null;
    const billed = state.billed_vod_seconds ?? row.billedVodSeconds;
    return { undelivered, length: real !== null && billed !== null ? atCompletion(request, billed, real) : null };
  }

  /**
   * The analysis measured the VOD's real length (task mode: its plan; whole-job mode: the "analysed" event). A
   * length longer than billed beyond the tolerance is billed now: the difference is reserved (ledger entry
   * `reserve`, purpose `vod_length`) in the batch that raises credit_cost, or, when the account cannot cover it,
   * the job fails with every credit back and an error naming the real length (as it does for a VOD over the
   * 24 h maximum, which only a job accepted without the probe can meet). Callers hold the serial chain; the
   * job's failure goes through `step` so its webhooks go out. Returns whether the job goes on.
   *
   * Exactly once: the first call stores the real length and later ones (a duplicate event, a retried analysis)
   * change nothing; should the object lose its write after D1 took the batch, the ledger's unique index refuses
   * a second reservation and the stored row is read back instead.
   */
  private async settleRealLength(realSeconds: number, step: StepFn): Promise<boolean> {
    const current = (await this.load())!;
    if (isTerminal(current.status)) return false;
    if (current.real_vod_seconds != null) return true;
    const db = openDb(this.env.DB);
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
    const increase = atAnalysis(request, billed, realSeconds);
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
      await this.ctx.storage.put(STATE_KEY, next);
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
        const synced: JobLifecycle = { ...next, credit_cost: stored.creditCost, billed_vod_seconds: stored.billedVodSeconds ?? next.billed_vod_seconds };
        await this.ctx.storage.put(STATE_KEY, synced);
        return true;
      }
      if (!isCheckConstraintError(error)) throw error;
      const available = await balance(db, current.account_id);
      const failure: JobError = { code: "insufficient_credits", message: unpaidLengthMessage(billed, realSeconds, increase.extraCredits, available) };
      await step("failed", (s, at) => failStep({ ...s, real_vod_seconds: realSeconds }, failure, "full", at));
      return false;
    }
    await this.ctx.storage.put(STATE_KEY, next);
    return true;
  }

  /** The renderer was heard from (or the job just started): it has WATCHDOG_SECONDS until the next report. */
  private async extendWatchdog(): Promise<void> {
    await this.ctx.storage.put(WATCHDOG_KEY, Date.now() + watchdogMs(this.env));
    await armJobAlarm(this.ctx.storage, this.env);
  }

  /**
   * Follow-up of status changes, after they are durable: their webhook events go into the job's outbox and the
   * alarm is armed to deliver them. An event that cannot be built is logged; it does not undo the change, and
   * whatever was enqueued before it still goes out.
   */
  private async afterTransitions(transitions: JobTransition[]): Promise<void> {
    if (transitions.length === 0) return;
    const outbox = jobOutbox(this.ctx.storage, this.env);
    for (const transition of transitions) {
      try {
        await enqueueWebhooks(this.env, outbox, transition);
      } catch (error) {
        console.error(
          JSON.stringify({
            level: "error",
            msg: "job webhook not enqueued",
            job_id: transition.job_id,
            to: transition.to,
            error: error instanceof Error ? error.message : String(error),
          }),
        );
      }
    }
    await armJobAlarm(this.ctx.storage, this.env);
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

/** Task errors carry renderer codes; the job's error.code is always one of the documented ones. */
function knownCode(code: string): JobErrorCode {
  return (code in JOB_ERROR_CODES ? code : "render_failed") as JobErrorCode;
}

function logError(msg: string, objectId: string, error: unknown): void {
  console.error(JSON.stringify({ level: "error", msg, object_id: objectId, error: error instanceof Error ? error.message : String(error) }));
}
