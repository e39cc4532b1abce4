import type { JobTransition } from "../domain/job-transition";
import type { Env } from "../env";
import { openDb } from "../storage/db";
import { findJobById } from "../storage/jobs";
import type { WebhookEvent, WebhookOutbox } from "./outbox";
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
 * Puts a status change's webhook events into the job's durable outbox (the JobState object's own storage,
 * which calls this and then arms its alarm to deliver them). Jobs without a webhook_url produce nothing. An
 * event whose payload cannot be built throws; the ones enqueued before it stay and go out.
 */
export async function enqueueWebhooks(env: Env, outbox: WebhookOutbox, t: JobTransition): Promise<void> {
  const events = eventsFor(t);
  if (events.length === 0) return;
  const row = await findJobById(openDb(env.DB), t.job_id);
  if (!row?.webhookUrl) return;
  for (const event of events) {
    const payload = event === "job.running" ? runningPayload(t.state) : event === "job.failed" ? failedPayload(t.state) : await completedPayload(env, row);
    outbox.enqueue(event, row.webhookUrl, payload);
  }
}
