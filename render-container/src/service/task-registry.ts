import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { taskKey, type RenderTaskRequest, type TaskKind } from "../../../common/contract/job-plan";
import { RENDERER_TASK_CONTRACTS } from "../../../common/contract/task-contract";
import type { RenderStage } from "../../../common/contract/render";
import { TaskProcesses } from "../ffmpeg/task-processes";
import type { Logger } from "../log";
import { TaskReporter } from "../output/task-events";
import { createUploader } from "../output/uploader";
import { isRetryable, JobError, toJobError } from "../pipeline/job-error";
import type { TaskRunner } from "../pipeline/types";
import { checkTaskRequest } from "./task-request";

type Outcome = "completed" | "failed" | "cancelled" | "interrupted";

interface RunningTask {
  key: string;
  attempt: number;
  kind: TaskKind;
  controller: AbortController;
  /** Its child processes: refused once it stops, waited for before it counts as stopped. */
  processes: TaskProcesses;
  reporter: TaskReporter;
  /** Settles once the task's processes have exited and its work folder is gone. */
  done: Promise<void>;
  /** Why it was stopped, when it was: decides what (if anything) is still reported. */
  stop: "cancelled" | "interrupted" | "superseded" | null;
  startedAt: number;
}

export type StartOutcome = "started" | "duplicate" | "busy";

/** Finished tasks remembered (per key, the highest attempt) so a redelivered start is not run again. */
const FINISHED_MEMORY = 2000;

/**
 * Owns the tasks this process runs: at most `maxTasks` at once (one more is refused as busy, so the Worker's queue
 * retries it later), one AbortController and one work folder per task (the folder always removed at the end),
 * and at most one run per task key and attempt, so a redelivered start renders nothing twice. A newer attempt of
 * a task that still runs here replaces it (the Worker has given up on the older one). A task the Worker hands
 * over in its answer to a completion (`next_task`, task contract 3) runs next in the slot the completed task
 * frees, as if it had been POSTed to /tasks (the same checks, the same start).
 */
export class TaskRegistry {
  private readonly running = new Map<string, RunningTask>();
  private readonly finished = new Map<string, { attempt: number; outcome: Outcome }>();
  /** Set once the process is being stopped: a task handed over after that is reported interrupted, not started. */
  private stopping: string | null = null;

  constructor(
    private readonly workRoot: string,
    private readonly runner: TaskRunner,
    private readonly log: Logger,
    private readonly opts: {
      maxTasks: number;
      fetchImpl?: typeof fetch;
      /** Test hook: holds a child's start (see TaskProcesses). */
      holdSpawn?: (taskKey: string, command: string, args: readonly string[]) => Promise<void> | undefined;
      /** Task contract versions this renderer speaks (default RENDERER_TASK_CONTRACTS). */
      contracts?: readonly number[];
    },
  ) {}

  /** The task contract versions this renderer accepts, on POST /tasks and in a handed-over task. */
  get contracts(): readonly number[] {
    return this.opts.contracts ?? RENDERER_TASK_CONTRACTS;
  }

  start(req: RenderTaskRequest): StartOutcome {
    const key = taskKey(req.job_id, req.task.id);
    const attempt = req.task.attempt;
    const current = this.running.get(key);
    const last = this.finished.get(key);
    if ((current && current.attempt >= attempt) || (last && last.attempt >= attempt)) return "duplicate";
    // A newer attempt of a task running here takes its place; it does not need a free slot of its own.
    if (!current && this.running.size >= this.opts.maxTasks) return "busy";
    if (current) {
      this.log.info("a newer attempt replaces the running one", { task_key: key, attempt: current.attempt, new_attempt: attempt });
      current.stop = "superseded";
      current.controller.abort(new Error(`superseded by attempt ${attempt}`));
    }
    this.launch(key, req, current?.done);
    return "started";
  }

