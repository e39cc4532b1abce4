import { Hono, type Context } from "hono";
import { z } from "zod";
import { ArtifactRef } from "../../../common/contract";
import { serveStoredObject } from "../artifacts/serve-object";
import { artifactKey, type LinkEnv } from "../artifacts/links";
import {
  expectedPartBytes,
  maxUploadBytes,
  partCount,
  R2_INVALID_PART,
  R2_MAX_PARTS,
  R2_NO_SUCH_UPLOAD,
  r2ErrorCode,
  readUploadId,
  signUploadId,
  uploadPartBytes,
  WORKER_MAX_REQUEST_BYTES,
  type UploadPlan,
} from "../artifacts/multipart-upload";
import { rendererStorageAuth } from "../orchestration/renderer-auth";
import { requireStorageAccess, TASK_STORAGE_PREFIX } from "./task-storage-access";
import type { AppEnv } from "../hono-env";
import { limitBody } from "../middleware/body-limit";
import { ApiError, validationError } from "../lib/api-error";
import { clientErrorMap, issuesToDetail } from "../lib/zod-issues";

/**
 * Renderer <-> Worker file transfer in upload mode "worker" (common/contract/render.ts), all under
 * /internal/jobs/{id}/tasks/{task}/attempts/{n}/artifacts/{name} with that task attempt's token, for the files that
 * task makes (and reads) while the attempt is current (task-storage-access.ts; the job-wide legacy path
 * /internal/jobs/{id}/artifacts/{name} serves only attempts dispatched before per-task scope):
 *
 *   PUT    {name}                                one request, files up to WORKER_MAX_REQUEST_BYTES
 *   POST   {name}?uploads                        start a multipart upload {size_bytes, content_type}
 *   PUT    {name}?uploadId=U&partNumber=N        one part, exactly the length the start answer implies
 *   POST   {name}?uploadId=U                     complete it {parts: [{part_number, etag}]}
 *   DELETE {name}?uploadId=U                     abort it
 *   GET    {name}                                read a stored file back (Range supported)
 *
 * Multipart limits and figures: artifacts/multipart-upload.ts.
 */
export const internalArtifactRoutes = new Hono<AppEnv>();

/** One task attempt's own files (its storage token), and the job-wide legacy path (task-storage-access.ts). */
const ROUTES = [`${TASK_STORAGE_PREFIX}/artifacts/:name`, "/jobs/:id/artifacts/:name"];

function linkEnv(c: Context<AppEnv>): LinkEnv {
  // rendererStorageAuth has already refused the call when LINK_SIGNING_KEY is missing.
  return { LINK_SIGNING_KEY: c.env.LINK_SIGNING_KEY!, LINK_SIGNING_KEY_PREVIOUS: c.env.LINK_SIGNING_KEY_PREVIOUS };
}

export function checkName(name: string): void {
  if (!ArtifactRef.shape.name.safeParse(name).success) {
    throw validationError([{ field: "name", message: "must be lower-case letters, digits, '.', '_' or '-', starting with a letter or digit" }]);
  }
}

/** The declared Content-Length of a streamed body (R2 needs it up front). */
function declaredLength(c: Context<AppEnv>): number {
  const header = c.req.header("Content-Length");
  if (header === undefined) throw new ApiError(411, "length_required", "Send Content-Length: uploads are streamed straight into storage.");
  const length = Number(header);
  if (!/^\d+$/.test(header) || !Number.isSafeInteger(length)) throw new ApiError(400, "bad_request", "Content-Length must be a whole number of bytes.");
  if (!c.req.raw.body && length > 0) throw new ApiError(400, "bad_request", "The upload has no body.");
  return length;
}

/** Runs the checks before a body is read; on refusal the unread body is released instead of left pending. */
async function admit<T>(c: Context<AppEnv>, checks: () => Promise<T>): Promise<T> {
  try {
    return await checks();
  } catch (error) {
    await c.req.raw.body?.cancel().catch(() => undefined);
    throw error;
  }
}

/**
 * Streams the request body into `store` as a stream of exactly `length` bytes (R2 needs the length of a
 * streamed body). A body shorter or longer than its Content-Length breaks the fixed-length stream on either side:
 * that is the client's fault (400), and nothing is stored.
 */
async function storeExactly<T>(c: Context<AppEnv>, length: number, store: (body: ReadableStream) => Promise<T>): Promise<T> {
  const { readable, writable } = new FixedLengthStream(length);
  const piping = (c.req.raw.body ?? new ReadableStream({ start: (ctl) => ctl.close() })).pipeTo(writable);
  const [stored, piped] = await Promise.allSettled([store(readable), piping]);
  const lengthError = [piped, stored].find((r) => r.status === "rejected" && (r === piped || /FixedLengthStream/.test(String(r.reason))));
  if (lengthError?.status === "rejected") {
    const reason = lengthError.reason instanceof Error ? lengthError.reason.message : String(lengthError.reason);
    throw new ApiError(400, "upload_incomplete", `The upload did not match its Content-Length of ${length} bytes (${reason}); nothing was stored.`);
  }
  if (stored.status === "rejected") throw stored.reason;
  return stored.value;
}

