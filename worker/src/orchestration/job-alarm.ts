import { workerConfig, type ConfigInput } from "../config";
import { WebhookOutbox } from "../webhooks/outbox";

/**
 * A Durable Object has one alarm; a job needs two timers: the watchdog deadline of a running job and the next
 * due webhook delivery. Both live in the object's storage and the alarm is always set to the earlier one.
 */

/** Epoch ms by which the renderer must report again; present only while the job is running. */
export const WATCHDOG_KEY = "watchdog_at";

export function jobOutbox(storage: DurableObjectStorage, env: ConfigInput): WebhookOutbox {
  return new WebhookOutbox(storage.sql, workerConfig(env).webhookRetryBaseSeconds);
}

export async function armJobAlarm(storage: DurableObjectStorage, env: ConfigInput): Promise<number | null> {
  const watchdogAt = (await storage.get<number>(WATCHDOG_KEY)) ?? null;
  const webhookAt = jobOutbox(storage, env).nextDueAt();
  const candidates = [watchdogAt, webhookAt].filter((t): t is number => t !== null);
  if (candidates.length === 0) {
    await storage.deleteAlarm();
    return null;
  }
  const at = Math.min(...candidates);
  await storage.setAlarm(at);
  return at;
}
