import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { PresignedRequest, type StorageOperation } from "../../../common/contract/render";
import { failure, PermanentError, withRetries } from "../http-retry";

/**
 * Uploads of any size in numbered parts, read from disk part by part and streamed (never a whole file, nor a
 * whole part, in memory). Two protocols, one driver:
 * - upload mode "worker": the Worker's multipart routes (POST ?uploads, PUT ?uploadId&partNumber,
 *   POST ?uploadId, DELETE ?uploadId), which write into an R2 multipart upload through the binding. The Worker
 *   chooses the part size (64 MiB: under Cloudflare's 100 MB request body limit);
 * - upload mode "presigned": each part straight to R2 on a URL the Worker presigned for it; the Worker creates
 *   and completes the upload (R2 presigns no POST);
 * - upload mode "s3" (task contract 1): R2's S3 API (CreateMultipartUpload, UploadPart, CompleteMultipartUpload,
 *   AbortMultipartUpload), signed with SigV4 by aws4fetch.
 * Each part is retried on its own; on any failure or cancel the upload is aborted so no parts are left behind.
 */

/** How long an abort (the cleanup after a failure or cancel) may take before it is given up. */
const ABORT_TIMEOUT_MS = 30_000;

/** Bytes [start, start + length) of a file as a stream read from disk in small chunks. */
export function fileRange(filePath: string, start: number, length: number): ReadableStream<Uint8Array> {
  if (length === 0) return new ReadableStream({ start: (c) => c.close() });
  return Readable.toWeb(createReadStream(filePath, { start, end: start + length - 1 })) as ReadableStream<Uint8Array>;
}

/** A request body streamed from disk; Node's fetch needs `duplex: "half"` to send one. */
export function streamedBody(filePath: string, start: number, length: number) {
  return { body: fileRange(filePath, start, length), duplex: "half" } as const;
}

export interface CompletedPart {
  partNumber: number;
  etag: string;
}

/** One multipart protocol: how a part is sent, how the upload is completed and aborted. */
interface PartProtocol {
  /** Sends bytes [start, start + length) as part `partNumber`; resolves with the part's etag. */
  uploadPart(partNumber: number, start: number, length: number, signal?: AbortSignal): Promise<string>;
  /** `attempt` > 1 when an earlier completion may have succeeded without its answer arriving. */
  complete(parts: CompletedPart[], attempt: number, signal?: AbortSignal): Promise<void>;
  abort(signal: AbortSignal): Promise<void>;
}

/** The number of parts of `partBytes` a file of `size` bytes needs (at least one). */
export function partCountFor(size: number, partBytes: number): number {
  return Math.max(1, Math.ceil(size / partBytes));
}

async function sendInParts(what: string, size: number, partBytes: number, protocol: PartProtocol, signal?: AbortSignal): Promise<void> {
  try {
    const count = partCountFor(size, partBytes);
    const parts: CompletedPart[] = [];
    for (let n = 1; n <= count; n++) {
      const start = (n - 1) * partBytes;
      const length = Math.min(partBytes, size - start);
      const etag = await withRetries(`${what} part ${n}/${count}`, () => protocol.uploadPart(n, start, length, signal), signal);
      parts.push({ partNumber: n, etag });
    }
    await withRetries(`complete ${what}`, (attempt) => protocol.complete(parts, attempt, signal), signal);
  } catch (err) {
    // Best effort: R2 also drops an incomplete multipart upload by itself after 7 days.
    await protocol.abort(AbortSignal.timeout(ABORT_TIMEOUT_MS)).catch(() => undefined);
    throw err;
  }
}

// ---- upload mode "worker" ----------------------------------------------------------------------------------------

interface WorkerUploadStarted {
  upload_id: string;
  part_size_bytes: number;
  part_count: number;
}

export interface WorkerMultipartOptions {
  /** `{upload.url}/{name}`. */
  fileUrl: string;
  token: string;
  fetchImpl: typeof fetch;
  name: string;
  filePath: string;
  size: number;
  contentType: string;
  signal?: AbortSignal;
}

