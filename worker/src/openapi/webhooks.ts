import type { WebhookEventName } from "../../../common/contract";
import type { ResponseSchemaName } from "./components";
import { DEFAULT_WEBHOOK_RETRY_BASE_SECONDS } from "../config";
import { retryDelayMs, WEBHOOK_MAX_RETRIES, WEBHOOK_TIMEOUT_MS } from "../webhooks/outbox";
import { componentRef, type JsonSchema } from "./json-schema";

/**
 * The OpenAPI 3.1 `webhooks` object: the three events the service POSTs to a job's webhook_url, their bodies
 * (from the contract) and the headers every delivery carries (worker/src/webhooks/signature.ts).
 */
const deliveryHeaders: JsonSchema[] = [
  {
    name: "X-Service-Signature",
    required: true,
    description:
      "Hex HMAC-SHA256 of the exact raw body, keyed with the account's webhook signing secret. Compute it over the " +
      "bytes as received, before parsing JSON, and compare in constant time.",
    schema: { type: "string", pattern: "^[0-9a-f]{64}$" },
  },
  {
    name: "X-Service-Signature-Timestamped",
    required: true,
    description:
      "`t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\">` with the same secret. Unlike X-Service-Signature " +
      "it covers the send time, so a receiver can reject replays (e.g. older than 5 minutes).",
    schema: { type: "string", pattern: "^t=\\d+,v1=[0-9a-f]{64}$" },
  },
  { name: "X-Service-Timestamp", required: true, description: "The `t` of the timestamped signature (unix seconds).", schema: { type: "string", pattern: "^\\d+$" } },
  { name: "X-Service-Event", required: true, description: "The event name, also in the body's `event`.", schema: { type: "string" } },
  {
    name: "X-Service-Event-Id",
    required: true,
    description: "Same for every attempt and redelivery of one event: de-duplicate on it (not on the body: job.completed links are re-signed per attempt).",
    schema: { type: "string" },
  },
  { name: "X-Service-Delivery-Id", required: true, description: "This delivery (see GET /jobs/{id}/webhooks).", schema: { type: "string" } },
  { name: "X-Service-Delivery-Attempt", required: true, description: "1 for the first try, 2-4 for retries.", schema: { type: "string", pattern: "^\\d+$" } },
  { name: "webhook-id", required: true, description: "Standard Webhooks (standardwebhooks.com): the event id, as X-Service-Event-Id.", schema: { type: "string" } },
  { name: "webhook-timestamp", required: true, description: "Standard Webhooks: unix seconds, as X-Service-Timestamp.", schema: { type: "string", pattern: "^\\d+$" } },
  {
    name: "webhook-signature",
    required: true,
    description:
      "Standard Webhooks: `v1,<base64 HMAC-SHA256 of \"<webhook-id>.<webhook-timestamp>.<raw body>\">`. The key is the " +
      "base64 decoding of the signing secret's text after `whsec_` (24 bytes for the secrets this service issues), as " +
      "Standard Webhooks libraries derive it: pass the account's secret to them unchanged. (X-Service-Signature is " +
      "keyed with the UTF-8 bytes of the whole secret.)",
    schema: { type: "string", pattern: "^v1,[A-Za-z0-9+/]+={0,2}$" },
  },
].map((h) => ({ in: "header", ...h }));

function retrySchedule(): string {
  const base = DEFAULT_WEBHOOK_RETRY_BASE_SECONDS;
  const delays = Array.from({ length: WEBHOOK_MAX_RETRIES }, (_, i) => `${retryDelayMs(i + 1, base) / 1000} s`);
  return (
    `A delivery succeeds when the receiver answers 2xx within ${WEBHOOK_TIMEOUT_MS / 1000} s (redirects are not followed). ` +
    `Otherwise it is retried up to ${WEBHOOK_MAX_RETRIES} times, waiting ${delays.join(", ")} after each failed attempt ` +
    "(default schedule), then marked failed; GET /jobs/{id}/webhooks shows every attempt and POST " +
    ".../redeliver sends it again. Events of one job are queued in order; answer quickly and do the work afterwards."
  );
}

const EVENTS: Array<{ name: WebhookEventName; schema: ResponseSchemaName; summary: string; description: string }> = [
  {
    name: "job.running",
    schema: "JobRunningEvent",
    summary: "A worker picked the job up",
    description: "Sent once per job, when it leaves pending (also first when a job completes without a running report).",
  },
  {
    name: "job.completed",
    schema: "JobCompletedEvent",
    summary: "Everything is rendered",
    description:
      "The payload is identical to GET /jobs/{id}/results at the moment the attempt is sent: deliverables, zip_url, " +
      "links_expire_at, refunded_credits and the manifest. Every attempt (first try, retry, redelivery) re-signs the links, so they are " +
      "valid for the full link lifetime from that attempt; the body and its signatures can therefore differ between " +
      "attempts of one event (de-duplicate on X-Service-Event-Id). Links expire: fetch fresh ones from the results " +
      "endpoint when needed.",
  },
  {
    name: "job.failed",
    schema: "JobFailedEvent",
    summary: "The job failed or was cancelled",
    description: "Credits were refunded (all of them on failure, by tier on cancel); `error_code` is cancelled_by_user for a cancel.",
  },
];

export function webhookPathItems(): Record<string, JsonSchema> {
  const schedule = retrySchedule();
  return Object.fromEntries(
    EVENTS.map((e) => [
      e.name,
      {
        post: {
          operationId: `webhook_${e.name.replace(".", "_")}`,
          tags: ["webhooks"],
          summary: e.summary,
          description: `${e.description}\n\n${schedule}`,
          parameters: deliveryHeaders,
          requestBody: { required: true, content: { "application/json": { schema: componentRef(e.schema) } } },
          responses: {
            "2XX": { description: "Received; no further attempts." },
            default: { description: "Anything else, or no answer in time: retried as described." },
          },
          security: [],
        },
      },
    ]),
  );
}
