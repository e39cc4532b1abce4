import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { RenderTaskRequest } from "../../common/contract/job-plan";
import { CONTRACT_UNSUPPORTED_CODE, CONTRACT_UNSUPPORTED_STATUS, contractOf, RENDERER_TASK_CONTRACTS } from "../../common/contract/task-contract";
import { ACCEPT_MARKER, TEST_RENDERER_TOKEN, type BoxConfig, type ReceivedDelivery, type RendererJobLog } from "./doubles-protocol";

/**
 * Global setup of the "worker" project (Node): the two outside parties of a job's life, as real HTTP servers on
 * 127.0.0.1 the Worker calls from workerd.
 * - A renderer double speaking the renderer's HTTP contract (POST /tasks validated with the real RenderTaskRequest
 *   schema, POST /tasks/{key}/cancel). It renders nothing: tests play the renderer's task events themselves.
 *   Reached under `/speaks/<v>` (RENDER_URL `<url>/speaks/0`), it is a renderer of another image that knows only
 *   task contract version <v>, and answers a task of any other version as the renderer does (409).
 * - A webhook receiver that records deliveries, answers with the status a test chose, and verifies
 *   X-Service-Signature with node:crypto, independently of the Worker's signing code.
 */

declare module "vitest" {
  export interface ProvidedContext {
    rendererUrl: string;
    hooksUrl: string;
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** A test waiting for one attempt of one task to be started (GET /__test/jobs/{id}/starts/{task}/{attempt}). */
interface StartWaiter {
  task: string;
  attempt: number;
  answer: (start: RenderTaskRequest | null) => void;
}

const startOf = (starts: readonly RenderTaskRequest[], task: string, attempt: number) => starts.find((s) => s.task.id === task && s.task.attempt === attempt) ?? null;

export function startRendererDouble(): Server {
  const jobs = new Map<string, Omit<RendererJobLog, "starts"> & { starts: RenderTaskRequest[]; answer: number | null; script: number[]; accepted: boolean; acceptedTasks: string[]; waiters: StartWaiter[] }>();
  const entry = (id: string) => {
    let e = jobs.get(id);
    if (!e) jobs.set(id, (e = { starts: [], answers: [], cancels: 0, cancelledTasks: [], acceptedTasks: [], authorization: null, answer: null, script: [], accepted: false, waiters: [] }));
    return e;
  };
  return createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://renderer");
    let parts = url.pathname.split("/").filter(Boolean);
    const body = await readBody(req);
    if (parts[0] === "__test" && parts[1] === "jobs" && parts[2] && parts[3] === "starts" && parts[4] && parts[5]) {
      // Answers once that attempt of the task has been started (whatever the double answered it), or 404 after
      // `wait_ms`: one request per wait instead of a test polling the whole log.
      const e = entry(parts[2]);
      const [task, attempt] = [parts[4], Number(parts[5])];
      const found = startOf(e.starts, task, attempt);
      if (found) return json(res, 200, found);
      const waiter: StartWaiter = {
        task,
        attempt,
        answer: (start) => {
          clearTimeout(timer);
          e.waiters = e.waiters.filter((w) => w !== waiter);
          if (start) json(res, 200, start);
          else json(res, 404, { error: { code: "not_started", message: `task ${task} attempt ${attempt} was not started` } });
        },
      };
      const timer = setTimeout(() => waiter.answer(null), Math.min(Number(url.searchParams.get("wait_ms") ?? 0) || 0, 60_000));
      e.waiters.push(waiter);
      return;
    }
    if (parts[0] === "__test" && parts[1] === "jobs" && parts[2]) {
      const e = entry(parts[2]);
      // PUT sets the status answered to this job's starts (202 accepts, anything else refuses), after the statuses
      // of `script`, answered one per start in order.
      if (req.method === "PUT") {
        const put = JSON.parse(body.toString() || "{}") as { status?: number; script?: number[] };
        e.answer = put.status ?? 202;
        e.script = [...(put.script ?? [])];
      }
      return json(res, 200, { starts: e.starts, answers: e.answers, cancels: e.cancels, cancelledTasks: e.cancelledTasks, authorization: e.authorization });
    }
    // A renderer of another image: the task contract versions it knows.
    let speaks = RENDERER_TASK_CONTRACTS;
    if (parts[0] === "speaks" && parts[1]) {
      speaks = parts[1].split(",").map(Number);
      parts = parts.slice(2);
    }
    if (req.headers.authorization !== `Bearer ${TEST_RENDERER_TOKEN}`) return json(res, 401, { error: { code: "unauthorized" } });

    if (req.method === "POST" && parts.length === 1 && parts[0] === "tasks") {
      const raw = JSON.parse(body.toString()) as { job_id?: string };
      const version = contractOf(raw);
      if (!speaks.includes(version as number)) {
        // Logged under the job like any start, so a test sees which renderer refused what.
        if (typeof raw.job_id === "string") entry(raw.job_id).answers.push(CONTRACT_UNSUPPORTED_STATUS);
        return json(res, CONTRACT_UNSUPPORTED_STATUS, { error: { code: CONTRACT_UNSUPPORTED_CODE, message: `this renderer speaks task contract ${speaks.join(", ")}`, accepted: speaks } });
      }
      const parsed = RenderTaskRequest.safeParse(raw);
      if (!parsed.success) return json(res, 422, { error: { code: "invalid_task", detail: parsed.error.issues } });
      const e = entry(parsed.data.job_id);
      e.starts.push(parsed.data);
      e.authorization = req.headers.authorization ?? null;
      const status = e.script.shift() ?? e.answer ?? (parsed.data.request.streamer_name === ACCEPT_MARKER ? 202 : 503);
      e.answers.push(status);
      for (const w of e.waiters.filter((w) => w.task === parsed.data.task.id && w.attempt === parsed.data.task.attempt)) w.answer(parsed.data);
      // 500 as @cloudflare/containers answers when the instance's connection drops mid-request.
      if (status === 500) return json(res, 500, { error: { code: "internal", message: "Container suddenly disconnected, try again" } });
      if (status !== 202) return json(res, status, { error: { code: status === 503 ? "busy" : "unavailable", message: "renderer double refuses this task" } });
      // Like the real renderer: a duplicate start of the same attempt is acknowledged and ignored.
      const key = `${parsed.data.task.id}#${parsed.data.task.attempt}`;
      const first = !e.acceptedTasks.includes(key);
      if (first) e.acceptedTasks.push(key);
      e.accepted = true;
      return json(res, 202, { accepted: first, job_id: parsed.data.job_id, task_id: parsed.data.task.id });
    }
    if (req.method === "POST" && parts.length === 3 && parts[0] === "tasks" && parts[2] === "cancel") {
      // Task keys are "<job_id>.<task_id>".
      const [jobId, taskId] = [parts[1]!.slice(0, parts[1]!.indexOf(".")), parts[1]!.slice(parts[1]!.indexOf(".") + 1)];
      const e = entry(jobId);
      e.cancels += 1;
      e.cancelledTasks.push(taskId);
      e.authorization = req.headers.authorization ?? null;
      return json(res, 200, { cancelled: e.accepted && e.cancels === 1 });
    }
    return json(res, 404, { error: { code: "not_found" } });
  });
}

