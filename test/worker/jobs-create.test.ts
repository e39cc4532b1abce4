import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobAck, JobRecord } from "../../common/contract";
import { app } from "../../worker/src/app";
import type { Env, JobQueueMessage } from "../../worker/src/env";
import {
  accountCredits,
  admin,
  BASE,
  call,
  createAccount,
  expect422,
  expectError,
  FIXTURE_VODS,
  get,
  minimalJob,
  nextIp,
  postJob,
  vodUrl,
  type TestAccount,
} from "./helpers";

/** Calls the Hono app with a modified environment (a failing queue, an unreachable Twitch). */
async function callWithEnv(overrides: Partial<Env>, path: string, init: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`${BASE}${path}`, init), { ...env, ...overrides } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

function jobRequest(apiKey: string, body: unknown): RequestInit {
  return {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-API-Key": apiKey, "CF-Connecting-IP": nextIp() },
    body: JSON.stringify(body),
  };
}

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 10_000, purchase: true });
});

describe("authentication", () => {
  it("answers 401 without a key, with an unknown key and with a revoked key", async () => {
    await expectError(await call("/jobs", { method: "POST", headers: { "Content-Type": "application/json", "CF-Connecting-IP": nextIp() }, body: "{}" }), 401, "missing_api_key");
    await expectError(await postJob("hk_live_notarealkey", minimalJob()), 401, "invalid_api_key");
    const other = await createAccount();
    expect((await postJob(other.api_key, minimalJob())).status).toBe(202);
    expect((await admin("DELETE", `/accounts/${other.account_id}/keys/${other.key_id}`)).status).toBe(200);
    await expectError(await postJob(other.api_key, minimalJob()), 401, "invalid_api_key");
    await expectError(await get(other.api_key, "/jobs"), 401, "invalid_api_key");
  });

  it("says so when X-API-Key arrives twice (joined with a comma) instead of calling a good key invalid", async () => {
    const twice = new Headers();
    twice.append("X-API-Key", acct.api_key);
    twice.append("X-API-Key", acct.api_key);
    for (const path of ["/jobs", `/jobs/job_x/download-all`]) {
      const err = await expectError(await call(path, { headers: twice }), 401, "invalid_api_key");
      expect(err.message).toBe("Send the API key once: the X-API-Key header arrived more than once (or holds a comma).");
    }
    // Spaces around one key are still forgiven.
    expect((await call("/jobs", { headers: { "X-API-Key": `  ${acct.api_key} ` } })).status).toBe(200);
  });
});