/** Sends a file through the Worker's multipart routes in the part size the Worker hands out. */
export async function workerMultipartUpload(o: WorkerMultipartOptions): Promise<void> {
  const authorization = `Bearer ${o.token}`;
  const started = await withRetries(
    `start upload ${o.name}`,
    async () => {
      const res = await o.fetchImpl(`${o.fileUrl}?uploads`, {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify({ size_bytes: o.size, content_type: o.contentType }),
        signal: o.signal,
      });
      if (res.status !== 201) throw await failure(`start upload ${o.name}`, res);
      return (await res.json()) as WorkerUploadStarted;
    },
    o.signal,
  );
  const { upload_id: uploadId, part_size_bytes: partBytes } = started;
  if (!Number.isSafeInteger(partBytes) || partBytes <= 0 || started.part_count !== partCountFor(o.size, partBytes)) {
    throw new PermanentError(`start upload ${o.name}: unusable answer ${JSON.stringify(started).slice(0, 200)}`);
  }
  const uploadUrl = `${o.fileUrl}?uploadId=${encodeURIComponent(uploadId)}`;

  await sendInParts(`upload ${o.name}`, o.size, partBytes, {
    async uploadPart(n, start, length, signal) {
      const res = await o.fetchImpl(`${uploadUrl}&partNumber=${n}`, {
        method: "PUT",
        headers: { authorization, "content-length": String(length) },
        ...streamedBody(o.filePath, start, length),
        signal,
      } as RequestInit);
      if (!res.ok) throw await failure(`upload ${o.name} part ${n}`, res);
      const { etag } = (await res.json()) as { etag?: unknown };
      if (typeof etag !== "string" || etag === "") throw new Error(`upload ${o.name} part ${n}: no etag in the answer`);
      return etag;
    },
    async complete(parts, _attempt, signal) {
      // The Worker answers a repeated completion of a finished upload as a success: no special case here.
      const res = await o.fetchImpl(uploadUrl, {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify({ parts: parts.map((p) => ({ part_number: p.partNumber, etag: p.etag })) }),
        signal,
      });
      if (res.status !== 201) throw await failure(`complete upload ${o.name}`, res);
      const { size_bytes } = (await res.json()) as { size_bytes?: unknown };
      if (size_bytes !== o.size) throw new PermanentError(`complete upload ${o.name}: stored ${String(size_bytes)} bytes, expected ${o.size}`);
    },
    async abort(signal) {
      const res = await o.fetchImpl(uploadUrl, { method: "DELETE", headers: { authorization }, signal });
      await res.body?.cancel();
    },
  }, o.signal);
}

// ---- upload mode "s3" --------------------------------------------------------------------------------------------

export interface S3MultipartOptions {
  /** A SigV4-signing fetch (aws4fetch's AwsClient.fetch). */
  signedFetch: (url: string, init: RequestInit) => Promise<Response>;
  objectUrl: string;
  name: string;
  filePath: string;
  size: number;
  contentType: string;
  partBytes: number;
  signal?: AbortSignal;
}

/** Streamed bodies are signed as UNSIGNED-PAYLOAD (R2 accepts it): hashing would read the part twice. */
export const UNSIGNED_PAYLOAD = { "x-amz-content-sha256": "UNSIGNED-PAYLOAD" } as const;

const xmlEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export async function s3MultipartUpload(o: S3MultipartOptions): Promise<void> {
  const created = await withRetries(
    `start multipart ${o.name}`,
    async () => {
      const res = await o.signedFetch(`${o.objectUrl}?uploads`, { method: "POST", headers: { "content-type": o.contentType }, signal: o.signal });
      if (!res.ok) throw await failure(`start multipart ${o.name}`, res);
      return res.text();
    },
    o.signal,
  );
  const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(created)?.[1];
  if (!uploadId) throw new PermanentError(`start multipart ${o.name}: no UploadId in the answer`);
  const uploadUrl = `${o.objectUrl}?uploadId=${encodeURIComponent(uploadId)}`;

  await sendInParts(`upload ${o.name}`, o.size, o.partBytes, {
    async uploadPart(n, start, length, signal) {
      const res = await o.signedFetch(`${o.objectUrl}?partNumber=${n}&uploadId=${encodeURIComponent(uploadId)}`, {
        method: "PUT",
        headers: { ...UNSIGNED_PAYLOAD, "content-length": String(length) },
        ...streamedBody(o.filePath, start, length),
        signal,
      } as RequestInit);
      if (!res.ok) throw await failure(`upload ${o.name} part ${n}`, res);
      await res.body?.cancel();
      const etag = res.headers.get("etag");
      if (!etag) throw new Error(`upload ${o.name} part ${n}: no ETag`);
      return etag;
    },
    async complete(parts, attempt, signal) {
      const xml = `<CompleteMultipartUpload>${parts.map((p) => `<Part><PartNumber>${p.partNumber}</PartNumber><ETag>${xmlEscape(p.etag)}</ETag></Part>`).join("")}</CompleteMultipartUpload>`;
      const res = await o.signedFetch(uploadUrl, { method: "POST", headers: { "content-type": "application/xml" }, body: xml, signal });
      if (res.status === 404 && attempt > 1) {
        // The earlier attempt may have completed it with its answer lost: then the object is there, whole.
        await res.body?.cancel();
        const head = await o.signedFetch(o.objectUrl, { method: "HEAD", signal });
        if (head.ok && Number(head.headers.get("content-length")) === o.size) return;
        throw new PermanentError(`complete multipart ${o.name}: the upload is gone and the object is not whole (HTTP ${head.status})`);
      }
      if (!res.ok) throw await failure(`complete multipart ${o.name}`, res);
      // S3 may answer 200 and still report an error in the body.
      const text = await res.text();
      if (/<Error>/.test(text)) throw new Error(`complete multipart ${o.name}: ${text.slice(0, 300)}`);
    },
    async abort(signal) {
      const res = await o.signedFetch(uploadUrl, { method: "DELETE", signal });
      await res.body?.cancel();
    },
  }, o.signal);
}

