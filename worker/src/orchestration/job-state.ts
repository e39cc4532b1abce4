import { DurableObject } from "cloudflare:workers";
import type { JobError, JobErrorCode, JobStatus } from "../../../common/contract";
import type { TaskEvent } from "../../../common/contract/job-plan";
import type { Env } from "../env";
import { deliverWebhook } from "../webhooks/deliver";
import type { Delivery } from "../webhooks/outbox";
import { armJobAlarm, jobOutbox } from "./job-alarm";
import { abandonJob, createJob, type CreateJobResult } from "./job-creation";
import { cancelStep, failStep, isTerminal, type JobLifecycle } from "./job-lifecycle";
import { loadBook, loadState, logError, type JobObject, type Locked } from "./job-storage";
import { announce, transition, type StepRule, type TransitionResult } from "./job-transitions";
import type { NewJob } from "../storage/jobs";
import type { JobTransition } from "../domain/job-transition";
import { claimTask, confirmDispatch, failUndispatchable, isTaskRunning, releaseClaim, sendTasks, type ReleasedClaim, type ReleaseReason, type TaskClaim } from "./task-dispatch";
import { applyTaskReport, endAttempt, type TaskEventOutcome } from "./task-reports";
import type { TaskRecord } from "./task-book";
import { storageAccess, type StorageAccess, type StorageCaller, type StorageVerdict } from "./task-storage-scope";
import { aiAccess, legacyEventAllowed, type CallVerdict, type TaskCaller } from "./task-call-scope";
import { resendStale, silenceReason, silentTasks, watchdogMs } from "./watchdog";

export type { CreateJobResult } from "./job-creation";
export type { TransitionResult } from "./job-transitions";
export type { TaskClaim } from "./task-dispatch";
export type { TaskEventOutcome } from "./task-reports";

export type CancelResult =
  | { ok: true; id: string; status: "failed"; refund_credits: number }
  | { ok: false; code: "job_not_cancellable"; status: JobLifecycle["status"] }
  | { ok: false; code: "job_not_found" };

/**
 * One object per job (idFromName(job_id)): the single writer of its status, progress, stage and timestamps, and
 * of its tasks. This class is the table of contents: it holds the storage (job-storage.ts), runs calls one after
 * another, and answers the RPC calls of the API, the queue consumer and the renderers' routes by calling the
 * module that owns each concern:
 *
 *   creation and abandon         job-creation.ts
 *   lifecycle transitions        job-transitions.ts (rules: job-lifecycle.ts), webhooks enqueued after them
 *   the task book and dispatch   task-dispatch.ts (claims, queue messages), task-reports.ts (renderer reports)
 *   billing of the real length   length-billing.ts
 *   completion and refunds       job-completion.ts
 *   watchdog                     watchdog.ts (with the webhook outbox, one alarm: job-alarm.ts)
 *
 * Every change goes to D1 first (the record that lists and searches read, and where the credits live) and then
 * to the object's storage, so a failed D1 write changes nothing.
 */
export class JobState extends DurableObject<Env> {
  private chain: Promise<unknown> = Promise.resolve();
  /** The handle the concern modules work with; read afresh, so it always carries the object's current env. */
  private get object(): JobObject {
    return { id: this.ctx.id.toString(), env: this.env, storage: this.ctx.storage, waitUntil: (p) => this.ctx.waitUntil(p) };
  }

  // ───────────────────────────── the job ─────────────────────────────

  /** Reserves the credits and stores the job in one D1 batch. Idempotent: a second call returns the stored state. */
  async create(job: NewJob): Promise<CreateJobResult> {
    return this.serial(() => createJob(this.object, job));
  }

  async get(): Promise<JobLifecycle | null> {
    return loadState(this.object);
  }

  /**
   * Gives up this job id for a request that ended without a job, so its Idempotency-Key can be released.
   * Serialised with create(), so "nothing to pay for" cannot turn false afterwards.
   */
  async abandon(): Promise<boolean> {
    return this.serial(() => abandonJob(this.object));
  }

  /**
   * -> failed with a processing error; `refund: "full"` returns every credit not yet refunded. `onlyFrom` limits
   * the statuses it applies to (a job that could not be queued fails only while it is still pending).
   */
  async fail(code: JobErrorCode, message: string, options: { refund: "full" | "none"; onlyFrom?: JobStatus[] } = { refund: "full" }): Promise<TransitionResult> {
    const error: JobError = { code, message };
    return this.apply("failed", (s, now) =>
      options.onlyFrom && !options.onlyFrom.includes(s.status) ? { ok: false, reason: isTerminal(s.status) ? "terminal" : "invalid_transition" } : failStep(s, error, options.refund, now),
    );
  }

  /** pending/running -> failed (cancelled_by_user) with the tiered refund. */
  async cancel(): Promise<CancelResult> {
    const result = await this.apply("cancelled", (s, now) => cancelStep(s, now));
    if (result.changed) return { ok: true, id: result.state.job_id, status: "failed", refund_credits: result.refund_credits };
    if (result.state === null) return { ok: false, code: "job_not_found" };
    return { ok: false, code: "job_not_cancellable", status: result.state.status };
  }

  // ───────────────────────────── tasks (a job is a plan of tasks) ─────────────────────────────

