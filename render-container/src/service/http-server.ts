import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import { RenderJob } from "../../../common/contract/render";
import type { Logger } from "../log";
import type { JobRegistry } from "./job-registry";

const MAX_BODY = 1024 * 1024;

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function errorBody(code: string, message: string, extra: Record<string, unknown> = {}) {
  return { error: { code, message, ...extra } };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw Object.assign(new Error("body too large"), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw Object.assign(new Error("body is not valid JSON"), { status: 400 });
  }
}

function authorised(req: IncomingMessage, token: string | undefined): boolean {
  if (!token) return true;
  const given = Buffer.from(req.headers.authorization ?? "");
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The renderer's HTTP interface (see common/contract/render.ts): start a job (returns at once), cancel a job,
 * read its local status, and health. In production only the Worker reaches it (through the Container binding);
 * RENDERER_TOKEN protects it when it listens on a shared network.
 */
export function createRenderServer(registry: JobRegistry, log: Logger, opts: { token?: string; version?: string } = {}): Server {
  return createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://renderer");
    const parts = url.pathname.split("/").filter(Boolean);
    try {
      if (req.method === "GET" && url.pathname === "/health") {
        return send(res, 200, { ok: true, running_jobs: registry.runningCount, version: opts.version ?? "dev" });
      }
      if (!authorised(req, opts.token)) return send(res, 401, errorBody("unauthorized", "Missing or wrong renderer token."));

      if (parts[0] === "jobs" && parts.length === 1) {
        if (req.method !== "POST") return send(res, 405, errorBody("method_not_allowed", "Use POST."));
        const parsed = RenderJob.safeParse(await readJson(req));
        if (!parsed.success) {
          return send(res, 422, errorBody("invalid_job", "The render job is malformed.", { detail: parsed.error.issues.map((i) => ({ field: i.path.join("."), message: i.message })) }));
        }
        const started = registry.start(parsed.data);
        log.info(started ? "job accepted" : "duplicate start ignored", { job_id: parsed.data.job_id });
        return send(res, 202, { accepted: started, job_id: parsed.data.job_id, status: registry.status(parsed.data.job_id) });
      }
      if (parts[0] === "jobs" && parts.length === 2 && req.method === "GET") {
        const status = registry.status(parts[1]);
        return status ? send(res, 200, { job_id: parts[1], status }) : send(res, 404, errorBody("not_found", "No such job on this renderer."));
      }
      if (parts[0] === "jobs" && parts.length === 3 && parts[2] === "cancel") {
        if (req.method !== "POST") return send(res, 405, errorBody("method_not_allowed", "Use POST."));
        const cancelled = await registry.cancel(parts[1]);
        return send(res, 200, { job_id: parts[1], cancelled });
      }
      return send(res, 404, errorBody("not_found", "No such route."));
    } catch (err) {
      const status = (err as { status?: number }).status ?? 500;
      if (status === 500) log.error("request failed", { error: String(err) });
      return send(res, status, errorBody(status === 500 ? "internal_error" : "bad_request", (err as Error).message));
    }
  });
}
