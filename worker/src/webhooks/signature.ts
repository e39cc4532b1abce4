import { standardWebhooksContent, standardWebhooksKey, toBase64 } from "../../../common/webhooks/standard-webhooks";
import { hmacHex } from "../artifacts/signing";

/** Standard Webhooks signature: base64 HMAC-SHA256 of "<id>.<timestamp>.<body>" with the key of standardWebhooksKey. */
async function standardSignature(secret: string, id: string, ts: number, rawBody: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", standardWebhooksKey(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const content = standardWebhooksContent(id, ts, new TextEncoder().encode(rawBody));
  return toBase64(new Uint8Array(await crypto.subtle.sign("HMAC", key, content)));
}

/**
 * Headers of one delivery attempt.
 * - X-Service-Signature: the primary signature, hex HMAC-SHA256 of the exact raw body with the account's secret.
 * - X-Service-Event-Id: the same for every attempt of one event, so receivers can de-duplicate retries.
 * - X-Service-Timestamp + X-Service-Signature-Timestamped (`t=<unix>,v1=<hex HMAC of "<unix>.<body>">`): lets a
 *   receiver reject replays of old deliveries; the plain spec signature cannot, since it does not cover time.
 * - webhook-id, webhook-timestamp, webhook-signature (Standard Webhooks): `v1,<base64 HMAC-SHA256 of
 *   "<webhook-id>.<webhook-timestamp>.<body>">` keyed as standardWebhooksKey describes, so receivers can use the
 *   ready-made verifiers. webhook-id is the event id (the same on retries and redeliveries).
 */
export async function webhookHeaders(secret: string, rawBody: string, meta: { event: string; eventId: string; deliveryId: string; attempt: number; now?: Date }): Promise<Record<string, string>> {
  const ts = Math.floor((meta.now ?? new Date()).getTime() / 1000);
  return {
    "content-type": "application/json",
    "user-agent": "highlight-api-webhooks/1",
    "x-service-event": meta.event,
    "x-service-event-id": meta.eventId,
    "x-service-delivery-id": meta.deliveryId,
    "x-service-delivery-attempt": String(meta.attempt),
    "x-service-timestamp": String(ts),
    "x-service-signature": await hmacHex(secret, rawBody),
    "x-service-signature-timestamped": `t=${ts},v1=${await hmacHex(secret, `${ts}.${rawBody}`)}`,
    "webhook-id": meta.eventId,
    "webhook-timestamp": String(ts),
    "webhook-signature": `v1,${await standardSignature(secret, meta.eventId, ts, rawBody)}`,
  };
}
