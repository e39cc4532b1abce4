import { z } from "zod";
import { WebhookDeliveryList, WebhookRedelivery } from "../../../common/contract";
import { declareRoute } from "../openapi/declare-route";
import { JobIdParam } from "./path-params";

/** The webhook log routes as the document shows them (mounted at /jobs; handlers in webhooks.ts). */

export const listWebhookDeliveries = declareRoute({
  method: "get",
  path: "/{id}/webhooks",
  operationId: "listWebhookDeliveries",
  tag: "webhooks",
  summary: "Webhook deliveries of a job, with every attempt",
  description: "Shows what was sent to the job's webhook_url, when, and what the receiver answered.",
  auth: "apiKey",
  params: JobIdParam,
  success: { status: 200, description: "The delivery log.", schema: WebhookDeliveryList },
  errors: ["job_not_found"],
});

export const redeliverWebhook = declareRoute({
  method: "post",
  path: "/{id}/webhooks/{delivery_id}/redeliver",
  operationId: "redeliverWebhook",
  tag: "webhooks",
  summary: "Send a delivery again",
  description:
    "Queues a new delivery of the same event (same X-Service-Event-Id, so receivers can de-duplicate), with its " +
    "own retries. job.running and job.failed go out byte for byte as before; a job.completed body is rebuilt with " +
    "freshly signed links (same shape), even when the original's have expired. No body. At most 5 redeliveries " +
    "per event (original and redeliveries share the event id) per sliding hour; beyond, 429 with Retry-After.",
  auth: "apiKey",
  params: JobIdParam.extend({ delivery_id: z.string().meta({ description: "Delivery id (`dlv_...`) from GET /jobs/{id}/webhooks." }) }),
  success: { status: 202, description: "Queued.", schema: WebhookRedelivery },
  errors: ["job_not_found", "delivery_not_found", "rate_limited"],
  errorExamples: {
    rate_limited: {
      code: "rate_limited",
      message: "At most 5 redeliveries of one webhook event per hour; retry in 3412 s.",
      retry_after_seconds: 3412,
    },
  },
});