const uploadGone = () =>
  new ApiError(404, "upload_not_found", "This multipart upload no longer exists (it was completed or aborted); start a new one with POST ?uploads.");

/** The signed upload id of the query, checked against this job and file. */
async function uploadPlan(c: Context<AppEnv>, jobId: string, name: string): Promise<UploadPlan> {
  const given = c.req.query("uploadId");
  if (!given) throw validationError([{ field: "uploadId", message: "is required" }]);
  const plan = await readUploadId(linkEnv(c), jobId, name, given);
  if (!plan) throw validationError([{ field: "uploadId", message: "is not an upload this service started for this job and file" }]);
  return plan;
}

const hasQuery = (c: Context<AppEnv>, key: string) => new URL(c.req.url).searchParams.has(key);

// ---- PUT: the whole file, or one part of a multipart upload --------------------------------------------------

internalArtifactRoutes.on("PUT", ROUTES, rendererStorageAuth, async (c) => {
  const jobId = c.req.param("id")!;
  const name = c.req.param("name")!;
  if (hasQuery(c, "uploadId") || hasQuery(c, "partNumber")) return putPart(c, jobId, name);

  const length = await admit(c, async () => {
    checkName(name);
    await requireStorageAccess(c, name, "write");
    const length = declaredLength(c);
    if (length > WORKER_MAX_REQUEST_BYTES) {
      // Cloudflare refuses such a request before it reaches the Worker; refusing it here too keeps local runs honest.
      throw new ApiError(413, "payload_too_large", `One request may carry at most ${WORKER_MAX_REQUEST_BYTES} bytes; upload larger files in parts (POST ?uploads).`, {
        max_bytes: WORKER_MAX_REQUEST_BYTES,
      });
    }
    return length;
  });
  const contentType = c.req.header("Content-Type") || "application/octet-stream";
  const stored = await storeExactly(c, length, (body) => c.env.ARTIFACTS.put(artifactKey(jobId, name), body, { httpMetadata: { contentType } }));
  return c.json({ name, size_bytes: stored?.size ?? length }, 201);
});

async function putPart(c: Context<AppEnv>, jobId: string, name: string) {
  const { plan, partNumber, length } = await admit(c, async () => {
    checkName(name);
    const plan = await uploadPlan(c, jobId, name);
    const count = partCount(plan);
    const raw = c.req.query("partNumber") ?? "";
    const partNumber = Number(raw);
    if (!/^\d+$/.test(raw) || partNumber < 1 || partNumber > count) {
      throw validationError([{ field: "partNumber", message: `must be a whole number from 1 to ${count} (this upload's part count)` }]);
    }
    await requireStorageAccess(c, name, "write");
    const length = declaredLength(c);
    const expected = expectedPartBytes(plan, partNumber);
    if (length !== expected) {
      throw new ApiError(
        400,
        "wrong_part_size",
        `Part ${partNumber} of ${count} must be exactly ${expected} bytes (every part but the last is ${plan.partBytes} bytes, the last holds the rest); got ${length}.`,
        { expected_bytes: expected },
      );
    }
    return { plan, partNumber, length };
  });
  const upload = c.env.ARTIFACTS.resumeMultipartUpload(artifactKey(jobId, name), plan.r2UploadId);
  try {
    // A part sent again (a retry) replaces the earlier one under the same number.
    const part = await storeExactly(c, length, (body) => upload.uploadPart(partNumber, body));
    return c.json({ part_number: part.partNumber, etag: part.etag }, 200);
  } catch (error) {
    if (r2ErrorCode(error) === R2_NO_SUCH_UPLOAD) throw uploadGone();
    throw error;
  }
}

// ---- POST: start (?uploads) or complete (?uploadId=) a multipart upload -----------------------------------------

const StartUpload = z.object({
  size_bytes: z.number().int().positive(),
  content_type: z.string().min(1).max(255).default("application/octet-stream"),
});
const CompleteUpload = z.object({
  parts: z
    .array(z.object({ part_number: z.number().int().min(1).max(R2_MAX_PARTS), etag: z.string().min(1).max(512) }))
    .min(1)
    .max(R2_MAX_PARTS),
});

async function jsonBody<T extends z.ZodType>(c: Context<AppEnv>, schema: T, what: string): Promise<z.infer<T>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw validationError([{ field: "body", message: `must be a JSON object (${what})` }]);
  }
  const parsed = schema.safeParse(body, { error: clientErrorMap });
  if (!parsed.success) throw validationError(issuesToDetail(parsed.error.issues));
  return parsed.data;
}

/** A completion lists at most 10,000 parts of ~60 bytes each. */
const MAX_MULTIPART_JSON_BYTES = 1024 * 1024;

