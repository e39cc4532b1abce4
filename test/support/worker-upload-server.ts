import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pipeline } from "node:stream/promises";

/**
 * A local HTTP server speaking the Worker's upload routes (worker/src/routes/internal-artifacts.ts) for renderer
 * tests in Node: one-request PUT, and multipart start / part / complete / abort with the same rules (bearer
 * token, exact part lengths, every part listed once with its etag). Bodies are streamed to disk, so a test can
 * send gigabytes. The Worker's own implementation is tested against the real R2 binding in
 * test/worker/multipart-uploads.test.ts; this server lets the renderer's client run against a real socket.
 */
export interface UploadServerOptions {
  dir: string;
  token: string;
  partBytes: number;
}

export interface SeenRequest {
  method: string;
  url: string;
  contentLength: string | undefined;
  status: number;
}

/** Answer `status` instead of handling the request, for requests the predicate picks (failure injection). */
export type Interceptor = (req: { method: string; url: URL }) => number | "hold" | undefined;

interface Upload {
  name: string;
  size: number;
  contentType: string;
  parts: Map<number, { file: string; etag: string }>;
}

export async function startWorkerUploadServer(opts: UploadServerOptions) {
  const objectsDir = path.join(opts.dir, "objects");
  const partsDir = path.join(opts.dir, "parts");
  await mkdir(objectsDir, { recursive: true });
  await mkdir(partsDir, { recursive: true });
  const uploads = new Map<string, Upload>();
  const objects = new Map<string, { file: string; contentType: string; size: number }>();
  const requests: SeenRequest[] = [];
  const held: IncomingMessage[] = [];
  let intercept: Interceptor = () => undefined;

  const answer = (res: ServerResponse, status: number, body?: unknown) => {
    if (body === undefined) res.writeHead(status).end();
    else res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, code: string, message: string) => answer(res, status, { error: { code, message } });

  async function readJson(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  }

  /** Streams exactly `length` bytes of the body into `file`; false (and the file removed) when it is not that long. */
  async function bodyToFile(req: IncomingMessage, file: string, length: number): Promise<string | null> {
    const md5 = createHash("md5");
    let received = 0;
    await pipeline(
      req,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          received += chunk.length;
          md5.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(file),
    );
    if (received !== length) {
      await rm(file, { force: true });
      return null;
    }
    return md5.digest("hex");
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const url = new URL(req.url ?? "/", "http://x");
    const verdict = intercept({ method: req.method ?? "", url });
    if (verdict === "hold") {
      // Never answered: the client's cancel has to end it.
      held.push(req);
      return 0;
    }
    if (verdict !== undefined) {
      req.resume();
      fail(res, verdict, "injected", `injected ${verdict}`);
      return verdict;
    }
    if (req.headers.authorization !== `Bearer ${opts.token}`) {
      req.resume();
      fail(res, 401, "unauthorized", "bad token");
      return 401;
    }
    const m = /^\/internal\/jobs\/[^/]+\/artifacts\/([a-z0-9][a-z0-9._-]*)$/.exec(url.pathname);
    if (!m) {
      req.resume();
      fail(res, 404, "not_found", "no such route");
      return 404;
    }
    const name = m[1]!;
    const uploadId = url.searchParams.get("uploadId");
    const lengthHeader = req.headers["content-length"];

    if (req.method === "PUT") {
      if (lengthHeader === undefined) return req.resume(), fail(res, 411, "length_required", "Content-Length"), 411;
      const length = Number(lengthHeader);
      if (uploadId === null) {
        const file = path.join(objectsDir, name);
        if ((await bodyToFile(req, file, length)) === null) return fail(res, 400, "upload_incomplete", "short body"), 400;
        objects.set(name, { file, contentType: String(req.headers["content-type"] ?? "application/octet-stream"), size: length });
        answer(res, 201, { name, size_bytes: length });
        return 201;
      }
      const upload = uploads.get(uploadId);
      if (!upload || upload.name !== name) return req.resume(), fail(res, 404, "upload_not_found", "no such upload"), 404;
      const count = Math.ceil(upload.size / opts.partBytes);
      const n = Number(url.searchParams.get("partNumber"));
      if (!Number.isInteger(n) || n < 1 || n > count) return req.resume(), fail(res, 422, "validation_failed", "partNumber"), 422;
      const expected = n < count ? opts.partBytes : upload.size - (count - 1) * opts.partBytes;
      if (length !== expected) return req.resume(), fail(res, 400, "wrong_part_size", `part ${n} must be ${expected} bytes`), 400;
      const file = path.join(partsDir, `${uploadId}.${n}`);
      const etag = await bodyToFile(req, file, length);
      if (etag === null) return fail(res, 400, "upload_incomplete", "short part"), 400;
      upload.parts.set(n, { file, etag });
      answer(res, 200, { part_number: n, etag });
      return 200;
    }

    if (req.method === "POST" && url.searchParams.has("uploads")) {
      const body = (await readJson(req)) as { size_bytes: number; content_type: string };
      if (!Number.isSafeInteger(body.size_bytes) || body.size_bytes < 1) return fail(res, 422, "validation_failed", "size_bytes"), 422;
      const id = randomUUID();
      uploads.set(id, { name, size: body.size_bytes, contentType: body.content_type, parts: new Map() });
      answer(res, 201, { upload_id: id, part_size_bytes: opts.partBytes, part_count: Math.ceil(body.size_bytes / opts.partBytes) });
      return 201;
    }

    if (req.method === "POST" && uploadId !== null) {
      const upload = uploads.get(uploadId);
      const body = (await readJson(req)) as { parts: { part_number: number; etag: string }[] };
      if (!upload || upload.name !== name) return fail(res, 404, "upload_not_found", "no such upload"), 404;
      const count = Math.ceil(upload.size / opts.partBytes);
      const listed = [...body.parts].sort((a, b) => a.part_number - b.part_number);
      const whole = listed.length === count && listed.every((p, i) => p.part_number === i + 1 && upload.parts.get(p.part_number)?.etag === p.etag);
      if (!whole) return fail(res, 400, "parts_missing", "parts missing or etags differ"), 400;
      const file = path.join(objectsDir, name);
      const partFiles = Array.from({ length: count }, (_, i) => upload.parts.get(i + 1)!.file);
      await pipeline(async function* () {
        for (const f of partFiles) yield* createReadStream(f);
      }, createWriteStream(file));
      for (const p of upload.parts.values()) await rm(p.file, { force: true });
      uploads.delete(uploadId);
      const { size } = await stat(file);
      objects.set(name, { file, contentType: upload.contentType, size });
      answer(res, 201, { name, size_bytes: size });
      return 201;
    }

    if (req.method === "DELETE" && uploadId !== null) {
      req.resume();
      const upload = uploads.get(uploadId);
      if (upload) for (const p of upload.parts.values()) await rm(p.file, { force: true });
      uploads.delete(uploadId);
      answer(res, 204);
      return 204;
    }
    req.resume();
    fail(res, 400, "bad_request", "unknown call");
    return 400;
  }

  const server = createServer((req, res) => {
    const seen: SeenRequest = { method: req.method ?? "", url: req.url ?? "", contentLength: req.headers["content-length"], status: 0 };
    requests.push(seen);
    handle(req, res).then(
      (status) => (seen.status = status),
      (err: unknown) => {
        seen.status = 500;
        if (!res.headersSent) fail(res, 500, "internal", String(err));
      },
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    uploads,
    objects,
    held,
    intercept(fn: Interceptor) {
      intercept = fn;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const req of held) req.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
