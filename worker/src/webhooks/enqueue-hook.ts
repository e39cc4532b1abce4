import { armJobAlarm, jobOutbox } from "../orchestration/job-alarm";
import type { JobTransition, TransitionHook } from "../durable/transition-hooks";
import { openDb } from "../storage/db";
import { findJobById } from "../storage/jobs";
import type { WebhookEvent } from "./outbox";
import { completedPayload, failedPayload, runningPayload } from "./payloads";

/** The events a status change produces, in order. */
export function eventsFor(t: JobTransition): WebhookEvent[] {
  if (t.to === "running") return ["job.running"];
  // Direct pending -> completed (no running report came first): the client still hears job.running once, first.
  if (t.to === "completed") return t.from === "pending" ? ["job.running", "job.completed"] : ["job.completed"];
  if (t.to === "failed") return ["job.failed"];
  return [];
}

/**
 * Puts the job's webhook events into its durable outbox (same object, same storage) and arms the alarm that
 * delivers them. Jobs without a webhook_url produce nothing.
 */
export const enqueueWebhooks: TransitionHook = async (t, { env, ctx }) => {
  const events = eventsFor(t);
  if (events.length === 0) return;
  const row = await findJobById(openDb(env.DB), t.job_id);
  if (!row?.webhookUrl) return;
  const outbox = jobOutbox(ctx.storage, env);
  try {
    for (const event of events) {
      const payload =
        event === "job.running" ? runningPayload(t.state) : event === "job.failed" ? failedPayload(t.state) : await completedPayload(env, row);
      outbox.enqueue(event, row.webhookUrl, payload);
    }
  } finally {
    // Whatever was enqueued goes out even if a later payload could not be built (that error is logged by the caller).
    await armJobAlarm(ctx.storage, env);
  }
};
