import type { AppEnv } from "../hono-env";
import { ApiError } from "../lib/api-error";
import { ApiRouter } from "../openapi/api-router";
import { ownedJob } from "./owned-job";
import { listWebhookDeliveries, redeliverWebhook } from "./webhooks.routes";

/** Webhook delivery log of a job and manual redelivery (API key, own jobs only). */
export const webhookRoutes = new ApiRouter();

/**
 * Manual redeliveries of one event (its first delivery and every redelivery share the event id) allowed per
 * sliding hour. Each redelivery can make up to 4 attempts, so without a limit one client could turn the service
 * into a request generator against its receiver.
 */
export const REDELIVERY_LIMIT = 5;
export const REDELIVERY_WINDOW_MS = 60 * 60 * 1000;

const jobState = (env: AppEnv["Bindings"], jobId: string) => env.JOB_STATE.get(env.JOB_STATE.idFromName(jobId));

webhookRoutes.openapi(listWebhookDeliveries, async (c) => {
  const job = await ownedJob(c.env, c.get("account"), c.req.param("id"));
  const deliveries = await jobState(c.env, job.id).listWebhooks();
  return c.json({ job_id: job.id, webhook_url: job.webhookUrl, deliveries }, 200);
});

webhookRoutes.openapi(redeliverWebhook, async (c) => {
  const job = await ownedJob(c.env, c.get("account"), c.req.param("id"));
  const deliveryId = c.req.param("delivery_id");
  const state = jobState(c.env, job.id);
  const delivery = (await state.listWebhooks()).find((d) => d.id === deliveryId);
  if (!delivery) throw new ApiError(404, "delivery_not_found", "This job has no webhook delivery with that id.");
  // Counted per event, so redelivering a redelivery does not start a fresh count.
  const limiter = c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(`redeliver:${job.id}:${delivery.event_id}`));
  const decision = await limiter.hit(REDELIVERY_LIMIT, REDELIVERY_WINDOW_MS);
  if (!decision.allowed) {
    throw new ApiError(
      429,
      "rate_limited",
      `At most ${REDELIVERY_LIMIT} redeliveries of one webhook event per hour; retry in ${decision.retryAfterSeconds} s.`,
      { retry_after_seconds: decision.retryAfterSeconds },
      { "Retry-After": String(decision.retryAfterSeconds) },
    );
  }
  const created = await state.redeliverWebhook(deliveryId);
  if (!created) throw new ApiError(404, "delivery_not_found", "This job has no webhook delivery with that id.");
  return c.json({ id: created.id, redelivery_of: deliveryId, status: "pending" }, 202);
});
