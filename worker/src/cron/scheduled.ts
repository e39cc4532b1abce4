import type { Env } from "../env";
import { requeueStalePendingJobs } from "./pending-jobs";
import { markExpiredArtifacts } from "./retention";
import { checkStaleRunningJobs } from "./stale-jobs";
import { openDb } from "../storage/db";
import { deleteExpiredIdempotencyKeys } from "../storage/idempotency";
import { deleteExpiredAnalyses } from "../storage/analyses";

/** Hourly: marking the records of expired files (R2's lifecycle rule deletes them) and the safety nets for stalled running jobs and lost queue messages. One failing does not stop the others. */
export async function handleScheduled(controller: ScheduledController, env: Env, _ctx: ExecutionContext): Promise<void> {
  const now = new Date(controller.scheduledTime);
  const [retention, watchdog, pending, keys, analyses] = await Promise.allSettled([
    markExpiredArtifacts(env, now),
    checkStaleRunningJobs(env),
    requeueStalePendingJobs(env, now.getTime()),
    deleteExpiredIdempotencyKeys(openDb(env.DB), now.getTime()).then((deleted) => ({ deleted })),
    deleteExpiredAnalyses(openDb(env.DB), now).then((deleted) => ({ deleted })),
  ]);
  for (const [task, outcome] of [["retention", retention], ["watchdog", watchdog], ["pending", pending], ["idempotency keys", keys], ["stored analyses", analyses]] as const) {
    if (outcome.status === "fulfilled") console.log(JSON.stringify({ level: "info", msg: `cron ${task}`, ...outcome.value }));
    else console.error(JSON.stringify({ level: "error", msg: `cron ${task} failed`, error: String(outcome.reason) }));
  }
  if (retention.status === "rejected") throw retention.reason;
  if (watchdog.status === "rejected") throw watchdog.reason;
  if (pending.status === "rejected") throw pending.reason;
}
