import type { Env } from "../env";
import { type SendResult, postWebhook, type Sender } from "./outbox";
import { webhookHeaders } from "./signature";

/**
 * One attempt of one delivery: signed with the account's current webhook signing secret, read from D1 at send
 * time so a rotated secret applies to retries too.
 */
export async function deliverWebhook(env: Env, accountId: string, d: Parameters<Sender>[0]): Promise<SendResult> {
  const row = await env.DB.prepare("SELECT webhook_signing_secret AS secret FROM accounts WHERE id = ?").bind(accountId).first<{ secret: string }>();
  if (!row?.secret) return { status_code: null, error: "the account has no webhook signing secret", duration_ms: 0 };
  const headers = await webhookHeaders(row.secret, d.body, { event: d.event, eventId: d.event_id, deliveryId: d.id, attempt: d.attempt });
  return postWebhook(d.url, d.body, headers);
}
