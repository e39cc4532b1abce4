import { checkWebhookTarget, targetPolicy } from "../domain/webhook-target";
import type { Env } from "../env";
import { DELIVERY_ERRORS, type SendResult, postWebhook, type Sender } from "./outbox";
import { bodyForAttempt } from "./payloads";
import { webhookHeaders } from "./signature";

/**
 * One attempt of one delivery: signed with the account's current webhook signing secret, read from D1 at send
 * time so a rotated secret applies to retries too. The body is the one built for this attempt (job.completed
 * links are re-signed, see bodyForAttempt) and the signatures cover exactly those bytes. The URL is checked again
 * before every attempt: one stored before the check existed, or while loopback receivers were allowed, is not sent.
 */
export async function deliverWebhook(env: Env, job: { job_id: string; account_id: string }, d: Parameters<Sender>[0]): Promise<SendResult> {
  if (!checkWebhookTarget(d.url, targetPolicy(env)).ok) return { status_code: null, error: DELIVERY_ERRORS.refused, duration_ms: 0 };
  const row = await env.DB.prepare("SELECT webhook_signing_secret AS secret FROM accounts WHERE id = ?").bind(job.account_id).first<{ secret: string }>();
  if (!row?.secret) return { status_code: null, error: "the account has no webhook signing secret", duration_ms: 0 };
  const body = await bodyForAttempt(env, job.job_id, d);
  const headers = await webhookHeaders(row.secret, body, { event: d.event, eventId: d.event_id, deliveryId: d.id, attempt: d.attempt });
  return postWebhook(d.url, body, headers);
}
