import worker from "../../worker/src/index";
import type { Env, JobQueueMessage } from "../../worker/src/env";

export { JobState, RateLimiter, RecutContainer, RenderContainer } from "../../worker/src/index";

/**
 * A development-only Worker entry for the chaos run (scripts/chaos-run.ts): the production Worker unchanged, plus
 * one fault it cannot be made to show from outside, a queue message delivered twice (Cloudflare Queues deliver
 * at least once). It is never deployed: `wrangler deploy` builds wrangler.toml's `main` (worker/src/index.ts);
 * only the local stack started with `workerEntry` runs this file (`wrangler dev dev/chaos/chaos-worker.ts`).
 *
 *   POST /__chaos/duplicate-next-render   (Authorization: Bearer ADMIN_TOKEN) arms it: the next job-queue message
 *                                         for a render task is sent to the queue a second time, as it is, before
 *                                         the production handler sees the first; the Worker's log says which
 *                                         ("chaos: queue message sent a second time").
 *
 * The armed flag lives in this module (`wrangler dev` runs the fetch and queue handlers in one isolate); what was
 * duplicated is read from the log, which outlives a reload of the Worker.
 */
const state = { armed: false };

function authorised(request: Request, env: Env): boolean {
  return Boolean(env.ADMIN_TOKEN) && request.headers.get("authorization") === `Bearer ${env.ADMIN_TOKEN}`;
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (!url.pathname.startsWith("/__chaos/")) return worker.fetch(request, env, ctx);
    if (!authorised(request, env)) return Response.json({ error: { code: "unauthorized", message: "Chaos hooks need Authorization: Bearer <ADMIN_TOKEN>." } }, { status: 401 });
    if (request.method === "POST" && url.pathname === "/__chaos/duplicate-next-render") {
      state.armed = true;
      return Response.json({ armed: true });
    }
    return Response.json({ error: { code: "not_found", message: "No such chaos hook." } }, { status: 404 });
  },
  async queue(batch, env, ctx) {
    if (state.armed && !batch.queue.endsWith("-dlq")) {
      const message = batch.messages.find((m) => {
        const body = m.body as Partial<JobQueueMessage> | null;
        return typeof body?.task_id === "string" && body.task_id !== "analyse";
      });
      if (message) {
        state.armed = false;
        const body = message.body as JobQueueMessage;
        await env.JOBS_QUEUE.send(body);
        console.log(JSON.stringify({ level: "warn", msg: "chaos: queue message sent a second time", job_id: body.job_id, task_id: body.task_id }));
      }
    }
    return worker.queue(batch, env, ctx);
  },
  scheduled: worker.scheduled,
} satisfies ExportedHandler<Env>;
