import type { WebhookEvent } from "../contract";
import { standardWebhooksContent, standardWebhooksKey, v1Signatures } from "../webhooks/standard-webhooks";

/**
 * Checks a webhook delivery on the receiver's side, with Web Crypto only (Workers, Node 18+, browsers).
 *
 * - `signature` is X-Service-Signature: hex HMAC-SHA256 of the exact raw body, keyed with the account's webhook
 *   signing secret. Compare against the bytes as received, before any JSON parsing.
 * - `timestampedSignature` is X-Service-Signature-Timestamped, `t=<unix>,v1=<hex HMAC of "<unix>.<body>">`. The
 *   plain signature does not cover time, so a captured delivery could be replayed forever; the timestamped one
 *   can be checked for age. Giving it turns the replay check on (`toleranceSeconds`, default 300); giving
 *   `toleranceSeconds` without it is a failure (the caller asked for a check that cannot be made).
 * - `timestamp` is X-Service-Timestamp; when given it must equal the `t` inside the timestamped signature.
 * - `standard` holds the Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature): a
 *   `v1,<base64>` HMAC-SHA256 of "<id>.<timestamp>.<body>", keyed with the base64 decoding of the secret's text
 *   after `whsec_` (see common/webhooks/standard-webhooks.ts). Its timestamp is always checked for age.
 * - `headers` instead picks every one of these from the request's headers.
 *
 * Every signature given must match; at least one must be given.
 */
export interface VerifyWebhookOptions {
  rawBody: string | Uint8Array | ArrayBuffer;
  signature?: string | null;
  secret: string;
  timestamp?: string | number | null;
  timestampedSignature?: string | null;
  /** Largest accepted distance between the delivery's timestamp and now, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** Current time in ms (tests). Default Date.now(). */
  now?: number;
  /** The Standard Webhooks headers of the delivery. */
  standard?: { id?: string | null; timestamp?: string | number | null; signature?: string | null } | null;
  /**
   * The delivery's headers (a Headers object or a plain object with lower-case names, as Node gives them): fills
   * signature, timestampedSignature, timestamp and standard from X-Service-Signature, X-Service-Signature-Timestamped,
   * X-Service-Timestamp and webhook-id/-timestamp/-signature, where those options are not given.
   */
  headers?: Headers | Record<string, string | string[] | undefined>;
}

export type WebhookFailure =
  | "missing_signature"
  | "missing_timestamped_signature"
  | "signature_mismatch"
  | "malformed_timestamped_signature"
  | "timestamp_mismatch"
  | "stale_timestamp"
  | "malformed_standard_headers";

export type WebhookVerification = { ok: true; timestamp: number | null } | { ok: false; reason: WebhookFailure };

export const DEFAULT_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

/** Web Crypto wants bytes backed by a plain ArrayBuffer; a view over shared memory is copied. */
type Bytes = Uint8Array<ArrayBuffer>;

function toBytes(body: string | Uint8Array | ArrayBuffer): Bytes {
  if (typeof body === "string") return encoder.encode(body) as Bytes;
  if (body instanceof Uint8Array) return body.buffer instanceof ArrayBuffer ? (body as Bytes) : new Uint8Array(body);
  return new Uint8Array(body);
}

/** Lower- or upper-case hex to bytes; null for anything that is not whole hex pairs. */
function fromHex(hex: string): Uint8Array | null {
  const clean = hex.trim();
  if (clean.length === 0 || clean.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(clean)) return null;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Compares every byte whatever the first difference, so timing does not tell how much of a guess was right. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

async function hmac(secret: string, data: Bytes): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, data));
}

async function matches(secret: string, data: Bytes, hexSignature: string): Promise<boolean> {
  const given = fromHex(hexSignature);
  const expected = await hmac(secret, data);
  return given !== null && constantTimeEqual(given, expected);
}

/** `t=<unix>,v1=<hex>` (order-free; several v1 entries allowed, as during a secret rotation). */
function parseTimestamped(header: string): { t: number; v1: string[] } | null {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") t = /^\d+$/.test(value) ? Number(value) : null;
    else if (key === "v1") v1.push(value);
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}

function header(headers: VerifyWebhookOptions["headers"], name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value.join(" ") : value;
}

