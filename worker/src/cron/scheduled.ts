import type { Env } from "../env";
import { sweepExpiredArtifacts } from "./retention";
import { checkStaleRunningJobs } from "./stale-jobs";

/** Hourly: retention sweep and the watchdog safety net. One failing does not stop the other. */
export async function handleScheduled(controller: ScheduledController, env: Env, _ctx: ExecutionContext): Promise<void> {
  const now = new Date(controller.scheduledTime);
  const [retention, watchdog] = await Promise.allSettled([sweepExpiredArtifacts(env, now), checkStaleRunningJobs(env)]);
  for (const [task, outcome] of [["retention", retention], ["watchdog", watchdog]] as const) {
    if (outcome.status === "fulfilled") console.log(JSON.stringify({ level: "info", msg: `cron ${task}`, ...outcome.value }));
    else console.error(JSON.stringify({ level: "error", msg: `cron ${task} failed`, error: String(outcome.reason) }));
  }
  if (retention.status === "rejected") throw retention.reason;
  if (watchdog.status === "rejected") throw watchdog.reason;
}
