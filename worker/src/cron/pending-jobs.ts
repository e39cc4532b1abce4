import type { Env } from "../env";

/** A pending job older than this has most likely lost its queue message (the queue dispatches in seconds). */
export const PENDING_REQUEUE_AFTER_MS = 15 * 60 * 1000;

/**
 * Safety net for lost queue messages: pending jobs that have waited too long are queued again. Dispatch only
 * starts jobs that are still pending and the renderer ignores a second start, so a duplicate is harmless.
 */
export async function requeueStalePendingJobs(env: Pick<Env, "DB" | "JOBS_QUEUE">, now = Date.now()): Promise<{ requeued: number }> {
  const before = new Date(now - PENDING_REQUEUE_AFTER_MS).toISOString();
  const { results } = await env.DB.prepare("SELECT id FROM jobs WHERE status = 'pending' AND updated_at <= ? ORDER BY updated_at LIMIT 100")
    .bind(before)
    .all<{ id: string }>();
  if (results.length > 0) await env.JOBS_QUEUE.sendBatch(results.map(({ id }) => ({ body: { job_id: id } })));
  return { requeued: results.length };
}