describe("POST /jobs acceptance", () => {
  it("answers 202 with the acknowledgement, reserves the credits and queues the job", async () => {
    const sent: JobQueueMessage[] = [];
    const before = await accountCredits(acct.account_id);
    const recordingQueue = {
      send: async (message: JobQueueMessage, options?: QueueSendOptions) => {
        sent.push(message);
        return env.JOBS_QUEUE.send(message, options);
      },
    } as unknown as Queue<JobQueueMessage>;
    const res = await callWithEnv(
      { JOBS_QUEUE: recordingQueue },
      "/jobs",
      jobRequest(acct.api_key, { vod_url: vodUrl(FIXTURE_VODS.public), webhook_url: "https://hooks.example.com/x", num_shorts: 2 }),
    );
    expect(res.status).toBe(202);
    const ack = (await res.json()) as JobAck;
    expect(ack).toEqual({
      id: expect.stringMatching(/^job_[0-9A-HJKMNP-TV-Z]{26}$/),
      status: "pending",
      credit_cost: 80 + 25 + 20,
      webhook_url: "https://hooks.example.com/x",
      status_endpoint: `/jobs/${ack.id}`,
      results_endpoint: `/jobs/${ack.id}/results`,
      analysis_reused: null,
      message: expect.stringContaining("125 credits reserved"),
    });
    expect(res.headers.get("Location")).toBe(`/jobs/${ack.id}`);
    expect(sent).toEqual([{ job_id: ack.id }]);
    expect(await accountCredits(acct.account_id)).toBe(before - 125);

    const ledger = await env.DB.prepare("SELECT kind, amount, balance_after FROM credit_ledger WHERE job_id = ?").bind(ack.id).all();
    expect(ledger.results).toEqual([{ kind: "reserve", amount: -125, balance_after: before - 125 }]);

    const record = (await (await get(acct.api_key, ack.status_endpoint)).json()) as JobRecord;
    expect(record).toMatchObject({
      id: ack.id,
      status: "pending",
      progress: 0,
      vod_id: FIXTURE_VODS.public,
      vod_title: "Speedrun Night: Any% attempts",
      vod_duration_seconds: 7200,
      streamer_name: "SynthRunner",
      game_name: "Celeste",
      credit_cost: 125,
      refunded_credits: 0,
      error: null,
      webhook_url: "https://hooks.example.com/x",
      started_at: null,
      finished_at: null,
      artifacts_expires_at: null,
    });
    expect(record.request.num_shorts).toBe(2);
    // The probe is stored for the renderer.
    const row = await env.DB.prepare("SELECT vod_json FROM jobs WHERE id = ?").bind(ack.id).first<{ vod_json: string }>();
    expect(JSON.parse(row!.vod_json)).toMatchObject({ vod_id: FIXTURE_VODS.public, streamer_login: "synthrunner", duration_seconds: 7200 });
  });

  it("says in the acknowledgement when the plan cap reduced num_shorts", async () => {
    const free = await createAccount({ plan: "free", credits: 1000, purchase: true });
    const ack = (await (await postJob(free.api_key, minimalJob({ num_shorts: 7 }))).json()) as JobAck;
    expect(ack.credit_cost).toBe(40 + 25 + 30);
    expect(ack.message).toMatch(/reduced from 7 to 3/);
  });

  it("prefers the request's streamer and game names over the probe's", async () => {
    const ack = (await (await postJob(acct.api_key, { vod_url: vodUrl(FIXTURE_VODS.public), streamer_name: "Runner Prime", game_name: "Celeste Classic" })).json()) as JobAck;
    const record = (await (await get(acct.api_key, `/jobs/${ack.id}`)).json()) as JobRecord;
    expect(record).toMatchObject({ streamer_name: "Runner Prime", game_name: "Celeste Classic", vod_title: "Speedrun Night: Any% attempts" });
  });

  it("answers 402 with needed and available when the balance is too small, reserving nothing", async () => {
    const poor = await createAccount({ plan: "pro", credits: 64, purchase: true });
    const err = await expectError(await postJob(poor.api_key, minimalJob()), 402, "insufficient_credits");
    expect(err).toMatchObject({ needed: 65, available: 64 });
    expect(await accountCredits(poor.account_id)).toBe(64);
    const jobs = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE account_id = ?").bind(poor.account_id).first<{ n: number }>();
    expect(jobs!.n).toBe(0);
    // Exactly enough is enough (a shorter claim would not lower the price: the 1 h VOD is probed).
    expect((await postJob(poor.api_key, minimalJob({ vod_length_hours: 0.975 }))).status).toBe(402);
    expect((await admin("POST", `/accounts/${poor.account_id}/credits`, { amount: 1 })).status).toBe(200);
    expect((await postJob(poor.api_key, minimalJob())).status).toBe(202);
    expect(await accountCredits(poor.account_id)).toBe(0);
  });

  it("fails the job with a full refund and answers 503 when the queue refuses the message", async () => {
    const before = await accountCredits(acct.account_id);
    const brokenQueue = {
      send: async () => {
        throw new Error("Queue send failed: internal error");
      },
    } as unknown as Queue<JobQueueMessage>;
    const res = await callWithEnv({ JOBS_QUEUE: brokenQueue }, "/jobs", jobRequest(acct.api_key, minimalJob()));
    await expectError(res, 503, "service_unavailable");
    expect(res.headers.get("Retry-After")).toBe("30");
    expect(await accountCredits(acct.account_id)).toBe(before);
    const job = await env.DB.prepare("SELECT id, status, error_code, refunded_credits, credit_cost FROM jobs WHERE account_id = ? ORDER BY id DESC LIMIT 1")
      .bind(acct.account_id)
      .first<{ id: string; status: string; error_code: string; refunded_credits: number; credit_cost: number }>();
    expect(job).toMatchObject({ status: "failed", error_code: "queue_unavailable", refunded_credits: 65, credit_cost: 65 });
    const ledger = await env.DB.prepare("SELECT kind, amount FROM credit_ledger WHERE job_id = ? ORDER BY id").bind(job!.id).all();
    expect(ledger.results).toEqual([
      { kind: "reserve", amount: -65 },
      { kind: "refund", amount: 65 },
    ]);
  });

  it("answers 422 naming vod_url when Twitch does not answer its protocol", async () => {
    // A GQL URL that answers HTTP 404 (the local server has no such route): Twitch is unavailable, not the VOD.
    const broken = { TWITCH_GQL_URL: `${env.TWITCH_USHER_URL}/no-gql-here` };
    const detail = await expect422(await callWithEnv(broken, "/jobs", jobRequest(acct.api_key, { vod_url: vodUrl(FIXTURE_VODS.public) })));
    expect(detail.get("vod_url")).toEqual(["could not be checked because Twitch is unreachable; retry later or send vod_length_hours"]);
    // vod_length_hours skips the probe, so the same request with a length goes through.
    expect((await callWithEnv(broken, "/jobs", jobRequest(acct.api_key, minimalJob()))).status).toBe(202);
  });

  it("rejects unusable VODs on POST /jobs itself", async () => {
    const detail = await expect422(await postJob(acct.api_key, { vod_url: vodUrl(FIXTURE_VODS.live) }));
    expect(detail.get("vod_url")!.join()).toMatch(/still live/);
  });
});

