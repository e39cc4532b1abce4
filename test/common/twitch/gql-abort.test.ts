import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TwitchUnavailableError, gqlRequest } from "../../../common/twitch";

// A GQL endpoint that sends its headers and part of the body, then stalls (never ends the answer).
let server: http.Server;
let url: string;
let requests = 0;
let bodyStarted: () => void;
let started: Promise<void>;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests++;
    req.resume();
    res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
    res.write('{"data":{"video":', () => bodyStarted());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gql`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("gqlRequest aborted while reading the answer", () => {
  it("rejects with the abort reason and does not ask again", async () => {
    started = new Promise((r) => (bodyStarted = r));
    const ac = new AbortController();
    const reason = new Error("job cancelled");
    const run = gqlRequest({ gqlUrl: url, signal: ac.signal, retries: 3, retryDelayMs: 1 }, [{ query: "query { video(id: \"1\") { id } }" }]);
    run.catch(() => undefined);
    await started;
    // Let the client read the headers and the first bytes before the abort.
    await new Promise((r) => setTimeout(r, 50));
    ac.abort(reason);
    const error = await run.catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(error).not.toBeInstanceOf(TwitchUnavailableError);
    await new Promise((r) => setTimeout(r, 100));
    expect(requests).toBe(1);
  });

  it("a broken body without an abort stays a transient TwitchUnavailableError, retried", async () => {
    const before = requests;
    const breaking = http.createServer((req, res) => {
      requests++;
      req.resume();
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"data":', () => res.destroy());
    });
    await new Promise<void>((r) => breaking.listen(0, "127.0.0.1", r));
    try {
      const at = `http://127.0.0.1:${(breaking.address() as AddressInfo).port}/gql`;
      const error = await gqlRequest({ gqlUrl: at, retries: 2, retryDelayMs: 1 }, [{ query: "{ a }" }]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TwitchUnavailableError);
      expect((error as TwitchUnavailableError).transient).toBe(true);
      expect(requests - before).toBe(3);
    } finally {
      await new Promise((r) => breaking.close(r));
    }
  });
});
