import { createWriteStream } from "node:fs";
import { copyFile, mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { AwsClient } from "aws4fetch";
import type { UploadTarget } from "../../../common/contract/render";
import type { StorageOperation } from "../../../common/contract/render";
import { presignedMultipartUpload, s3MultipartUpload, streamedBody, UNSIGNED_PAYLOAD, workerMultipartUpload } from "./multipart";
import { failure, PermanentError, withRetries } from "../http-retry";

export interface Uploader {
  /** Stores a local file under `name` in the job's folder; resolves with its size. */
  put(name: string, filePath: string, contentType: string, signal?: AbortSignal): Promise<{ size_bytes: number }>;
  /**
   * Reads back a file stored earlier under `name` (a reel's parts, uploaded by other tasks, for the join) into
   * the local `filePath`; resolves with its size. A missing file fails at once (not retried).
   */
  fetchTo(name: string, filePath: string, signal?: AbortSignal): Promise<{ size_bytes: number }>;
}

export function createUploader(target: UploadTarget, fetchImpl: typeof fetch = fetch): Uploader {
  if (target.mode === "worker") return new WorkerUploader(target.url, target.token, fetchImpl);
  if (target.mode === "presigned") return new PresignedUploader(target.url, target.token, fetchImpl);
  return new S3Uploader(target, fetchImpl);
}

/** Writes a response body to `filePath` (a half-written file is removed); the size written. */
async function saveBody(what: string, res: Response, filePath: string, signal?: AbortSignal): Promise<{ size_bytes: number }> {
  if (!res.ok) throw await failure(what, res);
  if (!res.body) throw new Error(`${what}: empty response`);
  await mkdir(path.dirname(filePath), { recursive: true });
  try {
    await pipeline(Readable.fromWeb(res.body as NodeReadableStream), createWriteStream(filePath), { signal });
  } catch (err) {
    await rm(filePath, { force: true });
    throw err;
  }
  const { size } = await stat(filePath);
  const expected = res.headers.get("content-length");
  if (expected !== null && Number(expected) !== size) {
    await rm(filePath, { force: true });
    throw new Error(`${what}: got ${size} of ${expected} bytes`);
  }
  return { size_bytes: size };
}

/**
 * Files above this size go to the Worker in parts (in the part size the Worker hands out, 64 MiB by default):
 * one request to a Worker may carry at most 100 MB on Cloudflare's Free and Pro plans.
 */
export const WORKER_MULTIPART_ABOVE = 64 * 1024 * 1024;

/** Streams the file to the Worker's authenticated upload routes, which write it to R2 (no S3 credentials needed). */
export class WorkerUploader implements Uploader {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly fetchImpl: typeof fetch,
    private readonly multipartAbove = WORKER_MULTIPART_ABOVE,
  ) {}

  async put(name: string, filePath: string, contentType: string, signal?: AbortSignal) {
    const { size } = await stat(filePath);
    const fileUrl = `${this.baseUrl.replace(/\/$/, "")}/${encodeURIComponent(name)}`;
    if (size > this.multipartAbove) {
      await workerMultipartUpload({ fileUrl, token: this.token, fetchImpl: this.fetchImpl, name, filePath, size, contentType, signal });
      return { size_bytes: size };
    }
    const headers = { authorization: `Bearer ${this.token}`, "content-type": contentType, "content-length": String(size) };
    await putWholeFile({ name, filePath, size, signal }, (body) => this.fetchImpl(fileUrl, { method: "PUT", headers, ...body }));
    return { size_bytes: size };
  }

  /** GET `${url}/${name}` with the task's token (the Worker reads it from R2). */
  fetchTo(name: string, filePath: string, signal?: AbortSignal) {
    return withRetries(`download ${name}`, async () => {
      const res = await this.fetchImpl(`${this.baseUrl.replace(/\/$/, "")}/${encodeURIComponent(name)}`, { headers: { authorization: `Bearer ${this.token}` }, signal });
      return saveBody(`download ${name}`, res, filePath, signal);
    }, signal);
  }
}

/**
 * A whole file in one PUT, retried (network errors, 5xx, 429): `send` makes the request, plain or signed, with
 * the file streamed as its body (a fresh stream for each attempt).
 */
async function putWholeFile(f: { name: string; filePath: string; size: number; signal?: AbortSignal }, send: (body: RequestInit) => Promise<Response>): Promise<void> {
  await withRetries(`upload ${f.name}`, async () => {
    const res = await send({ ...streamedBody(f.filePath, 0, f.size), signal: f.signal } as RequestInit);
    if (!res.ok) throw await failure(`upload ${f.name}`, res);
    await res.body?.cancel();
  }, f.signal);
}

/**
 * S3 mode: files above this size go up in parts. R2 takes up to 5 GiB in one PUT, but a failed part is retried
 * alone; parts of 32 MiB (R2: all but the last of one size, at least 5 MiB, at most 10,000) allow 312 GiB.
 */
export const MULTIPART_THRESHOLD = 64 * 1024 * 1024;
const PART_SIZE = 32 * 1024 * 1024;

/**
 * Upload mode "s3", task contract 1 only (a Worker from before contract 2, during a rollout): R2 credentials in the
 * task body, requests signed here with SigV4 (aws4fetch), multipart for large files. Drop it with contract 1.
 */
