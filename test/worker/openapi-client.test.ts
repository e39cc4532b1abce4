import { env, exports } from "cloudflare:workers";
import { unzipSync, strFromU8 } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { ApiError, createClient, WaitTimeoutError, type HighlightClient } from "../../common/client";
import type {
  Deliverable as ContractDeliverable,
  JobFailedPayload,
  JobRecord,
  JobResults,
  JobRunningPayload,
  WebhookDelivery,
} from "../../common/contract";
import type { Deliverable as WorkerDeliverable, PublishedResults } from "../../worker/src/artifacts/results";
import type { Delivery } from "../../worker/src/webhooks/outbox";
import type { FailedPayload, RunningPayload } from "../../worker/src/webhooks/payloads";
import { pricingTable } from "../../worker/src/routes/pricing";
import { BASE, createAccount, FIXTURE_VODS, nextIp, vodUrl, type TestAccount } from "./helpers";
import { eventually, webhookBox } from "./job-steps";
import { ACCEPTED, analysisStart, claimedJob, completeSmall } from "./drive-job";
import { completeWithFiles, STORED_FILES } from "./openapi-helpers";
import { taskEvent } from "./task-flow";

/**
 * The typed client against the real Worker: its fetch is the Worker's own fetch handler, so every call goes
 * through routing, auth, validation, D1 and the Durable Objects as a deployed request would.
 */

// Compile-time: the Worker's hand-written answer types and the contract's schemas describe the same shapes.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const parity: [
  Same<PublishedResults, JobResults>,
  Same<WorkerDeliverable, ContractDeliverable>,
  Same<RunningPayload, JobRunningPayload>,
  Same<FailedPayload, JobFailedPayload>,
  Same<Delivery, WebhookDelivery>,
] = [true, true, true, true, true];

const workerFetch = (request: Request) => exports.default.fetch(request);

let acct: TestAccount;

function clientFor(apiKey: string | undefined): HighlightClient {
  // A fresh client IP per client keeps the per-IP POST /jobs limit out of the way of other tests.
  return createClient({ baseUrl: `${BASE}/`, apiKey, fetch: workerFetch, headers: { "CF-Connecting-IP": nextIp() } });
}

const job = (extra: Record<string, unknown> = {}) => ({ vod_url: vodUrl(FIXTURE_VODS.hour), vod_length_hours: 1, ...extra });

