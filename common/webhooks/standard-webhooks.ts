/**
 * Standard Webhooks (standardwebhooks.com) signing details shared by the Worker's signer and the client's verifier.
 *
 * The HMAC key is the bytes that the secret's text after `whsec_` encodes in base64, exactly as the Standard
 * Webhooks libraries derive it from a `whsec_...` secret. Secrets issued by this service are `whsec_` + 32
 * characters of lower-case base32 (a-z, 2-7), which are also valid base64: the key is those 32 characters
 * base64-decoded (24 bytes), and a receiver passes the account's secret unchanged to its Standard Webhooks
 * library. (X-Service-Signature is keyed with the UTF-8 bytes of the whole secret: docs/API.md.) A secret
 * that is not `whsec_<base64>` (none is issued) falls back to its UTF-8 bytes, so a delivery is never unsigned.
 */
export const STANDARD_SECRET_PREFIX = "whsec_";

export function standardWebhooksKey(secret: string): Uint8Array<ArrayBuffer> {
  const encoded = secret.startsWith(STANDARD_SECRET_PREFIX) ? secret.slice(STANDARD_SECRET_PREFIX.length) : "";
  if (encoded.length > 0 && encoded.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) {
    return Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  }
  return new TextEncoder().encode(secret) as Uint8Array<ArrayBuffer>;
}

/** The signed content: `<webhook-id>.<webhook-timestamp>.<raw body>` as bytes (the body is not decoded). */
export function standardWebhooksContent(id: string, timestamp: string | number, rawBody: Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const out = new Uint8Array(prefix.length + rawBody.length);
  out.set(prefix);
  out.set(rawBody, prefix.length);
  return out;
}

export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/** `v1,<base64>` entries of a webhook-signature header (space-separated; other versions ignored). */
export function v1Signatures(header: string): string[] {
  return header
    .trim()
    .split(/\s+/)
    .filter((part) => part.startsWith("v1,"))
    .map((part) => part.slice(3));
}
