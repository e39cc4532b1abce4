import type { Env, JobQueueMessage } from "../env";
import { dispatchJob } from "../orchestration/dispatch-job";
import { DispatchConfigError } from "../orchestration/render-job";
import { RendererUnavailableError } from "../orchestration/renderer-client";
import { dispatchRetryDelaySeconds } from "./backoff";
import { failUndispatchedJob } from "./dead-letter";

/** Dead-letter queues are named after their source queue (`highlight-jobs-dlq`). */
export const isDeadLetterQueue = (queue: string): boolean => queue.endsWith("-dlq");

function jobIdOf(body: unknown): string | null {
  const id = (body as Partial<JobQueueMessage> | null)?.job_id;
  return typeof id === "string" && id.length > 0 ? id : null;
}

function log(level: "info" | "warn" | "error", msg: string, fields: Record<string, unknown>): void {
  console[level === "info" ? "log" : level](JSON.stringify({ level, msg, ...fields }));
}

/**
 * One `queue` handler for both queues. The job queue starts renders; a message that fails to start is retried
 * with backoff and, after max_retries, lands in the dead-letter queue, whose handler fails the job with a refund.
 */
export async function handleQueue(batch: MessageBatch<unknown>, env: Env, _ctx: ExecutionContext): Promise<void> {
  const deadLetter = isDeadLetterQueue(batch.queue);
  for (const message of batch.messages) {
    const jobId = jobIdOf(message.body);
    if (!jobId) {
      log("error", "queue message without job_id dropped", { queue: batch.queue, id: message.id });
      message.ack();
      continue;
    }
    try {
      if (deadLetter) {
        const failed = await failUndispatchedJob(env, jobId);
        log("warn", "dead-lettered job", { job_id: jobId, failed });
      } else {
        const outcome = await dispatchJob(env, jobId);
        log("info", "dispatch", { job_id: jobId, attempt: message.attempts, ...outcome });
      }
      message.ack();
    } catch (error) {
      if (error instanceof DispatchConfigError || (error instanceof RendererUnavailableError && error.permanent)) {
        // Retrying cannot help: fail the job now, clearly, with every credit back.
        log("error", "dispatch impossible", { job_id: jobId, error: error.message });
        const reason = error instanceof DispatchConfigError ? `the service is misconfigured (${error.message})` : "the rendering service rejected the job";
        try {
          await failUndispatchedJob(env, jobId, reason);
          message.ack();
        } catch (failError) {
          message.retry({ delaySeconds: dispatchRetryDelaySeconds(message.attempts) });
          log("error", "could not fail undispatchable job; will retry", { job_id: jobId, error: String(failError) });
        }
        continue;
      }
      const delaySeconds = dispatchRetryDelaySeconds(message.attempts);
      log("warn", "dispatch failed; will retry", { job_id: jobId, attempt: message.attempts, delay_seconds: delaySeconds, dead_letter: deadLetter, error: String(error) });
      message.retry({ delaySeconds });
    }
  }
}