  private launch(key: string, req: RenderTaskRequest, after: Promise<void> | undefined): void {
    const attempt = req.task.attempt;
    const fetchImpl = this.opts.fetchImpl ?? fetch;
    const controller = new AbortController();
    const log = this.log.child({ job_id: req.job_id, task_id: req.task.id, task_kind: req.task.kind, attempt });
    const reporter = new TaskReporter(req.callback.url, req.callback.token, attempt, log, {
      fetchImpl,
      heartbeatSeconds: req.callback.heartbeat_seconds,
      onSettled: () => {
        log.info("the Worker settled the task; stopping");
        task.stop ??= "cancelled";
        controller.abort(new Error("settled by the Worker"));
      },
    });
    const workDir = path.join(this.workRoot, `${safeName(key)}.${attempt}`);
    const hold = this.opts.holdSpawn;
    const processes = new TaskProcesses({ holdSpawn: hold && ((command, args) => hold(key, command, args)) });
    // The moment the task is stopped, no new child may start and the live ones are stopped.
    controller.signal.addEventListener("abort", () => void processes.close(abortError(controller.signal)), { once: true });
    const task: RunningTask = { key, attempt, kind: req.task.kind, controller, processes, reporter, done: Promise.resolve(), stop: null, startedAt: Date.now() };
    task.done = (async () => {
      let outcome: Outcome = "failed";
      // The Worker's answer to the completion may hand this instance the job's next task (unchecked here).
      let handedOver: unknown = undefined;
      try {
        // The replaced attempt's processes are gone before this one starts its own.
        await after;
        controller.signal.throwIfAborted();
        await mkdir(workDir, { recursive: true });
        await reporter.started();
        log.info("task started");
        const result = await processes.run(() => this.runner(req, {
          signal: controller.signal,
          workDir,
          progress: (stage: RenderStage, fraction: number) => reporter.progress(stage, fraction),
          uploader: createUploader(req.upload, fetchImpl),
          log,
          fetchImpl,
        }));
        controller.signal.throwIfAborted();
        handedOver = await reporter.completed(result);
        outcome = "completed";
        log.info("task completed", { ms: Date.now() - task.startedAt });
      } catch (err) {
        if (controller.signal.aborted) {
          outcome = task.stop === "interrupted" ? "interrupted" : "cancelled";
          log.info(`task ${task.stop ?? "cancelled"}`);
        } else {
          const jobError = toJobError(err);
          const retryable = isRetryable(jobError.code);
          log.error("task failed", { code: jobError.code, error: jobError.message, retryable, cause: err instanceof JobError ? undefined : String(err) });
          await reporter.failed(jobError.code, jobError.message, retryable);
        }
      } finally {
        // A runner can settle before all of its children have exited (a Promise.all that rejected on its first
        // failure): the task is over only once none is left, and none may start from here on.
        await processes.close(new Error("the task has ended"));
        await reporter.flush();
        await rm(workDir, { recursive: true, force: true });
        if (this.running.get(key) === task) this.running.delete(key);
        this.remember(key, attempt, outcome);
        // In the same turn as the slot was freed, so no POST /tasks can take it in between.
        if (outcome === "completed" && handedOver !== undefined) await this.startHandedOver(handedOver, key);
      }
    })();
    this.running.set(key, task);
  }

  /**
   * Runs the task the Worker handed this instance (its answer to a completion) as POST /tasks would, after the
   * same checks. What cannot run here is only logged: the Worker recorded it as running on this instance, so its
   * watchdog (or, for a container, the stop of the instance) retries it elsewhere. During shutdown it is reported
   * interrupted on its own callback instead, so the Worker retries it at once.
   */
  private async startHandedOver(body: unknown, fromKey: string): Promise<void> {
    const log = this.log.child({ handed_over_by: fromKey });
    const checked = checkTaskRequest(body, this.contracts);
    if (!checked.ok) {
      log.warn("handed-over task refused", { code: checked.code, error: checked.message, ...checked.extra });
      return;
    }
    const req = checked.request;
    const key = taskKey(req.job_id, req.task.id);
    if (this.stopping) {
      log.info("handed-over task not started: shutting down", { task_key: key, attempt: req.task.attempt });
      await new TaskReporter(req.callback.url, req.callback.token, req.task.attempt, log, { fetchImpl: this.opts.fetchImpl }).interrupted(this.stopping);
      return;
    }
    // Synchronous up to here: the start takes the slot the completed task has just freed.
    const outcome = this.start(req);
    log.info(outcome === "started" ? "handed-over task accepted" : `handed-over task not started: ${outcome}`, { task_key: key, task_kind: req.task.kind, attempt: req.task.attempt });
  }

  private remember(key: string, attempt: number, outcome: Outcome): void {
    if ((this.finished.get(key)?.attempt ?? 0) > attempt) return;
    this.finished.delete(key);
    this.finished.set(key, { attempt, outcome });
    if (this.finished.size > FINISHED_MEMORY) this.finished.delete(this.finished.keys().next().value!);
  }

  /** Stops a task (every attempt running here): aborts its processes and waits until its folder is gone. */
  async cancel(key: string): Promise<boolean> {
    const task = this.running.get(key);
    if (!task) return false;
    task.stop ??= "cancelled";
    task.controller.abort(new Error("cancelled"));
    await task.done;
    return true;
  }

  /**
   * The process is being stopped (SIGTERM: a rollout, an eviction): every running task first tells the Worker it
   * was interrupted, so it is retried elsewhere at once, then its processes are stopped and its folder removed.
   */
  async interruptAll(reason: string): Promise<void> {
    this.stopping = reason;
    const tasks = [...this.running.values()];
    for (const t of tasks) t.stop = "interrupted";
    await Promise.all(tasks.map((t) => (t.reporter.settled ? undefined : t.reporter.interrupted(reason))));
    for (const t of tasks) t.controller.abort(new Error(reason));
    await Promise.all(tasks.map((t) => t.done));
  }

  status(key: string): "running" | Outcome | null {
    return this.running.has(key) ? "running" : (this.finished.get(key)?.outcome ?? null);
  }

  get runningCount(): number {
    return this.running.size;
  }

  get capacity(): number {
    return this.opts.maxTasks;
  }

  /** What runs here now (GET /health). */
  list(): { task_key: string; kind: TaskKind; attempt: number; stage: RenderStage | null; fraction: number; seconds: number }[] {
    return [...this.running.values()].map((t) => ({ task_key: t.key, kind: t.kind, attempt: t.attempt, ...t.reporter.state, seconds: Math.round((Date.now() - t.startedAt) / 1000) }));
  }
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason ?? "stopped"));
}

/** A folder name from a task key (job ids come from the Worker, but a path must never climb out of the work root). */
function safeName(key: string): string {
  return key.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_");
}
