import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createClient } from "../../../common/client";

/** Worker modules, loaded at run time: this Node-side project does not type-check Worker code (workers types). */
interface WorkerModules {
  app: { fetch(request: Request, env: object): Response | Promise<Response> };
  pricingTable(): unknown;
}
const workerModule = (path: string) => import(/* @vite-ignore */ path);

/**
 * The client in plain Node with its default fetch (undici) over real HTTP. The server is the Worker's own Hono
 * app behind node:http, without bindings: enough for the routes that need no storage (pricing, the API key
 * check, unknown paths), which is what this test is about: the client's Node path, not the API.
 */

let server: Server;
let baseUrl: string;
let worker: WorkerModules;

beforeAll(async () => {
  worker = {
    app: ((await workerModule("../../../worker/src/app")) as Pick<WorkerModules, "app">).app,
    pricingTable: ((await workerModule("../../../worker/src/routes/pricing")) as Pick<WorkerModules, "pricingTable">).pricingTable,
  };
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const answer = await worker.app.fetch(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body }), {});
    const answerHeaders: Record<string, string> = {};
    answer.headers.forEach((value, key) => (answerHeaders[key] = value));
    res.writeHead(answer.status, answerHeaders);
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("client in Node", () => {
  it("calls the API over HTTP with the global fetch", async () => {
    expect(await createClient({ baseUrl }).getPricing()).toEqual(worker.pricingTable());
  });

  it("turns the API's error envelope into ApiError", async () => {
    const error = await createClient({ baseUrl }).listJobs({ page: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: "missing_api_key", requestId: expect.stringMatching(/^req_/) });
  });

  it("sends the path under the base URL's own path", async () => {
    const error = await createClient({ baseUrl: `${baseUrl}/v9/` }).getPricing().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, code: "not_found", message: "No route for GET /v9/pricing." });
  });
});
