import { z } from "zod";
import { jobErrorCodesDescription } from "./job-errors";
import { JobResults } from "./results";

/**
 * Webhooks (docs/API.md): every delivery is a POST of `{event, payload}` to the job's webhook_url. The Worker
 * builds the payloads in worker/src/webhooks/payloads.ts and keeps the delivery log in the job's outbox
 * (worker/src/webhooks/outbox.ts); these schemas describe them for the OpenAPI document and the typed client.
 */

export const WEBHOOK_EVENT_NAMES = ["job.running", "job.completed", "job.failed"] as const;
export const WebhookEventName = z.enum(WEBHOOK_EVENT_NAMES);
export type WebhookEventName = z.infer<typeof WebhookEventName>;

export const JobRunningPayload = z
  .object({
    job_id: z.string(),
    status: z.literal("running"),
    started_at: z.string().nullable().meta({ description: "ISO 8601 UTC." }),
    stage: z.string().nullable(),
    progress: z.number().int().min(0).max(100),
  })
  .meta({ description: "Payload of job.running: a worker picked the job up." });
export type JobRunningPayload = z.infer<typeof JobRunningPayload>;

export const JobFailedPayload = z
  .object({
    job_id: z.string(),
    status: z.literal("failed"),
    error: z.string().meta({ description: "Human-readable message (never a stack trace)." }),
    error_code: z.string().meta({ description: `Stable code. ${jobErrorCodesDescription}` }),
    refunded_credits: z.number().int(),
  })
  .meta({ description: "Payload of job.failed: the job failed or was cancelled; credits were refunded." });
export type JobFailedPayload = z.infer<typeof JobFailedPayload>;

export const JobRunningEvent = z.object({ event: z.literal("job.running"), payload: JobRunningPayload });
/**
 * The job.completed payload has the shape of GET /jobs/{id}/results; its download links are signed afresh for
 * every delivery attempt (retries and redeliveries), so they are valid when the receiver gets them.
 */
export const JobCompletedEvent = z.object({ event: z.literal("job.completed"), payload: JobResults });
export const JobFailedEvent = z.object({ event: z.literal("job.failed"), payload: JobFailedPayload });

/** Body of any delivery, discriminated by `event`. */
export const WebhookEvent = z.discriminatedUnion("event", [JobRunningEvent, JobCompletedEvent, JobFailedEvent]);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

// ---- delivery log (GET /jobs/{id}/webhooks) -------------------------------------------------------------------

export const WebhookDeliveryAttempt = z.object({
  attempt: z.number().int().meta({ description: "1 for the first try, then one per retry." }),
  at: z.string().meta({ description: "ISO 8601 UTC." }),
  status_code: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when none came back." }),
  error: z.string().nullable().meta({ description: "Why the attempt failed (HTTP status, timeout, network); null on success." }),
  duration_ms: z.number().int(),
});
export type WebhookDeliveryAttempt = z.infer<typeof WebhookDeliveryAttempt>;

export const WebhookDelivery = z
  .object({
    id: z.string().meta({ description: "Delivery id (X-Service-Delivery-Id)." }),
    event_id: z.string().meta({ description: "Event id (X-Service-Event-Id); a redelivery keeps it, so receivers can de-duplicate." }),
    event: WebhookEventName,
    url: z.string(),
    status: z.enum(["pending", "delivered", "failed"]).meta({
      description: "pending: more attempts will follow; delivered: a 2xx came back; failed: every retry is used up.",
    }),
    attempts: z.array(WebhookDeliveryAttempt),
    next_attempt_at: z.string().nullable().meta({ description: "When the next attempt is due; null unless pending." }),
    created_at: z.string(),
    redelivery_of: z.string().nullable().meta({ description: "The delivery this one repeats (POST .../redeliver)." }),
  })
  .meta({ description: "One delivery of one event, with every attempt." });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = z
  .object({
    job_id: z.string(),
    webhook_url: z.string().nullable().meta({ description: "Where the job's events go; null when the job has none." }),
    deliveries: z.array(WebhookDelivery).meta({ description: "Oldest first." }),
  })
  .meta({ description: "Answer of GET /jobs/{id}/webhooks." });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

export const WebhookRedelivery = z
  .object({
    id: z.string().meta({ description: "The new delivery." }),
    redelivery_of: z.string(),
    status: z.literal("pending"),
  })
  .meta({ description: "Answer of POST /jobs/{id}/webhooks/{delivery_id}/redeliver: queued, sent within seconds." });
export type WebhookRedelivery = z.infer<typeof WebhookRedelivery>;