export class S3Uploader implements Uploader {
  private readonly client: AwsClient;
  constructor(private readonly target: Extract<UploadTarget, { mode: "s3" }>, fetchImpl: typeof fetch, private readonly partSize = PART_SIZE, private readonly threshold = MULTIPART_THRESHOLD) {
    this.client = new AwsClient({ accessKeyId: target.access_key_id, secretAccessKey: target.secret_access_key, service: "s3", region: target.region ?? "auto", retries: 0 });
    // aws4fetch calls the global fetch; tests inject a fetch that reaches their local endpoint.
    if (fetchImpl !== fetch) this.client.fetch = (input, init) => this.client.sign(input, init).then((req) => fetchImpl(req));
  }

  private objectUrl(name: string): string {
    const key = `${this.target.prefix}${name}`.split("/").map(encodeURIComponent).join("/");
    return `${this.target.endpoint.replace(/\/$/, "")}/${this.target.bucket}/${key}`;
  }

  async put(name: string, filePath: string, contentType: string, signal?: AbortSignal) {
    const { size } = await stat(filePath);
    const url = this.objectUrl(name);
    if (size > this.threshold) {
      const signedFetch = (u: string, init: RequestInit) => this.client.fetch(u, init);
      await s3MultipartUpload({ signedFetch, objectUrl: url, name, filePath, size, contentType, partBytes: this.partSize, signal });
      return { size_bytes: size };
    }
    const headers = { "content-type": contentType, "content-length": String(size), ...UNSIGNED_PAYLOAD };
    await putWholeFile({ name, filePath, size, signal }, (body) => this.client.fetch(url, { method: "PUT", headers, ...body }));
    return { size_bytes: size };
  }

  /** A signed GET of the object (aws4fetch). */
  fetchTo(name: string, filePath: string, signal?: AbortSignal) {
    return withRetries(`download ${name}`, async () => {
      const res = await this.client.fetch(this.objectUrl(name), { method: "GET", signal });
      return saveBody(`download ${name}`, res, filePath, signal);
    }, signal);
  }
}

/**
 * Upload mode "presigned": no credentials here. For each request to R2 the Worker is asked (POST
 * `${url}/${name}`, the task attempt's token) for a URL presigned for that one operation on one object of this
 * task, valid for minutes; the request then goes to R2 directly. Same sizes as S3 mode: one PUT up to 64 MiB, above
 * that 32 MiB parts.
 */
export class PresignedUploader implements Uploader {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly fetchImpl: typeof fetch,
    private readonly partSize = PART_SIZE,
    private readonly threshold = MULTIPART_THRESHOLD,
  ) {}

  private broker(name: string) {
    const url = `${this.baseUrl.replace(/\/$/, "")}/${encodeURIComponent(name)}`;
    return (op: StorageOperation, signal?: AbortSignal) =>
      this.fetchImpl(url, { method: "POST", headers: { authorization: `Bearer ${this.token}`, "content-type": "application/json" }, body: JSON.stringify(op), signal });
  }

  /** The presigned URL for one operation (a fresh one for every attempt: an earlier one may have expired). */
  private async presign(name: string, op: StorageOperation, signal?: AbortSignal): Promise<string> {
    const res = await this.broker(name)(op, signal);
    if (!res.ok) throw await failure(`presign ${op.operation} ${name}`, res);
    const { url } = (await res.json()) as { url?: unknown };
    if (typeof url !== "string") throw new PermanentError(`presign ${op.operation} ${name}: no url in the answer`);
    return url;
  }

  async put(name: string, filePath: string, contentType: string, signal?: AbortSignal) {
    const { size } = await stat(filePath);
    if (size > this.threshold) {
      await presignedMultipartUpload({ broker: this.broker(name), fetchImpl: this.fetchImpl, name, filePath, size, contentType, partBytes: this.partSize, signal });
      return { size_bytes: size };
    }
    const headers = { "content-type": contentType, "content-length": String(size) };
    await putWholeFile({ name, filePath, size, signal }, async (body) => this.fetchImpl(await this.presign(name, { operation: "put" }, signal), { method: "PUT", headers, ...body }));
    return { size_bytes: size };
  }

  fetchTo(name: string, filePath: string, signal?: AbortSignal) {
    return withRetries(`download ${name}`, async () => {
      const res = await this.fetchImpl(await this.presign(name, { operation: "get" }, signal), { method: "GET", signal });
      return saveBody(`download ${name}`, res, filePath, signal);
    }, signal);
  }
}

/** Copies files into a local folder: the CLI's and the benchmark's "storage". */
export class LocalDirUploader implements Uploader {
  constructor(private readonly dir: string) {}
  async put(name: string, filePath: string) {
    await mkdir(this.dir, { recursive: true });
    await copyFile(filePath, path.join(this.dir, name));
    const { size } = await stat(filePath);
    return { size_bytes: size };
  }

  async fetchTo(name: string, filePath: string) {
    await mkdir(path.dirname(filePath), { recursive: true });
    await copyFile(path.join(this.dir, name), filePath);
    const { size } = await stat(filePath);
    return { size_bytes: size };
  }
}