internalArtifactRoutes.on(
  "POST",
  ROUTES,
  rendererStorageAuth,
  limitBody(MAX_MULTIPART_JSON_BYTES, () => {
    throw new ApiError(413, "payload_too_large", `A multipart start or completion body must be at most ${MAX_MULTIPART_JSON_BYTES} bytes.`);
  }),
  async (c) => {
    const jobId = c.req.param("id")!;
    const name = c.req.param("name")!;
    checkName(name);
    if (hasQuery(c, "uploads")) return startUpload(c, jobId, name);
    if (hasQuery(c, "uploadId")) return completeUpload(c, jobId, name);
    throw new ApiError(400, "bad_request", "POST on a file starts a multipart upload (?uploads) or completes one (?uploadId=...).");
  },
);

async function startUpload(c: Context<AppEnv>, jobId: string, name: string) {
  const partBytes = uploadPartBytes(c.env);
  const { size_bytes, content_type } = await jsonBody(c, StartUpload, "{size_bytes, content_type}");
  const max = maxUploadBytes(partBytes);
  if (size_bytes > max) throw validationError([{ field: "size_bytes", message: `must be at most ${max} (${R2_MAX_PARTS} parts of ${partBytes} bytes)` }]);
  await requireStorageAccess(c, name, "write");
  const nonce = crypto.randomUUID();
  const upload = await c.env.ARTIFACTS.createMultipartUpload(artifactKey(jobId, name), {
    httpMetadata: { contentType: content_type },
    customMetadata: { upload_nonce: nonce },
  });
  const plan: UploadPlan = { jobId, name, r2UploadId: upload.uploadId, sizeBytes: size_bytes, partBytes, nonce };
  return c.json({ upload_id: await signUploadId(linkEnv(c), plan), part_size_bytes: partBytes, part_count: partCount(plan) }, 201);
}

async function completeUpload(c: Context<AppEnv>, jobId: string, name: string) {
  const plan = await uploadPlan(c, jobId, name);
  const { parts } = await jsonBody(c, CompleteUpload, "{parts: [{part_number, etag}]}");
  const count = partCount(plan);
  const seen = new Set<number>();
  const problems: { field: string; message: string }[] = [];
  parts.forEach((p, i) => {
    if (p.part_number > count) problems.push({ field: `parts[${i}].part_number`, message: `must be at most ${count} (this upload's part count)` });
    else if (seen.has(p.part_number)) problems.push({ field: `parts[${i}].part_number`, message: `lists part ${p.part_number} a second time` });
    seen.add(p.part_number);
  });
  if (problems.length > 0) throw validationError(problems);
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((n) => !seen.has(n));
  if (missing.length > 0) {
    throw new ApiError(400, "parts_missing", `The upload has ${count} parts; the list lacks ${missing.length} of them (${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ", ..." : ""}).`, {
      missing_parts: missing.slice(0, 100),
    });
  }
  await requireStorageAccess(c, name, "write");

  const key = artifactKey(jobId, name);
  const ordered = [...parts].sort((a, b) => a.part_number - b.part_number).map((p) => ({ partNumber: p.part_number, etag: p.etag }));
  try {
    const object = await c.env.ARTIFACTS.resumeMultipartUpload(key, plan.r2UploadId).complete(ordered);
    return c.json({ name, size_bytes: object.size }, 201);
  } catch (error) {
    const code = r2ErrorCode(error);
    if (code === R2_NO_SUCH_UPLOAD) {
      // A retried completion whose first answer was lost: the object this upload made is already there.
      const head = await c.env.ARTIFACTS.head(key);
      if (head?.customMetadata?.upload_nonce === plan.nonce) return c.json({ name, size_bytes: head.size }, 201);
      throw uploadGone();
    }
    if (code === R2_INVALID_PART) {
      throw new ApiError(400, "parts_missing", "One or more listed parts were never uploaded, or their etag is not the one the part upload returned.");
    }
    throw error;
  }
}

// ---- DELETE: abort a multipart upload ---------------------------------------------------------------------------

internalArtifactRoutes.on("DELETE", ROUTES, rendererStorageAuth, async (c) => {
  const jobId = c.req.param("id")!;
  const name = c.req.param("name")!;
  checkName(name);
  const plan = await uploadPlan(c, jobId, name);
  // Allowed in any job state: a renderer cleaning up after a cancel is welcome.
  await requireStorageAccess(c, name, "cleanup");
  try {
    await c.env.ARTIFACTS.resumeMultipartUpload(artifactKey(jobId, name), plan.r2UploadId).abort();
  } catch (error) {
    // Already aborted or completed: the outcome the caller wants holds either way (a completed file stays).
    if (r2ErrorCode(error) !== R2_NO_SUCH_UPLOAD) throw error;
  }
  return c.body(null, 204);
});

// ---- GET: read a stored file back (a later task joins what earlier tasks stored) --------------------------------

internalArtifactRoutes.on("GET", ROUTES, rendererStorageAuth, async (c) => {
  const jobId = c.req.param("id")!;
  const name = c.req.param("name")!;
  checkName(name);
  await requireStorageAccess(c, name, "read");
  const key = artifactKey(jobId, name);
  const served = await serveStoredObject(c.env.ARTIFACTS, key, { range: c.req.header("Range"), ifRange: c.req.header("If-Range") });
  if (!served) throw new ApiError(404, "file_not_found", `This job has no stored file named ${name}.`);
  return served;
});
