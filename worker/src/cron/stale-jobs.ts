import { watchdogMs } from "../orchestration/watchdog";
import type { Env } from "../env";

/**
 * Safety net behind each job's watchdog alarm: running jobs whose D1 record has not changed for longer than the
 * watchdog allows are asked to check themselves. The JobState decides with its own, fresher report time (a
 * progress report that changes nothing does not touch D1) and re-arms its alarm if it was lost.
 */
export async function checkStaleRunningJobs(env: Env, now = Date.now()): Promise<{ checked: number; failed: number }> {
  const staleBefore = new Date(now - watchdogMs(env)).toISOString();
  const { results } = await env.DB.prepare("SELECT id FROM jobs WHERE status = 'running' AND updated_at <= ? ORDER BY updated_at LIMIT 200")
    .bind(staleBefore)
    .all<{ id: string }>();
  let failed = 0;
  for (const { id } of results) {
    if (await env.JOB_STATE.get(env.JOB_STATE.idFromName(id)).checkWatchdog()) failed += 1;
  }
  return { checked: results.length, failed };
}
