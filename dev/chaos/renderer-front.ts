import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

/**
 * A front before each renderer process of the local stack, for the chaos run: it passes every request through
 * to its renderer unchanged, except that the next POST /tasks requests (to any renderer of the pool) can be given
 * scripted answers instead, e.g. 503 four times (busy, as a full renderer answers) and then a 500 (a transient
 * failure, as a container that disconnected answers). The Worker only sees what a renderer could have said.
 */
export interface RendererFront {
  /** RENDER_URL for the Worker: one front per renderer, comma-separated, in the pool's order. */
  renderUrl: string;
  /** The next POST /tasks get these statuses, in order, before requests pass through again. */
  answerNext(statuses: number[]): void;
  /** Every scripted answer given so far: the status and the task it refused. */
  scripted: { status: number; job_id: string; task_id: string; front: number }[];
  close(): Promise<void>;
}

const SCRIPTED_BODY: Record<number, unknown> = {
  503: { error: { code: "renderer_busy", message: "This renderer is running as many tasks as it may (chaos run)." } },
  500: { error: { code: "internal", message: "Container suddenly disconnected (chaos run)." } },
};

export async function startRendererFront(targets: string[]): Promise<RendererFront> {
  const script: number[] = [];
  const scripted: RendererFront["scripted"] = [];
  const servers: Server[] = [];
  for (const [index, target] of targets.entries()) {
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      if (req.method === "POST" && req.url === "/tasks" && script.length > 0) {
        const status = script.shift()!;
        const task = JSON.parse(body.toString("utf8")) as { job_id?: string; task?: { id?: string } };
        scripted.push({ status, job_id: String(task.job_id), task_id: String(task.task?.id), front: index });
        const text = JSON.stringify(SCRIPTED_BODY[status] ?? { error: { code: "scripted", message: `scripted ${status}` } });
        return void res.writeHead(status, { "content-type": "application/json" }).end(text);
      }
      try {
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => typeof v === "string" && k !== "host" && k !== "content-length" && k !== "connection")) as Record<string, string>;
        const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body: req.method === "GET" || req.method === "HEAD" ? undefined : body });
        const passed: Record<string, string> = {};
        answer.headers.forEach((v, k) => {
          if (k !== "content-encoding" && k !== "transfer-encoding" && k !== "content-length") passed[k] = v;
        });
        res.writeHead(answer.status, passed);
        if (answer.body) Readable.fromWeb(answer.body as import("node:stream/web").ReadableStream).pipe(res);
        else res.end();
      } catch {
        // The renderer behind is gone (killed): the connection fails, as it would without the front.
        req.socket.destroy();
      }
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    servers.push(server);
  }
  return {
    renderUrl: servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`).join(","),
    answerNext: (statuses) => void script.push(...statuses),
    scripted,
    close: async () => {
      await Promise.all(servers.map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
    },
  };
}