  /** The queue consumer claims a queued task before it starts it on a renderer (task-dispatch.ts). */
  async claimTask(taskId: string): Promise<TaskClaim> {
    return this.serial(() => claimTask(this.object, taskId));
  }

  /** No renderer could take the claimed attempt (all busy, or unreachable): the task waits in the queue again. */
  async releaseTask(taskId: string, attempt: number, why: ReleaseReason): Promise<ReleasedClaim> {
    return this.serial(() => releaseClaim(this.object, taskId, attempt, why));
  }

  /** A renderer took the attempt; `stop: true` when the job ended or the attempt was superseded meanwhile. */
  async taskDispatched(taskId: string, attempt: number, instance: string): Promise<{ stop: boolean }> {
    return this.locked(() => confirmDispatch(this.object, taskId, attempt, instance));
  }

  /** Whether a task's attempt is still running here (a container keeps its instance alive while it is). */
  async isTaskRunning(taskId: string, attempt: number): Promise<boolean> {
    return isTaskRunning(this.object, taskId, attempt);
  }

  /** A task's instance stopped without a word (crash, eviction): the attempt is lost and the task retried. */
  async taskLost(taskId: string, attempt: number, reason: string): Promise<void> {
    await this.locked(() => endAttempt(this.object, taskId, attempt, "lost", { code: "renderer_stalled", message: reason }));
  }

  /** The queue gave up starting a task, or the renderer rejected it outright: the job fails with every credit back. */
  async taskUndispatchable(taskId: string, message: string): Promise<boolean> {
    return this.locked(() => failUndispatchable(this.object, taskId, message));
  }

  /**
   * A renderer's report about one task (task-reports.ts). `caller` is whom the route's token speaks for: the
   * route has held a task attempt's token to its own task and attempt; the job's token (legacy path) is checked
   * here, in the same turn as the report is applied (task-call-scope.ts).
   */
  async taskEvent(taskId: string, event: TaskEvent, caller: TaskCaller): Promise<TaskEventOutcome> {
    const o = this.object;
    return this.locked(async (): Promise<Locked<TaskEventOutcome>> => {
      if ("legacy" in caller && !(await legacyEventAllowed(o, taskId, event.attempt))) return { result: { outcome: "outside_scope" }, transitions: [] };
      if (event.type === "failed") return endAttempt(o, taskId, event.attempt, event.retryable ? "failed" : "fatal", event.error, event.seq);
      if (event.type === "interrupted") return endAttempt(o, taskId, event.attempt, "interrupted", { code: "renderer_stalled", message: event.reason }, event.seq);
      return applyTaskReport(o, taskId, event);
    });
  }

  /** Whether a task attempt (or a job-wide legacy token) may call Workers AI now (task-call-scope.ts). */
  async aiAccess(caller: TaskCaller): Promise<CallVerdict> {
    return aiAccess(this.object, caller);
  }

  /** Whether a task attempt (or a job-wide legacy token) may touch a file of the job (task-storage-scope.ts). */
  async storageAccess(caller: StorageCaller, name: string, access: StorageAccess): Promise<StorageVerdict> {
    return storageAccess(this.object, caller, name, access);
  }

  /** The job's tasks as the Durable Object tracks them (operators, tests). */
  async tasks(): Promise<TaskRecord[]> {
    return loadBook(this.object);
  }

  // ───────────────────────────── watchdog and alarm ─────────────────────────────

  /**
   * The task watchdog (watchdog.ts): every running task silent past WATCHDOG_SECONDS is lost (retried, bounded),
   * unconfirmed claims and lost queue messages are sent again, and the alarm is armed for the next deadline.
   * Called by the alarm and by the hourly cron as a safety net. Returns true when it failed the job.
   */
  async checkWatchdog(): Promise<boolean> {
    const o = this.object;
    const before = (await loadState(o))?.status;
    const book = await loadBook(o);
    if (book.length === 0) return false;
    const now = Date.now();
    const limit = watchdogMs(this.env);
    for (const t of silentTasks(book, now, limit)) await this.taskLost(t.id, t.attempt, silenceReason(limit));
    await this.serial(() => resendStale(o, now, (tasks) => sendTasks(o, tasks)));
    return before === "running" && (await loadState(o))?.status === "failed";
  }

  /** The one alarm: the watchdog deadline and due webhook deliveries, then re-armed for whatever is next. */
  async alarm(): Promise<void> {
    try {
      await this.checkWatchdog();
    } catch (error) {
      logError("job watchdog failed", this.object, error);
    }
    const state = await loadState(this.object);
    if (state) await jobOutbox(this.ctx.storage, this.env).runDue((d) => deliverWebhook(this.env, state, d));
    await armJobAlarm(this.ctx.storage, this.env);
  }

  // ───────────────────────────── webhooks ─────────────────────────────

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

  // ───────────────────────────── serialisation ─────────────────────────────

  /** One lifecycle step under the chain, its webhooks enqueued after. */
  private apply(cause: JobTransition["cause"], step: StepRule): Promise<TransitionResult> {
    return this.locked(() => transition(this.object, cause, step));
  }

  /** Runs `fn` under the chain, then enqueues the webhooks of the status changes it made. */
  private async locked<T>(fn: () => Promise<Locked<T>>): Promise<T> {
    const done = await this.serial(fn);
    await announce(this.object, done.transitions);
    return done.result;
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
