import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { PricingTable, VideoMetadata } from "../../common/contract";
import { app } from "../../worker/src/app";
import type { Env } from "../../worker/src/env";
import { BASE, call, createAccount, expect422, expectError, FIXTURE_VODS, get, minimalJob, nextIp, vodUrl, type TestAccount } from "./helpers";

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 10_000, purchase: true });
});

const jobPost = (body: BodyInit | null, contentType: string | null, extra: RequestInit = {}) =>
  call("/jobs", {
    method: "POST",
    headers: { ...(contentType ? { "Content-Type": contentType } : {}), "X-API-Key": acct.api_key, "CF-Connecting-IP": nextIp() },
    body,
    ...extra,
  });

describe("error envelope for HTTP-level problems", () => {
  it("answers unknown routes with 404 not_found", async () => {
    for (const path of ["/", "/nope", "/jobs/a/b/c"]) await expectError(await call(path), 404, "not_found");
    await expectError(await call("/admin/nope", { headers: { Authorization: "Bearer test-admin-token" } }), 404, "not_found");
  });

  it("answers wrong methods with 405 and an Allow header", async () => {
    const cases: [string, string, string][] = [
      ["DELETE", "/jobs", "GET, HEAD, OPTIONS, POST"],
      ["PUT", "/jobs/job_x", "GET, HEAD, OPTIONS"],
      ["GET", "/jobs/job_x/cancel", "OPTIONS, POST"],
      ["POST", "/pricing", "GET, HEAD, OPTIONS"],
      ["DELETE", "/videos/metadata", "GET, HEAD, OPTIONS"],
      // It used to reach GET /jobs/{id} and answer 404 "No job with this id exists".
      ["GET", "/jobs/estimate", "OPTIONS, POST"],
    ];
    for (const [method, path, allow] of cases) {
      const res = await call(path, { method, headers: { "X-API-Key": acct.api_key } });
      await expectError(res, 405, "method_not_allowed");
      expect(res.headers.get("Allow")!.split(", ").sort()).toEqual(allow.split(", ").sort());
    }
    const head = await call("/jobs/estimate", { method: "HEAD", headers: { "X-API-Key": acct.api_key } });
    expect([head.status, head.headers.get("Allow")]).toEqual([405, "POST, OPTIONS"]);
  });

  it("answers OPTIONS with 204 and the Allow header, no key needed (it used to be 405); unknown paths stay 404", async () => {
    const cases: [string, string][] = [
      ["/jobs", "GET, HEAD, OPTIONS, POST"],
      ["/jobs/job_x", "GET, HEAD, OPTIONS"],
      ["/jobs/job_x/cancel", "OPTIONS, POST"],
      ["/videos/metadata", "GET, HEAD, OPTIONS"],
    ];
    for (const [path, allow] of cases) {
      const res = await call(path, { method: "OPTIONS" });
      expect(res.status, path).toBe(204);
      expect(res.headers.get("Allow")!.split(", ").sort()).toEqual(allow.split(", "));
      expect(res.headers.get("Content-Type")).toBeNull();
      expect(await res.text()).toBe("");
    }
    await expectError(await call("/nope", { method: "OPTIONS" }), 404, "not_found");
  });

  it("marks answers no-store unless the route says otherwise (X-API-Key is not Authorization: caches would share them)", async () => {
    const created = await jobPost(JSON.stringify(minimalJob()), "application/json");
    const { id } = (await created.json()) as { id: string };
    const answers = [created, await get(acct.api_key, `/jobs/${id}`), await get(acct.api_key, "/jobs"), await call("/jobs"), await call("/nope", { method: "OPTIONS" })];
    for (const res of answers) {
      expect([res.status, res.headers.get("Cache-Control"), res.headers.get("X-Content-Type-Options")]).toEqual([res.status, "no-store", "nosniff"]);
    }
    // A route that may be cached keeps its own.
    expect((await call("/openapi.json")).headers.get("Cache-Control")).toBe("public, max-age=300");
  });

  it("answers malformed JSON with 400 invalid_json", async () => {
    for (const body of ['{"vod_url": ', "", "{'single': 'quotes'}", "undefined"]) {
      const err = await expectError(await jobPost(body, "application/json"), 400, "invalid_json");
      expect(err.message).toMatch(/not valid JSON/);
    }
  });

  it("answers a body that is not declared as JSON with 415", async () => {
    const body = JSON.stringify(minimalJob());
    await expectError(await jobPost(body, "text/plain"), 415, "unsupported_media_type");
    await expectError(await jobPost(body, "application/x-www-form-urlencoded"), 415, "unsupported_media_type");
    await expectError(await jobPost(body, null), 415, "unsupported_media_type");
    expect((await jobPost(body, "application/json; charset=utf-8")).status).toBe(202);
  });

  it("answers bodies over 64 KiB with 413, with or without Content-Length", async () => {
    const big = JSON.stringify({ ...minimalJob(), streamer_name: "x".repeat(70 * 1024) });
    await expectError(await jobPost(big, "application/json"), 413, "payload_too_large");
    // Streamed without Content-Length: the limit is enforced while reading. (workerd logs "Network connection
    // lost" for the abandoned upload of this in-process request; a real client just sees the 413.)
    const chunks = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < chunks.length; i += 8192) controller.enqueue(chunks.slice(i, i + 8192));
        controller.close();
      },
    });
    await expectError(await jobPost(stream, "application/json", { duplex: "half" } as RequestInit), 413, "payload_too_large");
    // A long but legal body (an over-long name is a 422, not a 413).
    const detail = await expect422(await jobPost(JSON.stringify({ ...minimalJob(), streamer_name: "x".repeat(30 * 1024) }), "application/json"));
    expect(detail.get("streamer_name")).toEqual(["must be at most 100 characters"]);
  });

  it("maps unexpected failures to 500 internal_error with the request id, never leaking internals", async () => {
    const brokenDb = {
      prepare: () => {
        throw new Error("D1_ERROR: database is on fire");
      },
      batch: () => Promise.reject(new Error("D1_ERROR: database is on fire")),
    } as unknown as D1Database;
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(`${BASE}/jobs`, { headers: { "X-API-Key": acct.api_key } }), { ...env, DB: brokenDb } as Env, ctx);
    await waitOnExecutionContext(ctx);
    const err = await expectError(res, 500, "internal_error");
    expect(err.request_id).toMatch(/^req_[a-z2-7]{20}$/);
    expect(res.headers.get("X-Request-Id")).toBe(err.request_id);
    expect(JSON.stringify(err)).not.toMatch(/fire|D1_ERROR/);
  });

  it("puts a request id on every answer", async () => {
    const ok = await call("/pricing");
    const missing = await call("/nope");
    expect(ok.headers.get("X-Request-Id")).toMatch(/^req_/);
    expect(missing.headers.get("X-Request-Id")).toMatch(/^req_/);
    expect(ok.headers.get("X-Request-Id")).not.toBe(missing.headers.get("X-Request-Id"));
  });
});

