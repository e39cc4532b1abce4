import { Hono, type Context } from "hono";
import { StorageOperation } from "../../../common/contract/render";
import { artifactKey, r2S3Access, s3Configured } from "../artifacts/links";
import { completeMultipartUpload, createMultipartUpload, presignObjectRequest, S3CallError } from "../artifacts/r2-presign";
import type { AppEnv } from "../hono-env";
import { ApiError, validationError } from "../lib/api-error";
import { clientErrorMap, issuesToDetail } from "../lib/zod-issues";
import { limitBody } from "../middleware/body-limit";
import { rendererStorageAuth } from "../orchestration/renderer-auth";
import type { StorageAccess } from "../orchestration/task-storage-scope";
import { checkName } from "./internal-artifacts";
import { requireStorageAccess, TASK_STORAGE_PREFIX } from "./task-storage-access";

/**
 * Upload mode "presigned" (R2 API credentials configured): POST
 * /internal/jobs/{id}/tasks/{task}/attempts/{attempt}/storage/{name} with that attempt's storage token and a
 * StorageOperation (common/contract/render.ts). The object is always `jobs/{id}/{name}`, and `name` one of the
 * files that task makes (or, to read, one it reads) while its attempt is current (task-storage-access.ts); each
 * URL is one operation on one object for PRESIGN_TTL_SECONDS, and the R2 credentials never leave the Worker
 * (r2-presign.ts says why and which limits apply). The job-wide path /internal/jobs/{id}/storage/{name} with the
 * job's token serves only attempts dispatched before per-task scope (legacy, one release).
 */
export const internalStorageRoutes = new Hono<AppEnv>();

const PATHS = [`${TASK_STORAGE_PREFIX}/storage/:name`, "/jobs/:id/storage/:name"];

/** What each operation does to the object: store it, read it, or end an unfinished upload of it. */
const ACCESS: Record<StorageOperation["operation"], StorageAccess> = {
  put: "write",
  upload_part: "write",
  create_multipart: "write",
  complete_multipart: "write",
  get: "read",
  head: "read",
  abort_multipart: "cleanup",
};

/** A completion lists at most 10,000 parts of ~60 bytes each. */
const MAX_BODY_BYTES = 1024 * 1024;

async function operationOf(c: Context<AppEnv>) {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw validationError([{ field: "body", message: "must be a JSON object {operation, ...}" }]);
  }
  const parsed = StorageOperation.safeParse(body, { error: clientErrorMap });
  if (!parsed.success) throw validationError(issuesToDetail(parsed.error.issues));
  return parsed.data;
}

const uploadGone = () =>
  new ApiError(404, "upload_not_found", "This multipart upload no longer exists (it was completed or aborted); start a new one with create_multipart.");

internalStorageRoutes.on(
  "POST",
  PATHS,
  rendererStorageAuth,
  limitBody(MAX_BODY_BYTES, () => {
    throw new ApiError(413, "payload_too_large", `A storage request body must be at most ${MAX_BODY_BYTES} bytes.`);
  }),
  async (c) => {
    const jobId = c.req.param("id")!;
    const name = c.req.param("name")!;
    checkName(name);
    if (!s3Configured(c.env)) {
      throw new ApiError(409, "presigning_not_configured", "This Worker has no R2 API credentials: upload through /internal/jobs/{id}/artifacts (upload mode worker).");
    }
    const op = await operationOf(c);
    const s3 = r2S3Access(c.env);
    const key = artifactKey(jobId, name);
    await requireStorageAccess(c, name, ACCESS[op.operation]);
    try {
      switch (op.operation) {
        case "put":
          return c.json(await presignObjectRequest(s3, { method: "PUT", key }));
        case "get":
          return c.json(await presignObjectRequest(s3, { method: "GET", key }));
        case "head":
          return c.json(await presignObjectRequest(s3, { method: "HEAD", key }));
        case "upload_part":
          return c.json(await presignObjectRequest(s3, { method: "PUT", key, query: { partNumber: String(op.part_number), uploadId: op.upload_id } }));
        case "abort_multipart":
          return c.json(await presignObjectRequest(s3, { method: "DELETE", key, query: { uploadId: op.upload_id } }));
        case "create_multipart":
          return c.json({ upload_id: await createMultipartUpload(s3, key, op.content_type) }, 201);
        case "complete_multipart":
          await completeMultipartUpload(s3, { key, uploadId: op.upload_id, parts: op.parts, sizeBytes: op.size_bytes });
          return c.json({ name, size_bytes: op.size_bytes }, 201);
      }
    } catch (error) {
      if (!(error instanceof S3CallError)) throw error;
      if (error.status === 404 || error.code === "NoSuchUpload") throw uploadGone();
      if (error.code === "InvalidPart" || error.code === "InvalidPartOrder" || error.code === "EntityTooSmall") {
        throw new ApiError(400, "parts_invalid", `R2 refused the completion (${error.code}): a listed part was never uploaded, has another etag, or is smaller than 5 MiB.`);
      }
      // R2 itself failed or refused (credentials, outage): the renderer retries a 502.
      throw new ApiError(502, "storage_unavailable", `R2 did not do it: ${error.message}`);
    }
  },
);
