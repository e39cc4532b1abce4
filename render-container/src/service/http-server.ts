import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import { taskKey } from "../../../common/contract/job-plan";
import { CONTRACT_UNSUPPORTED_CODE, contractOf } from "../../../common/contract/task-contract";
import type { Logger } from "../log";
import { checkTaskRequest } from "./task-request";
import type { TaskRegistry } from "./task-registry";

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
 * The renderer's HTTP interface (common/contract/job-plan.ts): start a task (returns at once, or 503 when this
 * process is busy), cancel a task, and health. In production only the Worker reaches it (through the Container
 * binding); RENDERER_TOKEN guards every route but /health. A task of a contract version this renderer does not
 * speak (`opts.contracts`, default the registry's: RENDERER_TASK_CONTRACTS) is answered 409 contract_unsupported before its body is
 * validated: during a rollout the Worker's code may be newer (or older) than this image, and the Worker waits for a
 * renderer that knows the task rather than failing the job.
 */
export function createRenderServer(tasks: TaskRegistry, log: Logger, opts: { token?: string; version?: string; contracts?: readonly number[] } = {}): Server {
  const contracts = opts.contracts ?? tasks.contracts;
  return createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://renderer");
    const parts = url.pathname.split("/").filter(Boolean);
    try {
      if (req.method === "GET" && url.pathname === "/health") {
        return send(res, 200, { ok: true, version: opts.version ?? "dev", task_contracts: contracts, running_tasks: tasks.runningCount, max_tasks: tasks.capacity, tasks: tasks.list() });
      }
      if (!authorised(req, opts.token)) return send(res, 401, errorBody("unauthorized", "Missing or wrong renderer token."));

      if (parts[0] === "tasks" && parts.length === 1) {
        if (req.method !== "POST") return send(res, 405, errorBody("method_not_allowed", "Use POST."));
        const body = await readJson(req);
        const checked = checkTaskRequest(body, contracts);
        if (!checked.ok) {
          if (checked.code === CONTRACT_UNSUPPORTED_CODE) log.warn("task refused: unknown task contract", { contract: String(contractOf(body)), accepted: contracts.join(",") });
          return send(res, checked.status, errorBody(checked.code, checked.message, checked.extra));
        }
        const task = checked.request;
        const key = taskKey(task.job_id, task.task.id);
        const outcome = tasks.start(task);
        if (outcome === "busy") {
          // Logged so an operator (and the capacity test) can see tasks waiting for a slot, not only running ones.
          log.info("task refused: busy", { task_key: key, attempt: task.task.attempt, running_tasks: tasks.runningCount, max_tasks: tasks.capacity });
          res.setHeader("retry-after", "10");
          return send(res, 503, errorBody("busy", `This renderer already runs ${tasks.capacity} task(s); try again later.`));
        }
        log.info(outcome === "started" ? "task accepted" : "duplicate task start ignored", { task_key: key, attempt: task.task.attempt });
        return send(res, 202, { accepted: outcome === "started", task_key: key, status: tasks.status(key) });
      }
      if (parts[0] === "tasks" && parts.length === 3 && parts[2] === "cancel") {
        if (req.method !== "POST") return send(res, 405, errorBody("method_not_allowed", "Use POST."));
        const key = decodeURIComponent(parts[1]);
        const cancelled = await tasks.cancel(key);
        return send(res, 200, { task_key: key, cancelled });
      }

      return send(res, 404, errorBody("not_found", "No such route."));
    } catch (err) {
      const status = (err as { status?: number }).status ?? 500;
      if (status === 500) log.error("request failed", { error: String(err) });
      return send(res, status, errorBody(status === 500 ? "internal_error" : "bad_request", (err as Error).message));
    }
  });
}