async function thrown(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

/** The test account's client, from a fresh IP each time (job creation is limited per IP). */
const api = () => clientFor(acct.api_key);

beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

// Completing a job through the task path waits for the real queue to start its tasks (batches wait up to 1 s).
describe("typed client", { timeout: 30_000 }, () => {
  it("keeps the Worker's answer types and the contract in step", () => {
    expect(parity).toEqual([true, true, true, true, true]);
  });

  it("reads the public price table without a key", async () => {
    expect(await clientFor(undefined).getPricing()).toEqual(pricingTable());
  });

  it("creates, reads, lists and estimates jobs", async () => {
    const ack = await api().createJob(job({ streamer_name: "ClientCheck", num_shorts: 2 }));
    expect(ack).toMatchObject({ status: "pending", status_endpoint: `/jobs/${ack.id}`, credit_cost: 40 + 25 + 20 });

    const record = await api().getJob(ack.id);
    expect(record).toMatchObject({ id: ack.id, status: "pending", streamer_name: "ClientCheck" });
    expect(record.request.num_shorts).toBe(2);

    const found = await api().listJobs({ search: "clientcheck", status: "pending", page_size: 5 });
    expect(found.items.map((j) => j.id)).toEqual([ack.id]);
    expect(found).toMatchObject({ page: 1, page_size: 5, total: 1, has_more: false });

    const estimate = await api().estimateJob(job({ model_preset: "director_finish", vod_length_hours: 2 }));
    // A claim above the real length (1 h) is billed as sent; the VOD is probed all the same.
    expect(estimate).toMatchObject({ credit_cost: 200 + 25, sufficient_credits: true, vod: { duration_seconds: 3600 } });
  });

  it("probes VODs", async () => {
    expect(await api().getVideoMetadata(vodUrl(FIXTURE_VODS.public))).toMatchObject({ vod_id: FIXTURE_VODS.public, usable: true, reason: null });
    expect(await api().getVideoMetadata(vodUrl(FIXTURE_VODS.private))).toMatchObject({ usable: false, reason: "private" });
  });

  it("throws ApiError with status, code, message and detail", async () => {
    const invalid = await thrown(api().createJob({ vod_url: "https://example.com/v/1", num_shorts: 11 }));
    expect({ status: invalid.status, code: invalid.code }).toEqual({ status: 422, code: "validation_failed" });
    expect(invalid.detail?.map((d) => d.field).sort()).toEqual(["num_shorts", "vod_url"]);
    expect(invalid.message).toMatch(/2 problems/);
    expect(invalid.requestId).toMatch(/^req_/);

    const missing = await thrown(api().getJob("job_does_not_exist"));
    expect([missing.status, missing.code]).toEqual([404, "job_not_found"]);

    const badKey = await thrown(clientFor("hk_live_wrong").listJobs());
    expect([badKey.status, badKey.code]).toEqual([401, "invalid_api_key"]);

    const poor = await createAccount({ credits: 10, purchase: true });
    const broke = await thrown(clientFor(poor.api_key).createJob(job()));
    expect([broke.status, broke.code, broke.body?.needed, broke.body?.available]).toEqual([402, "insufficient_credits", 65, 10]);

    const pending = await api().createJob(job());
    const early = await thrown(api().getResults(pending.id));
    expect([early.status, early.code, early.body?.status]).toEqual([409, "job_not_completed", "pending"]);
  });

  it("reports answers that are not the API's envelope as http_<status>", async () => {
    const proxy = createClient({ baseUrl: BASE, apiKey: "k", fetch: async () => new Response("<html>Bad gateway</html>", { status: 502, headers: { "Retry-After": "7" } }) });
    const error = await thrown(proxy.getPricing());
    expect({ status: error.status, code: error.code, retry: error.retryAfterSeconds, body: error.body }).toEqual({ status: 502, code: "http_502", retry: 7, body: null });
  });

  it("cancels, and a second cancel is a 400", async () => {
    const ack = await api().createJob(job());
    expect(await api().cancelJob(ack.id)).toEqual({ id: ack.id, status: "failed", refund_credits: ack.credit_cost });
    const again = await thrown(api().cancelJob(ack.id));
    expect([again.status, again.code, again.body?.status]).toEqual([400, "job_not_cancellable", "failed"]);
  });

  it("gets results, downloads the ZIP by token and by key, and sends feedback", async () => {
    const ack = await api().createJob(job(ACCEPTED));
    await completeWithFiles(ack.id);
    const results = await api().getResults(ack.id);
    expect(results.deliverables.map((d) => d.name)).toEqual([...Object.keys(STORED_FILES), "metadata.json", "manifest.json"]);

    const token = new URL(results.zip_url).searchParams.get("token")!;
    for (const res of [await clientFor(undefined).downloadAll(ack.id, { token }), await api().downloadAll(ack.id)]) {
      expect(res.headers.get("Content-Type")).toBe("application/zip");
      const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
      expect(Object.keys(files).sort()).toEqual(["manifest.json", "metadata.json", ...Object.keys(STORED_FILES)].sort());
      for (const [name, text] of Object.entries(STORED_FILES)) expect(strFromU8(files[name]!)).toBe(text);
    }
    const forged = await thrown(clientFor(undefined).downloadAll(ack.id, { token: `${token}x` }));
    expect([forged.status, forged.code]).toEqual([401, "invalid_token"]);

    await api().sendFeedback(ack.id, { positive: false, reason: "other", notes: "Second clip starts late." });
    const row = await env.DB.prepare("SELECT positive, reason, notes FROM job_feedback WHERE job_id = ?").bind(ack.id).first();
    expect(row).toEqual({ positive: 0, reason: "other", notes: "Second clip starts late." });
  });

  it("lists webhook deliveries and redelivers one", async () => {
    const box = await webhookBox();
    // The real queue starts its analysis on the renderer double: the job is running (job.running).
    const ack = await api().createJob(job({ webhook_url: box.url, ...ACCEPTED }));
    await analysisStart(ack.id);
    const first = await eventually(async () => {
      const log = await api().listWebhookDeliveries(ack.id);
      return log.deliveries[0]?.status === "delivered" && log;
    }, 10_000, "job.running delivered");
    expect(first).toMatchObject({ job_id: ack.id, webhook_url: box.url });

    const redelivery = await api().redeliverWebhook(ack.id, first.deliveries[0]!.id);
    expect(redelivery).toEqual({ id: expect.stringMatching(/^dlv_/), redelivery_of: first.deliveries[0]!.id, status: "pending" });
    const received = await eventually(async () => {
      const all = await box.received();
      return all.length >= 2 && all;
    }, 10_000, "the redelivery");
    expect(received[1]!.headers["x-service-event-id"]).toBe(received[0]!.headers["x-service-event-id"]);
    expect((await api().listWebhookDeliveries(ack.id)).deliveries.map((d) => d.redelivery_of)).toEqual([null, first.deliveries[0]!.id]);

    const missing = await thrown(api().redeliverWebhook(ack.id, "dlv_nope"));
    expect([missing.status, missing.code]).toEqual([404, "delivery_not_found"]);
  });
});

describe("waitForJob", { timeout: 30_000 }, () => {
  it("backs off while nothing changes, speeds up on change, reports progress and returns the completed job", async () => {
    // Handed to a renderer that has not reported yet: pending.
    const { ack, render } = await claimedJob(acct.api_key, job());
    const delays: number[] = [];
    const seen: Array<Pick<JobRecord, "status" | "progress" | "stage">> = [];
    // The "timer" moves the job along, so each poll sees what the renderer reported meanwhile.
    const steps = [
      () => taskEvent(render, { type: "started" }),
      () => taskEvent(render, { type: "progress", stage: "analysing", fraction: 0.5 }),
      async () => {},
      async () => {},
      async () => {},
      () => completeSmall(render),
    ];
    const done = await api().waitForJob(ack.id, {
      intervalMs: 100,
      maxIntervalMs: 300,
      backoff: 2,
      onProgress: (j) => void seen.push({ status: j.status, progress: j.progress, stage: j.stage }),
      sleep: async (ms) => {
        delays.push(ms);
        await steps[delays.length - 1]!();
      },
    });
    expect(done.status).toBe("completed");
    expect(delays).toEqual([100, 100, 100, 200, 300, 300]);
    expect(seen.map((s) => s.status)).toEqual(["pending", "running", "running", "completed"]);
    // The analysis owns the first 20 %: half of it is 10 %.
    expect(seen[2]).toMatchObject({ progress: 10, stage: "analysing" });
  });

  it("returns a failed job instead of throwing", async () => {
    const ack = await api().createJob(job());
    await api().cancelJob(ack.id);
    const done = await api().waitForJob(ack.id, { intervalMs: 10 });
    expect(done).toMatchObject({ status: "failed", error: { code: "cancelled_by_user" } });
  });

  it("gives up after timeoutMs with the last record", async () => {
    const ack = await api().createJob(job());
    const error = await api().waitForJob(ack.id, { intervalMs: 10, timeoutMs: 60 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError).lastJob?.status).toBe("pending");
  });

  it("stops when aborted", async () => {
    const ack = await api().createJob(job());
    const controller = new AbortController();
    const waiting = api().waitForJob(ack.id, { intervalMs: 10_000, signal: controller.signal, onProgress: () => controller.abort(new Error("stop")) });
    await expect(waiting).rejects.toThrow("stop");
  });

  it("does not retry a request error, only transient ones", async () => {
    expect((await thrown(api().waitForJob("job_nope", { intervalMs: 1 }))).code).toBe("job_not_found");
    let calls = 0;
    const flaky = createClient({
      baseUrl: BASE,
      apiKey: acct.api_key,
      fetch: async (request) => (++calls <= 2 ? new Response("", { status: 503 }) : workerFetch(request)),
    });
    const ack = await api().createJob(job());
    await api().cancelJob(ack.id);
    expect((await flaky.waitForJob(ack.id, { intervalMs: 1 })).status).toBe("failed");
    expect(calls).toBe(3);
  });
});
