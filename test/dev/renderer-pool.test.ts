import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RENDERERS, rendererCount, startRendererPool, type RendererPool } from "../../dev/stack/renderer-pool";

describe("rendererCount", () => {
  it("takes the explicit count, then LOCAL_RENDERERS, then the default", () => {
    expect(rendererCount(3, { LOCAL_RENDERERS: "5" })).toBe(3);
    expect(rendererCount("4", {})).toBe(4);
    expect(rendererCount(undefined, { LOCAL_RENDERERS: "5" })).toBe(5);
    expect(rendererCount(undefined, {})).toBe(DEFAULT_RENDERERS);
    expect(DEFAULT_RENDERERS).toBe(2);
  });

  it("names the setting that is wrong", () => {
    expect(() => rendererCount("0", {})).toThrow(/--renderers must be a whole number from 1 to 16, got "0"/);
    expect(() => rendererCount(undefined, { LOCAL_RENDERERS: "two" })).toThrow(/LOCAL_RENDERERS must be .* got "two"/);
    expect(() => rendererCount(17, {})).toThrow(/--renderers/);
    expect(() => rendererCount(1.5, {})).toThrow(/--renderers/);
  });
});

describe("startRendererPool: real renderer processes", () => {
  let dir: string;
  let pool: RendererPool;
  const TOKEN = "pool-test-token";

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "renderer-pool-"));
    pool = await startRendererPool({ count: 2, stateDir: dir, token: TOKEN });
    await pool.ready();
  }, 60_000);

  afterAll(async () => {
    await pool?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("runs each process on its own 127.0.0.1 port and lists them all in RENDER_URL", async () => {
    expect(pool.urls).toHaveLength(2);
    expect(new Set(pool.urls).size).toBe(2);
    for (const url of pool.urls) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(pool.renderUrl).toBe(pool.urls.join(","));
    const pids = new Set<number>();
    for (const [i, url] of pool.urls.entries()) {
      const res = await fetch(`${url}/health`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
      pids.add(pool.processes[i]!.child.pid!);
    }
    expect(pids.size).toBe(2);
  });

  it("gives every process the token (its job routes refuse a request without it)", async () => {
    for (const url of pool.urls) {
      expect((await fetch(`${url}/jobs`, { method: "POST", body: "{}" })).status).toBe(401);
      const authorised = await fetch(`${url}/jobs`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }, body: "{}" });
      expect(authorised.status).not.toBe(401);
    }
  });

  it("keeps one log per process, named after it, with its own work folder", async () => {
    for (const n of [1, 2]) {
      const log = await readFile(path.join(dir, `renderer-${n}.log`), "utf8");
      expect(log).toContain("renderer listening");
      expect(log).toContain(path.join(dir, `renderer-work-${n}`));
    }
  });

  it("restarts a killed renderer on its own URL and log, with the extra settings it is given", async () => {
    const before = pool.processes[0]!;
    process.kill(-before.child.pid!, "SIGKILL");
    await expect(fetch(`${pool.urls[0]}/health`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
    await pool.restart(0, { MAX_TASKS: "3" });
    expect(pool.processes[0]!.child.pid).not.toBe(before.child.pid);
    const health = (await (await fetch(`${pool.urls[0]}/health`)).json()) as { ok: boolean; max_tasks: number };
    expect(health).toMatchObject({ ok: true, max_tasks: 3 });
    const log = await readFile(path.join(dir, "renderer-1.log"), "utf8");
    expect(log.split("\n").filter((l) => l.includes("renderer listening"))).toHaveLength(2);
  }, 60_000);

  it("stops every process", async () => {
    await pool.stop();
    for (const url of pool.urls) await expect(fetch(url + "/health", { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
  });
});
