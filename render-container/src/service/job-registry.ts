import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { RenderJob } from "../../../common/contract/render";
import { CallbackReporter } from "../output/callbacks";
import { createUploader } from "../output/uploader";
import type { Logger } from "../log";
import { JobError, toJobError } from "../pipeline/job-error";
import type { JobRunner } from "../pipeline/types";

/** The abort reason of a shutdown, told apart from a cancel. */
const INTERRUPTED = new Error("renderer shutting down");

interface RunningJob {
  controller: AbortController;
  done: Promise<void>;
  startedAt: number;
}

/**
 * Owns the jobs this process is rendering: one AbortController per job (cancel kills its FFmpeg processes),
 * one work folder per job (always removed at the end), and at most one run per job id so a redelivered
 * start request cannot render the same job twice.
 */
export class JobRegistry {
  private readonly running = new Map<string, RunningJob>();
  private readonly finished = new Map<string, "completed" | "failed" | "cancelled">();

  constructor(
    private readonly workRoot: string,
    private readonly runner: JobRunner,
    private readonly log: Logger,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** Returns false when the job is already running or has already finished in this process. */
  start(job: RenderJob): boolean {
    if (this.running.has(job.job_id) || this.finished.has(job.job_id)) return false;
    const controller = new AbortController();
    const log = this.log.child({ job_id: job.job_id });
    const reporter = new CallbackReporter(job.callback.url, job.callback.token, log, {
      fetchImpl: this.fetchImpl,
      heartbeatSeconds: job.callback.heartbeat_seconds,
      onSettled: () => {
        log.info("the Worker settled the job; stopping");
        controller.abort(new Error("settled by the Worker"));
      },
    });
    const workDir = path.join(this.workRoot, job.job_id);
    const done = (async () => {
      let outcome: "completed" | "failed" | "cancelled" = "failed";
      try {
        await mkdir(workDir, { recursive: true });
        await reporter.started();
        log.info("job started");
        const result = await this.runner(job, { signal: controller.signal, workDir, reporter, uploader: createUploader(job.upload, this.fetchImpl), log, fetchImpl: this.fetchImpl });
        await reporter.completed(result);
        outcome = "completed";
        log.info("job completed", { artifacts: result.artifacts.length });
      } catch (err) {
        if (controller.signal.reason === INTERRUPTED) {
          // Stopped from outside mid-job: say so at once (the job fails with a full refund) rather than leave
          // the Worker's watchdog to find out ten minutes later.
          log.warn("job interrupted by a shutdown");
          await reporter.failed("renderer_interrupted", "The renderer was stopped (a rollout or an eviction) before the job finished.");
        } else if (controller.signal.aborted) {
          outcome = "cancelled";
          log.info("job cancelled");
        } else {
          const jobError = toJobError(err);
          log.error("job failed", { code: jobError.code, error: jobError.message, cause: err instanceof JobError ? undefined : String(err) });
          await reporter.failed(jobError.code, jobError.message);
        }
      } finally {
        await reporter.flush();
        await rm(workDir, { recursive: true, force: true });
        this.running.delete(job.job_id);
        this.finished.set(job.job_id, outcome);
      }
    })();
    this.running.set(job.job_id, { controller, done, startedAt: Date.now() });
    return true;
  }

  /** Stops a job: aborts every child process and waits until its folder is gone. */
  async cancel(jobId: string): Promise<boolean> {
    const job = this.running.get(jobId);
    if (!job) return false;
    job.controller.abort(new Error("cancelled"));
    await job.done;
    return true;
  }

  status(jobId: string): "running" | "completed" | "failed" | "cancelled" | null {
    return this.running.has(jobId) ? "running" : (this.finished.get(jobId) ?? null);
  }

  get runningCount(): number {
    return this.running.size;
  }

  /** The process is being stopped (SIGTERM): every running job reports renderer_interrupted, then stops. */
  async shutdown(): Promise<void> {
    await Promise.all(
      [...this.running.values()].map(async (job) => {
        job.controller.abort(INTERRUPTED);
        await job.done;
      }),
    );
  }
}
