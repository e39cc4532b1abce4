import { ConfigError } from "../config";
import type { Env, JobQueueMessage } from "../env";
import { dispatchTask } from "../orchestration/dispatch-task";
import { DispatchConfigError } from "../orchestration/render-job";
import { RendererBusyError, RendererUnavailableError } from "../orchestration/renderers";
import { capacityRetryDelaySeconds, dispatchRetryDelaySeconds, UNREACHABLE_ATTEMPTS } from "./backoff";
import { failUndispatchedJob } from "./dead-letter";

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
 * task_id, the job's analysis task). Starting it can find every renderer busy (it waits in the queue with
 * backoff; the job stays as it is), no renderer reachable (retried a few times, then the job fails with a full
 * refund), or a Worker that cannot dispatch at all (the job fails at once). A message that exhausts the queue's
 * retries lands in the dead-letter queue, whose handler fails the job if that task never started.
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
      log("info", "dispatch", { job_id: jobId, attempt: message.attempts, ...outcome });
      message.ack();
    } catch (error) {
      const misconfigured = error instanceof DispatchConfigError || error instanceof ConfigError;
      if (misconfigured || (error instanceof RendererUnavailableError && error.permanent)) {
        // Retrying cannot help: fail the job now, clearly, with every credit back.
        log("error", "dispatch impossible", { job_id: jobId, task_id: taskId, error: error.message });
        await fail(misconfigured ? `the service is misconfigured (${error.message})` : "the rendering service rejected the job");
        continue;
      }
      if (error instanceof RendererBusyError) {
        const delaySeconds = capacityRetryDelaySeconds(message.attempts);
        log("info", "every renderer busy; task waits", { job_id: jobId, task_id: taskId, attempt: message.attempts, delay_seconds: delaySeconds });
        message.retry({ delaySeconds });
        continue;
      }
      if (message.attempts >= UNREACHABLE_ATTEMPTS) {
        await fail();
        continue;
      }
      const delaySeconds = dispatchRetryDelaySeconds(message.attempts);
      log("warn", "dispatch failed; will retry", { job_id: jobId, task_id: taskId, attempt: message.attempts, delay_seconds: delaySeconds, error: String(error) });
      message.retry({ delaySeconds });
    }
  }
}