describe("GET /pricing", () => {
  it("publishes the rates, reel and short prices, caps and refund tiers without a key", async () => {
    const res = await call("/pricing");
    expect(res.status).toBe(200);
    const table = (await res.json()) as PricingTable;
    expect(table.default_model_preset).toBe("auto_balance");
    expect(Object.fromEntries(table.model_presets.map((p) => [p.model_preset, p.credits_per_vod_hour]))).toEqual({
      rapid_sprint: 20,
      stable_tempo: 30,
      auto_balance: 40,
      creator_focus: 50,
      studio_polish: 70,
      director_finish: 100,
    });
    expect(table).toMatchObject({
      credits_per_reel: 25,
      credits_per_short: 10,
      max_vod_hours: 24,
      shorts_plan_caps: { free: 3, starter: 5, pro: 10, studio: 10, never_purchased: 3 },
    });
    expect(table.cancel_refund_tiers.map((t) => t.refund_percent)).toEqual([100, 75, 50, 25, 0]);
    const head = await call("/pricing", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });
});

describe("GET /videos/metadata", () => {
  const meta = (url: string) => get(acct.api_key, `/videos/metadata?vod_url=${encodeURIComponent(url)}`);

  it("describes a usable VOD", async () => {
    const res = await meta(`https://twitch.tv/videos/${FIXTURE_VODS.public}?t=1h`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      vod_id: FIXTURE_VODS.public,
      vod_url: vodUrl(FIXTURE_VODS.public),
      title: "Speedrun Night: Any% attempts",
      duration_seconds: 7200,
      streamer_name: "SynthRunner",
      game_name: "Celeste",
      created_at: "2026-01-10T18:00:00Z",
      usable: true,
      reason: null,
    } satisfies VideoMetadata);
  });

  it.each([
    [FIXTURE_VODS.private, "private"],
    [FIXTURE_VODS.subscriberOnly, "subscriber_only"],
    [FIXTURE_VODS.deleted, "deleted"],
    [FIXTURE_VODS.missing, "deleted"],
    [FIXTURE_VODS.live, "live"],
  ])("says why VOD %s is unusable (%s)", async (id, reason) => {
    const res = await meta(vodUrl(id));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ vod_id: id, usable: false, reason });
  });

  it("spends no credits", async () => {
    const before = await env.DB.prepare("SELECT credits FROM accounts WHERE id = ?").bind(acct.account_id).first();
    await meta(vodUrl(FIXTURE_VODS.public));
    expect(await env.DB.prepare("SELECT credits FROM accounts WHERE id = ?").bind(acct.account_id).first()).toEqual(before);
  });

  it("validates vod_url and requires a key", async () => {
    expect((await expect422(await get(acct.api_key, "/videos/metadata"))).get("vod_url")).toEqual(["is required"]);
    expect((await expect422(await meta("https://youtube.com/watch?v=1"))).has("vod_url")).toBe(true);
    await expectError(await call(`/videos/metadata?vod_url=${encodeURIComponent(vodUrl(FIXTURE_VODS.public))}`), 401, "missing_api_key");
  });

  it("answers 503 twitch_unavailable when Twitch does not answer", async () => {
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`${BASE}/videos/metadata?vod_url=${encodeURIComponent(vodUrl(FIXTURE_VODS.public))}`, { headers: { "X-API-Key": acct.api_key } }),
      { ...env, TWITCH_GQL_URL: `${env.TWITCH_USHER_URL}/no-gql-here` } as Env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    await expectError(res, 503, "twitch_unavailable");
    expect(res.headers.get("Retry-After")).toBe("30");
  });
});