// ---- upload mode "presigned" -------------------------------------------------------------------------------------

export interface PresignedMultipartOptions {
  /** Asks the Worker for one storage operation on this file (presigned-uploader.ts). */
  broker: (op: StorageOperation, signal?: AbortSignal) => Promise<Response>;
  /** Sends a presigned request to R2. */
  fetchImpl: typeof fetch;
  name: string;
  filePath: string;
  size: number;
  contentType: string;
  partBytes: number;
  signal?: AbortSignal;
}

/** The presigned request the Worker answered for `op`. */
async function presigned(o: PresignedMultipartOptions, op: StorageOperation, what: string, signal?: AbortSignal): Promise<PresignedRequest> {
  const res = await o.broker(op, signal);
  if (!res.ok) throw await failure(what, res);
  const parsed = PresignedRequest.safeParse(await res.json());
  if (!parsed.success) throw new PermanentError(`${what}: unusable answer from the Worker`);
  return parsed.data;
}

/**
 * CreateMultipartUpload and CompleteMultipartUpload made by the Worker (R2 presigns no POST), every part sent
 * straight to R2 on a URL presigned for that part of this upload of this file.
 */
export async function presignedMultipartUpload(o: PresignedMultipartOptions): Promise<void> {
  const uploadId = await withRetries(
    `start multipart ${o.name}`,
    async () => {
      const res = await o.broker({ operation: "create_multipart", content_type: o.contentType }, o.signal);
      if (res.status !== 201) throw await failure(`start multipart ${o.name}`, res);
      const { upload_id } = (await res.json()) as { upload_id?: unknown };
      if (typeof upload_id !== "string" || upload_id === "") throw new PermanentError(`start multipart ${o.name}: no upload_id in the answer`);
      return upload_id;
    },
    o.signal,
  );

  await sendInParts(`upload ${o.name}`, o.size, o.partBytes, {
    async uploadPart(n, start, length, signal) {
      const put = await presigned(o, { operation: "upload_part", upload_id: uploadId, part_number: n }, `presign ${o.name} part ${n}`, signal);
      const res = await o.fetchImpl(put.url, { method: put.method, headers: { "content-length": String(length) }, ...streamedBody(o.filePath, start, length), signal } as RequestInit);
      if (!res.ok) throw await failure(`upload ${o.name} part ${n}`, res);
      await res.body?.cancel();
      const etag = res.headers.get("etag");
      if (!etag) throw new Error(`upload ${o.name} part ${n}: no ETag`);
      return etag;
    },
    async complete(parts, _attempt, signal) {
      // The Worker recognises a repeated completion whose first answer was lost (the object is there, whole).
      const res = await o.broker(
        { operation: "complete_multipart", upload_id: uploadId, size_bytes: o.size, parts: parts.map((p) => ({ part_number: p.partNumber, etag: p.etag })) },
        signal,
      );
      if (res.status !== 201) throw await failure(`complete multipart ${o.name}`, res);
      await res.body?.cancel();
    },
    async abort(signal) {
      const del = await presigned(o, { operation: "abort_multipart", upload_id: uploadId }, `presign abort ${o.name}`, signal);
      const res = await o.fetchImpl(del.url, { method: del.method, signal });
      await res.body?.cancel();
    },
  }, o.signal);
}
