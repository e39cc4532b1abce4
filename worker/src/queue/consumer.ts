import { ConfigError } from "../config";
import type { Env, JobQueueMessage } from "../env";
import { dispatchTask } from "../orchestration/dispatch-task";
import { DispatchConfigError } from "../orchestration/render-job";
import { RendererUnavailableError } from "../orchestration/renderers";
import { CAPACITY_WAIT_MS, capacityRetryDelaySeconds, dispatchRetryDelaySeconds, UNREACHABLE_ATTEMPTS } from "./backoff";
import { failUndispatchedJob } from "./dead-letter";

/**
 * A task waiting for capacity asks again as a new message (its wait is bounded by CAPACITY_WAIT_MS, not by the
 * queue's max_retries, which stays for faults). If it cannot be sent, the message itself is retried.
 */
async function waitAgain(env: Env, message: Message<unknown>, delaySeconds: number): Promise<void> {
  try {
    await env.JOBS_QUEUE.send(message.body as JobQueueMessage, { delaySeconds });
    message.ack();
  } catch {
    message.retry({ delaySeconds });
  }
}

/** Dead-letter queues are named after their source queue (`highlight-jobs-dlq`). */
export const isDeadLetterQueue = (queue: string): boolean => queue.endsWith("-dlq");

function parse(body: unknown): { jobId: string; taskId: string | undefined } | null {
  const m = body as Partial<JobQueueMessage> | null;
  if (typeof m?.job_id !== "string" || m.job_id.length === 0) return null;
  return { jobId: m.job_id, taskId: typeof m.task_id === "string" && m.task_id ? m.task_id : undefined };
}

function log(level: "info" | "warn" | "error", msg: string, fields: Record<string, unknown>): void {
  console[level === "info" ? "log" : level](JSON.stringify({ level, msg, ...fields }));
}

/**
 * One `queue` handler for both queues. A job-queue message is one task of one job (`{job_id, task_id}`; without
 * task_id, the job's analysis task). Starting it can find every renderer busy (it waits: a new message after a
 * short jittered delay, for up to CAPACITY_WAIT_MS; the job stays as it is), no renderer reachable (retried a few
 * times, counted in the task's record apart from busy answers, then the job fails with a full refund), or a
 * Worker that cannot dispatch at all (the job fails at once). A message that exhausts the queue's retries lands
 * in the dead-letter queue, whose handler fails the job if that task never started.
 */
export async function handleQueue(batch: MessageBatch<unknown>, env: Env, _ctx: ExecutionContext): Promise<void> {
  const deadLetter = isDeadLetterQueue(batch.queue);
  for (const message of batch.messages) {
    const parsed = parse(message.body);
    if (!parsed) {
      log("error", "queue message without job_id dropped", { queue: batch.queue, id: message.id });
      message.ack();
      continue;
    }
    const { jobId, taskId } = parsed;
    const fail = async (reason?: string) => {
      try {
        const failed = await failUndispatchedJob(env, jobId, reason, taskId);
        log("warn", "task could not be dispatched; job failed", { job_id: jobId, task_id: taskId, failed, reason });
        message.ack();
      } catch (failError) {
        message.retry({ delaySeconds: dispatchRetryDelaySeconds(message.attempts) });
        log("error", "could not fail undispatchable job; will retry", { job_id: jobId, error: String(failError) });
      }
    };
    if (deadLetter) {
      await fail();
      continue;
    }
    try {
      const outcome = await dispatchTask(env, jobId, taskId);
      if (outcome.outcome === "waiting") {
        if (Date.now() - outcome.waiting_since >= CAPACITY_WAIT_MS) {
          await fail(`no renderer was free for ${Math.round(CAPACITY_WAIT_MS / 3_600_000)} hours`);
          continue;
        }
        const delaySeconds = capacityRetryDelaySeconds();
        log("info", "no renderer free; task waits", { job_id: jobId, task_id: outcome.task_id, waited_s: Math.round((Date.now() - outcome.waiting_since) / 1000), delay_seconds: delaySeconds, reason: outcome.reason });
        await waitAgain(env, message, delaySeconds);
        continue;
      }
      if (outcome.outcome === "unreachable") {
        if (outcome.failures >= UNREACHABLE_ATTEMPTS) {
          await fail();
          continue;
        }
        const delaySeconds = dispatchRetryDelaySeconds(outcome.failures);
        log("warn", "dispatch failed; will retry", { job_id: jobId, task_id: outcome.task_id, failures: outcome.failures, delay_seconds: delaySeconds, error: outcome.reason });
        message.retry({ delaySeconds });
        continue;
      }
      log("info", "dispatch", { job_id: jobId, attempt: message.attempts, ...outcome });
      message.ack();
    } catch (error) {
      const misconfigured = error instanceof DispatchConfigError || error instanceof ConfigError;
      if (misconfigured || (error instanceof RendererUnavailableError && error.permanent)) {
        // Retrying cannot help: fail the job now, clearly, with every credit back.
        log("error", "dispatch impossible", { job_id: jobId, task_id: taskId, error: (error as Error).message });
        await fail(misconfigured ? `the service is misconfigured (${(error as Error).message})` : "the rendering service rejected the job");
        continue;
      }
      // The job's own object (or D1) failed to answer, e.g. reset by a deploy: nothing about renderers is known.
      // The message is retried; an unconfirmed claim goes back to the queue by the job's watchdog.
      const delaySeconds = dispatchRetryDelaySeconds(message.attempts);
      log("warn", "dispatch failed before reaching a renderer; will retry", { job_id: jobId, task_id: taskId, attempt: message.attempts, delay_seconds: delaySeconds, error: String(error) });
      message.retry({ delaySeconds });
    }
  }
}
