import { signedByAcceptedKey, type LinkEnv } from "./links";
import { hmacBase64Url, toBase64Url } from "./signing";
import { R2_MAX_OBJECT_BYTES, R2_MAX_PARTS } from "./platform-limits";
import { workerConfig, type ConfigInput } from "../config";

/**
 * Uploads in parts through the Worker (upload mode "worker", no R2 API credentials): the renderer sends a file
 * larger than one request may carry as numbered parts, each streamed into an R2 multipart upload by the binding.
 *
 * Limits respected (Cloudflare's published figures):
 * - Worker request body: 100 MB on Free and Pro (200 MB Business, 500 MB Enterprise). Each request carries one
 *   part, so a part must stay well under 100 MB: 64 MiB (67,108,864 bytes) by default.
 * - R2 multipart: every part but the last at least 5 MiB and all of the same size, the last no larger; at most
 *   10,000 parts; an object at most 5 TiB minus 5 GiB. With 64 MiB parts one file may be up to 625 GiB.
 * - R2 aborts an incomplete multipart upload by itself after 7 days (the bucket's default lifecycle rule), so
 *   one a crashed renderer leaves behind does not linger.
 */

export { R2_MAX_OBJECT_BYTES, R2_MAX_PARTS, R2_MIN_PART_BYTES, WORKER_MAX_REQUEST_BYTES } from "./platform-limits";

/** The part size this Worker hands out (UPLOAD_PART_BYTES, checked against the limits by config.ts). */
export function uploadPartBytes(env: ConfigInput): number {
  return workerConfig(env).uploadPartBytes;
}

/** Largest file one multipart upload may hold with parts of `partBytes`. */
export function maxUploadBytes(partBytes: number): number {
  return Math.min(R2_MAX_OBJECT_BYTES, partBytes * R2_MAX_PARTS);
}

/**
 * What the Worker fixed when the upload started. It travels inside the upload id the renderer is given (signed),
 * so every later call is checked against it without any stored state.
 */
export interface UploadPlan {
  jobId: string;
  name: string;
  /** R2's multipart upload id. */
  r2UploadId: string;
  sizeBytes: number;
  partBytes: number;
  /** Also stored in the object's custom metadata: a repeated "complete" recognises its own finished upload. */
  nonce: string;
}

export function partCount(plan: Pick<UploadPlan, "sizeBytes" | "partBytes">): number {
  return Math.ceil(plan.sizeBytes / plan.partBytes);
}

/** Every part is exactly partBytes long except the last, which holds the remainder (R2's equal-size rule). */
export function expectedPartBytes(plan: Pick<UploadPlan, "sizeBytes" | "partBytes">, partNumber: number): number {
  const count = partCount(plan);
  return partNumber < count ? plan.partBytes : plan.sizeBytes - (count - 1) * plan.partBytes;
}

const handlePayload = (body: string) => `upload\n${body}`;

/** `<base64url(JSON)>.<HMAC>`: opaque to the renderer, made with LINK_SIGNING_KEY like its bearer token. */
export async function signUploadId(env: LinkEnv, plan: UploadPlan): Promise<string> {
  const body = toBase64Url(new TextEncoder().encode(JSON.stringify([plan.jobId, plan.name, plan.r2UploadId, plan.sizeBytes, plan.partBytes, plan.nonce])));
  return `${body}.${await hmacBase64Url(env.LINK_SIGNING_KEY, handlePayload(body))}`;
}

/** The plan behind an upload id, or null when it was not made by this Worker (or a previous key) for this file. */
export async function readUploadId(env: LinkEnv, jobId: string, name: string, uploadId: string): Promise<UploadPlan | null> {
  const [body, sig, extra] = uploadId.split(".");
  if (!body || !sig || extra !== undefined || uploadId.length > 4096) return null;
  if (!(await signedByAcceptedKey(env, handlePayload(body), sig))) return null;
  let fields: unknown;
  try {
    fields = JSON.parse(new TextDecoder().decode(fromBase64Url(body)));
  } catch {
    return null;
  }
  if (!Array.isArray(fields) || fields.length !== 6) return null;
  const [j, n, u, s, p, nonce] = fields as unknown[];
  if (j !== jobId || n !== name || typeof u !== "string" || typeof nonce !== "string") return null;
  if (typeof s !== "number" || typeof p !== "number") return null;
  return { jobId: j, name: n, r2UploadId: u, sizeBytes: s, partBytes: p, nonce };
}

function fromBase64Url(s: string): Uint8Array {
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** R2's error number from a binding error ("... (10024)"), or null for anything else. */
export function r2ErrorCode(error: unknown): number | null {
  if (typeof error !== "object" || error === null) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "number") return code;
  const m = /\((\d{5,6})\)\s*$/.exec(String((error as { message?: unknown }).message ?? ""));
  return m ? Number(m[1]) : null;
}

export const R2_NO_SUCH_UPLOAD = 10024;
export const R2_INVALID_PART = 10025;
export const R2_ENTITY_TOO_SMALL = 10011;
export const R2_BAD_UPLOAD = 10048;
