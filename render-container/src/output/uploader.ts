import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { AwsClient } from "aws4fetch";
import type { UploadTarget } from "../../../common/contract/render";
import { sleep } from "../../../common/sleep";

export interface Uploader {
  /** Stores a local file under `name` in the job's folder; resolves with its size. */
  put(name: string, filePath: string, contentType: string, signal?: AbortSignal): Promise<{ size_bytes: number }>;
}

export function createUploader(target: UploadTarget, fetchImpl: typeof fetch = fetch): Uploader {
  return target.mode === "worker" ? new WorkerUploader(target.url, target.token, fetchImpl) : new S3Uploader(target, fetchImpl);
}

async function withRetries<T>(what: string, fn: () => Promise<T>, signal?: AbortSignal, attempts = 4): Promise<T> {
  let lastError: unknown;
  for (let i = 0; i < attempts; i++) {
    signal?.throwIfAborted();
    try {
      return await fn();
    } catch (err) {
      lastError = err;
      if (err instanceof PermanentUploadError) throw err;
      signal?.throwIfAborted();
      if (i < attempts - 1) await sleep(500 * 2 ** i, signal);
    }
  }
  throw new Error(`${what} failed after ${attempts} attempts: ${String(lastError)}`);
}

class PermanentUploadError extends Error {}

async function failure(what: string, res: Response): Promise<Error> {
  const text = (await res.text()).slice(0, 300);
  const msg = `${what}: HTTP ${res.status} ${text}`;
  return res.status >= 400 && res.status < 500 && res.status !== 429 ? new PermanentUploadError(msg) : new Error(msg);
}

/** Streams the file to the Worker's authenticated upload route, which writes it to R2 (no S3 credentials needed). */
export class WorkerUploader implements Uploader {
  constructor(private readonly baseUrl: string, private readonly token: string, private readonly fetchImpl: typeof fetch) {}

  async put(name: string, filePath: string, contentType: string, signal?: AbortSignal) {
    const { size } = await stat(filePath);
    await withRetries(`upload ${name}`, async () => {
      const res = await this.fetchImpl(`${this.baseUrl.replace(/\/$/, "")}/${encodeURIComponent(name)}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${this.token}`, "content-type": contentType, "content-length": String(size) },
        body: Readable.toWeb(createReadStream(filePath)) as ReadableStream,
        // Node's fetch needs this to send a streamed body.
        duplex: "half",
        signal,
      } as RequestInit);
      if (!res.ok) throw await failure(`upload ${name}`, res);
      await res.body?.cancel();
    }, signal);
    return { size_bytes: size };
  }
}

/** Files above this size go up in parts; R2 allows 5 GiB per single PUT but parts retry cheaply. */
export const MULTIPART_THRESHOLD = 64 * 1024 * 1024;
const PART_SIZE = 32 * 1024 * 1024;

/** Writes straight to R2 through its S3 API with SigV4 (aws4fetch), multipart for large files. */
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
    if (size <= this.threshold) {
      await withRetries(`upload ${name}`, async () => {
        const body = await readRange(filePath, 0, size);
        const res = await this.client.fetch(this.objectUrl(name), { method: "PUT", headers: { "content-type": contentType }, body, signal });
        if (!res.ok) throw await failure(`upload ${name}`, res);
        await res.body?.cancel();
      }, signal);
    } else {
      await this.multipart(name, filePath, size, contentType, signal);
    }
    return { size_bytes: size };
  }

  private async multipart(name: string, filePath: string, size: number, contentType: string, signal?: AbortSignal) {
    const url = this.objectUrl(name);
    const created = await this.client.fetch(`${url}?uploads`, { method: "POST", headers: { "content-type": contentType }, signal });
    if (!created.ok) throw await failure(`start multipart ${name}`, created);
    const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(await created.text())?.[1];
    if (!uploadId) throw new Error(`start multipart ${name}: no UploadId in response`);
    try {
      const etags: string[] = [];
      const partCount = Math.ceil(size / this.partSize);
      for (let part = 1; part <= partCount; part++) {
        const start = (part - 1) * this.partSize;
        const length = Math.min(this.partSize, size - start);
        etags.push(
          await withRetries(`upload ${name} part ${part}`, async () => {
            const body = await readRange(filePath, start, length);
            const res = await this.client.fetch(`${url}?partNumber=${part}&uploadId=${encodeURIComponent(uploadId)}`, { method: "PUT", body, signal });
            if (!res.ok) throw await failure(`upload ${name} part ${part}`, res);
            await res.body?.cancel();
            const etag = res.headers.get("etag");
            if (!etag) throw new Error(`upload ${name} part ${part}: no ETag`);
            return etag;
          }, signal),
        );
      }
      const xml = `<CompleteMultipartUpload>${etags.map((e, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${e}</ETag></Part>`).join("")}</CompleteMultipartUpload>`;
      const done = await this.client.fetch(`${url}?uploadId=${encodeURIComponent(uploadId)}`, { method: "POST", headers: { "content-type": "application/xml" }, body: xml, signal });
      if (!done.ok) throw await failure(`complete multipart ${name}`, done);
      await done.body?.cancel();
    } catch (err) {
      await this.client.fetch(`${url}?uploadId=${encodeURIComponent(uploadId)}`, { method: "DELETE" }).catch(() => undefined);
      throw err;
    }
  }
}

async function readRange(filePath: string, start: number, length: number): Promise<Uint8Array<ArrayBuffer>> {
  const fh = await open(filePath, "r");
  try {
    const buf = new Uint8Array(new ArrayBuffer(length));
    let off = 0;
    while (off < length) {
      const { bytesRead } = await fh.read(buf, off, length - off, start + off);
      if (bytesRead === 0) break;
      off += bytesRead;
    }
    return buf;
  } finally {
    await fh.close();
  }
}

/** Copies files into a local folder: the CLI's and the benchmark's "storage". */
export class LocalDirUploader implements Uploader {
  constructor(private readonly dir: string) {}
  async put(name: string, filePath: string) {
    const { copyFile, mkdir } = await import("node:fs/promises");
    const path = await import("node:path");
    await mkdir(this.dir, { recursive: true });
    await copyFile(filePath, path.join(this.dir, name));
    const { size } = await stat(filePath);
    return { size_bytes: size };
  }
}