/** The options with every signature the headers carry filled in. */
function withHeaders(options: VerifyWebhookOptions): VerifyWebhookOptions {
  const h = options.headers;
  if (!h) return options;
  const standard = options.standard ?? {
    id: header(h, "webhook-id"),
    timestamp: header(h, "webhook-timestamp"),
    signature: header(h, "webhook-signature"),
  };
  return {
    ...options,
    signature: options.signature ?? header(h, "x-service-signature"),
    timestampedSignature: options.timestampedSignature ?? header(h, "x-service-signature-timestamped"),
    timestamp: options.timestamp ?? header(h, "x-service-timestamp"),
    standard: standard.signature ? standard : null,
  };
}

/** The Standard Webhooks check: null when it passes, else why not; `at` is its timestamp. */
async function checkStandard(
  options: VerifyWebhookOptions,
  body: Bytes,
): Promise<{ failure: WebhookFailure | null; at: number | null }> {
  const { id, timestamp, signature } = options.standard ?? {};
  const ts = timestamp === undefined || timestamp === null ? "" : String(timestamp).trim();
  if (!signature || !id || !/^\d+$/.test(ts)) return { failure: "malformed_standard_headers", at: null };
  const candidates = v1Signatures(signature);
  if (candidates.length === 0) return { failure: "malformed_standard_headers", at: null };
  const key = await crypto.subtle.importKey("raw", standardWebhooksKey(options.secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const expected = new Uint8Array(await crypto.subtle.sign("HMAC", key, standardWebhooksContent(id, ts, body)));
  let any = false;
  for (const candidate of candidates) any = constantTimeEqual(fromBase64(candidate) ?? new Uint8Array(0), expected) || any;
  if (!any) return { failure: "signature_mismatch", at: null };
  const at = Number(ts);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs((options.now ?? Date.now()) / 1000 - at) > tolerance) return { failure: "stale_timestamp", at };
  return { failure: null, at };
}

function fromBase64(text: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

export async function verifyWebhook(given: VerifyWebhookOptions): Promise<WebhookVerification> {
  const options = withHeaders(given);
  const body = toBytes(options.rawBody);
  const { signature, timestampedSignature } = options;
  const standardGiven = Boolean(options.standard && (options.standard.signature || options.standard.id || options.standard.timestamp));
  if (!signature && !timestampedSignature && !standardGiven) return { ok: false, reason: "missing_signature" };

  if (signature && !(await matches(options.secret, body, signature))) return { ok: false, reason: "signature_mismatch" };
  let standardAt: number | null = null;
  if (standardGiven) {
    const standard = await checkStandard(options, body);
    if (standard.failure) return { ok: false, reason: standard.failure };
    standardAt = standard.at;
  }
  if (!timestampedSignature) {
    if (standardAt !== null) return { ok: true, timestamp: standardAt };
    // A tolerance asks for the replay check, which only the timestamped signature can give.
    return options.toleranceSeconds === undefined ? { ok: true, timestamp: null } : { ok: false, reason: "missing_timestamped_signature" };
  }

  const parsed = parseTimestamped(timestampedSignature);
  if (!parsed) return { ok: false, reason: "malformed_timestamped_signature" };
  const prefix = encoder.encode(`${parsed.t}.`) as Bytes;
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  let any = false;
  for (const candidate of parsed.v1) any = (await matches(options.secret, signed, candidate)) || any;
  if (!any) return { ok: false, reason: "signature_mismatch" };
  if (options.timestamp !== undefined && options.timestamp !== null && String(options.timestamp).trim() !== String(parsed.t)) {
    return { ok: false, reason: "timestamp_mismatch" };
  }
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = (options.now ?? Date.now()) / 1000;
  if (Math.abs(nowSeconds - parsed.t) > tolerance) return { ok: false, reason: "stale_timestamp" };
  return { ok: true, timestamp: parsed.t };
}

export class WebhookVerificationError extends Error {
  constructor(readonly reason: WebhookFailure) {
    super(`Webhook rejected: ${reason.replace(/_/g, " ")}.`);
    this.name = "WebhookVerificationError";
  }
}

/** Verifies, then parses the body: the `{event, payload}` of an authentic delivery, or a WebhookVerificationError. */
export async function parseWebhook(options: VerifyWebhookOptions): Promise<WebhookEvent> {
  const result = await verifyWebhook(options);
  if (!result.ok) throw new WebhookVerificationError(result.reason);
  const text = typeof options.rawBody === "string" ? options.rawBody : new TextDecoder().decode(toBytes(options.rawBody));
  return JSON.parse(text) as WebhookEvent;
}
