import { Hono } from "hono";
import type { AppEnv } from "../hono-env";
import { ApiError } from "../lib/api-error";
import { apiKeyAuth } from "../middleware/api-key-auth";
import { ownedJob } from "./owned-job";

/** Webhook delivery log of a job and manual redelivery (API key, own jobs only). */
export const webhookRoutes = new Hono<AppEnv>();

const jobState = (env: AppEnv["Bindings"], jobId: string) => env.JOB_STATE.get(env.JOB_STATE.idFromName(jobId));

webhookRoutes.get("/:id/webhooks", apiKeyAuth, async (c) => {
  const job = await ownedJob(c.env, c.get("account"), c.req.param("id"));
  const deliveries = await jobState(c.env, job.id).listWebhooks();
  return c.json({ job_id: job.id, webhook_url: job.webhookUrl, deliveries }, 200);
});

webhookRoutes.post("/:id/webhooks/:delivery_id/redeliver", apiKeyAuth, async (c) => {
  const job = await ownedJob(c.env, c.get("account"), c.req.param("id"));
  const deliveryId = c.req.param("delivery_id");
  const created = await jobState(c.env, job.id).redeliverWebhook(deliveryId);
  if (!created) throw new ApiError(404, "delivery_not_found", "This job has no webhook delivery with that id.");
  return c.json({ id: created.id, redelivery_of: deliveryId, status: "pending" }, 202);
});