function signatureValid(secret: string, raw: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(raw).digest("hex"));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Standard Webhooks verification written from the specification alone (standardwebhooks.com), with node:crypto. */
function standardSignatureValid(secret: string, raw: Buffer, headers: IncomingMessage["headers"]): boolean {
  const id = headers["webhook-id"];
  const ts = headers["webhook-timestamp"];
  const sig = headers["webhook-signature"];
  if (typeof id !== "string" || typeof ts !== "string" || typeof sig !== "string" || !secret.startsWith("whsec_")) return false;
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(Buffer.concat([Buffer.from(`${id}.${ts}.`), raw])).digest();
  return sig.split(" ").some((entry) => {
    const [version, value] = entry.split(",");
    if (version !== "v1" || !value) return false;
    const given = Buffer.from(value, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export function startWebhookReceiver(): Server {
  const boxes = new Map<string, { config: BoxConfig; deliveries: ReceivedDelivery[] }>();
  const box = (name: string) => {
    let b = boxes.get(name);
    if (!b) boxes.set(name, (b = { config: {}, deliveries: [] }));
    return b;
  };
  return createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://hooks");
    const parts = url.pathname.split("/").filter(Boolean);
    const raw = await readBody(req);
    // Never answers (until the client gives up): for delivery time-outs.
    if (parts[0] === "__test" && parts[1] === "hang") return;
    if (parts[0] === "__test" && parts[1] === "boxes" && parts[2]) {
      const b = box(parts[2]);
      if (req.method === "PUT") b.config = JSON.parse(raw.toString() || "{}") as BoxConfig;
      return json(res, 200, { deliveries: b.deliveries });
    }
    if (req.method === "POST" && parts[0] === "hooks" && parts[1]) {
      const b = box(parts[1]);
      const status = b.config.status ?? 200;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
      b.deliveries.push({
        at: Date.now(),
        headers,
        body: raw.toString("utf8"),
        signature_valid: b.config.secret ? signatureValid(b.config.secret, raw, req.headers["x-service-signature"] as string | undefined) : null,
        standard_signature_valid: b.config.secret ? standardSignatureValid(b.config.secret, raw, req.headers) : null,
        answered: status,
      });
      return json(res, status, { received: true }, status >= 300 && status < 400 ? { location: `${url.origin}/hooks/${parts[1]}-moved` } : {});
    }
    return json(res, 404, { error: "not found" });
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const renderer = startRendererDouble();
  const hooks = startWebhookReceiver();
  project.provide("rendererUrl", await listen(renderer));
  project.provide("hooksUrl", await listen(hooks));
  return async () => {
    await Promise.all(
      [renderer, hooks].map((s) => {
        s.closeAllConnections();
        return new Promise((r) => s.close(r));
      }),
    );
  };
}