describe("POST /jobs/estimate", () => {
  it("returns the breakdown and the normalised request without reserving anything", async () => {
    const before = await accountCredits(acct.account_id);
    const jobsBefore = await env.DB.prepare("SELECT count(*) AS n FROM jobs").first<{ n: number }>();
    const res = await call("/jobs/estimate", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-API-Key": acct.api_key },
      body: JSON.stringify({ vod_url: vodUrl(FIXTURE_VODS.public), model_preset: "studio_polish", run_profiles: ["balanced", "streamer"], num_shorts: 4 }),
    });
    expect(res.status).toBe(200);
    const est = (await res.json()) as { credit_cost: number; breakdown: Record<string, unknown>; available_credits: number; sufficient_credits: boolean };
    expect(est.breakdown).toMatchObject({
      vod_hours: 2,
      credits_per_vod_hour: 70,
      processing_credits: 140,
      reels: 2,
      generation_credits: 50,
      shorts: 4,
      shorts_credits: 40,
      total: 230,
    });
    expect(est).toMatchObject({ credit_cost: 230, available_credits: before, sufficient_credits: true });
    expect(await accountCredits(acct.account_id)).toBe(before);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM jobs").first<{ n: number }>()).toEqual(jobsBefore);
  });

  it("charges exactly the estimate on POST /jobs", async () => {
    const body = { vod_url: vodUrl(FIXTURE_VODS.short), model_preset: "rapid_sprint", num_shorts: 1 };
    const est = (await (await call("/jobs/estimate", { method: "POST", headers: { "Content-Type": "application/json", "X-API-Key": acct.api_key }, body: JSON.stringify(body) })).json()) as { credit_cost: number };
    const ack = (await (await postJob(acct.api_key, body)).json()) as JobAck;
    expect(est.credit_cost).toBe(4 + 25 + 10);
    expect(ack.credit_cost).toBe(est.credit_cost);
  });
});
