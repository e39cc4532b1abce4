import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { verifyWebhook } from "../../common/client";
import { deliverWebhook } from "../../worker/src/webhooks/deliver";
import type { Delivery } from "../../worker/src/webhooks/outbox";
import { createAccount, expectError, get, minimalJob, post, type TestAccount } from "./helpers";
import { createJob, eventually, startedJob, webhookBox } from "./job-steps";
import { claimedJob, completeAtOnce } from "./drive-job";
import { completeJob, taskEvent } from "./task-flow";

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

/** Hex HMAC-SHA256 straight from Web Crypto (the receiver checks the same with node:crypto). */
async function hmacHex(secret: string, text: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return [...new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(text)))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

interface Body {
  event: string;
  payload: Record<string, unknown>;
}

async function deliveries(jobId: string, apiKey = acct.api_key): Promise<Delivery[]> {
  const res = await get(apiKey, `/jobs/${jobId}/webhooks`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { job_id: string; deliveries: Delivery[] };
  expect(body.job_id).toBe(jobId);
  return body.deliveries;
}

// Jobs played through the task path wait for the real queue, and retries for real backoff: more than the default 5 s under load.
describe("webhook events of a job's life", { timeout: 30_000 }, () => {
  it("job.running then job.completed, signed over the raw body with the account's secret", async () => {
    const box = await webhookBox({ secret: acct.webhook_signing_secret });
    const { ack, render } = await startedJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    await taskEvent(render, { type: "progress", stage: "analysing", fraction: 0.3 });
    await completeJob(render);

    const got = await eventually(async () => {
      const d = await box.received();
      return d.length >= 2 && d;
    }, 8000, "two deliveries");
    expect(got.map((d) => (JSON.parse(d.body) as Body).event)).toEqual(["job.running", "job.completed"]);
    for (const d of got) {
      // Checked by the receiver with node:crypto, and again here on the raw bytes.
      expect(d.signature_valid).toBe(true);
      expect(d.headers["x-service-signature"]).toBe(await hmacHex(acct.webhook_signing_secret, d.body));
      expect(d.headers["content-type"]).toBe("application/json");
      expect(d.headers["x-service-event"]).toBe((JSON.parse(d.body) as Body).event);
      expect(d.headers["x-service-delivery-attempt"]).toBe("1");
      const ts = d.headers["x-service-timestamp"]!;
      expect(d.headers["x-service-signature-timestamped"]).toBe(`t=${ts},v1=${await hmacHex(acct.webhook_signing_secret, `${ts}.${d.body}`)}`);
      // Standard Webhooks, checked by the receiver with node:crypto from the specification, and by the project's
      // verifier from the headers alone; webhook-id is the event id.
      expect(d.standard_signature_valid).toBe(true);
      expect(d.headers["webhook-id"]).toBe(d.headers["x-service-event-id"]);
      expect(d.headers["webhook-timestamp"]).toBe(ts);
      expect(d.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(await verifyWebhook({ rawBody: d.body, secret: acct.webhook_signing_secret, headers: d.headers, toleranceSeconds: 600 })).toEqual({ ok: true, timestamp: Number(ts) });
      const standardOnly = { "webhook-id": d.headers["webhook-id"]!, "webhook-timestamp": ts, "webhook-signature": d.headers["webhook-signature"]! };
      expect(await verifyWebhook({ rawBody: d.body, secret: acct.webhook_signing_secret, headers: standardOnly })).toEqual({ ok: true, timestamp: Number(ts) });
      expect(await verifyWebhook({ rawBody: `${d.body} `, secret: acct.webhook_signing_secret, headers: standardOnly })).toEqual({ ok: false, reason: "signature_mismatch" });
    }
    const running = JSON.parse(got[0]!.body) as Body;
    expect(running.payload).toEqual({ job_id: ack.id, status: "running", started_at: expect.any(String), stage: null, progress: 0 });

    const completed = JSON.parse(got[1]!.body) as Body;
    const results = (await (await get(acct.api_key, `/jobs/${ack.id}/results`)).json()) as Record<string, unknown>;
    expect(Object.keys(completed.payload).sort()).toEqual(["deliverables", "job_id", "links_expire_at", "manifest", "refunded_credits", "status", "zip_url"]);
    expect(completed.payload.job_id).toBe(ack.id);
    // Identical to the results list, apart from the signatures of the (freshly signed) links.
    const strip = (x: unknown) => JSON.parse(JSON.stringify(x).replace(/(sig|token)=[^"&]+/g, "$1=…").replace(/expires=\d+/g, "expires=…"));
    expect(strip(completed.payload.deliverables)).toEqual(strip(results.deliverables));
    expect(strip(completed.payload.manifest)).toEqual(strip(results.manifest));
    expect(String(completed.payload.zip_url)).toMatch(new RegExp(`^https://api\\.test/jobs/${ack.id}/download-all\\?token=`));

    const log = await deliveries(ack.id);
    expect(log.map((d) => [d.event, d.status, d.attempts.length, d.attempts[0]?.status_code])).toEqual([
      ["job.running", "delivered", 1, 200],
      ["job.completed", "delivered", 1, 200],
    ]);
  });

  it("job.failed on cancel: human message, code and refunded credits", async () => {
    const box = await webhookBox({ secret: acct.webhook_signing_secret });
    const { ack } = await startedJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    const cancel = (await (await post(acct.api_key, `/jobs/${ack.id}/cancel`)).json()) as { refund_credits: number };
    const got = await eventually(async () => {
      const d = await box.received();
      return d.length >= 2 && d;
    }, 8000, "job.failed");
    const failed = JSON.parse(got[1]!.body) as Body;
    expect(failed).toEqual({
      event: "job.failed",
      payload: { job_id: ack.id, status: "failed", error: "Cancelled by user", error_code: "cancelled_by_user", refunded_credits: cancel.refund_credits },
    });
    expect(got[1]!.signature_valid).toBe(true);
  });

  it("a job cancelled while pending sends job.failed only", async () => {
    const box = await webhookBox({ secret: acct.webhook_signing_secret });
    const { ack } = await createJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    await post(acct.api_key, `/jobs/${ack.id}/cancel`);
    const got = await eventually(async () => {
      const d = await box.received();
      return d.length >= 1 && d;
    });
    await new Promise((r) => setTimeout(r, 200));
    expect((await box.received()).map((d) => (JSON.parse(d.body) as Body).event)).toEqual(["job.failed"]);
    expect((JSON.parse(got[0]!.body) as Body).payload.refunded_credits).toBe(ack.credit_cost);
  });

  it("a completion straight from pending sends job.running once, before job.completed", async () => {
    const box = await webhookBox({ secret: acct.webhook_signing_secret });
    // The renderer's first report, before the start was confirmed, is the analysis' result with nothing to render.
    const { render } = await claimedJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    await completeAtOnce(render);
    const got = await eventually(async () => {
      const d = await box.received();
      return d.length >= 2 && d;
    });
    await new Promise((r) => setTimeout(r, 200));
    expect((await box.received()).map((d) => (JSON.parse(d.body) as Body).event)).toEqual(["job.running", "job.completed"]);
    expect(got.every((d) => d.signature_valid)).toBe(true);
  });

  it("a job without webhook_url sends nothing and lists no deliveries", async () => {
    const { ack, render } = await startedJob(acct.api_key);
    await taskEvent(render, { type: "failed", retryable: false, error: { code: "render_failed", message: "FFmpeg could not decode the VOD." } });
    expect(await deliveries(ack.id)).toEqual([]);
  });
});

// Each waits for real backoff (0.1 s, 0.4 s, 1.6 s): run side by side.
describe.concurrent("retries", { timeout: 30_000 }, () => {
  it("a receiver answering 500 gets 1 + 3 attempts with growing delays, then the delivery is failed", async () => {
    const box = await webhookBox({ status: 500, secret: acct.webhook_signing_secret });
    const { ack } = await createJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    await post(acct.api_key, `/jobs/${ack.id}/cancel`);
    // WEBHOOK_RETRY_BASE_SECONDS is 0.1 in the tests: retries after 0.1 s, 0.4 s and 1.6 s.
    const log = await eventually(async () => {
      const d = await deliveries(ack.id);
      return d[0]?.status === "failed" && d;
    }, 10_000, "the delivery to fail");
    const got = await box.received();
    expect(got).toHaveLength(4);
    expect(got.map((d) => d.headers["x-service-delivery-attempt"])).toEqual(["1", "2", "3", "4"]);
    // Every attempt is the same event, signed the same way, with the same event id.
    expect(new Set(got.map((d) => d.body)).size).toBe(1);
    expect(new Set(got.map((d) => d.headers["x-service-event-id"])).size).toBe(1);
    expect(got.every((d) => d.signature_valid)).toBe(true);
    const gaps = got.slice(1).map((d, i) => d.at - got[i]!.at);
    expect(gaps[0]).toBeGreaterThanOrEqual(90);
    expect(gaps[1]).toBeGreaterThanOrEqual(390);
    expect(gaps[2]).toBeGreaterThanOrEqual(1590);
    expect(gaps[2]).toBeGreaterThan(gaps[1]!);

    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ event: "job.failed", status: "failed", next_attempt_at: null, url: box.url });
    expect(log[0]!.attempts.map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 500, "HTTP 500"],
      [2, 500, "HTTP 500"],
      [3, 500, "HTTP 500"],
      [4, 500, "HTTP 500"],
    ]);
  });

  it("a receiver that recovers gets the delivery on a retry", async () => {
    const box = await webhookBox({ status: 503, secret: acct.webhook_signing_secret });
    const { ack } = await createJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    await post(acct.api_key, `/jobs/${ack.id}/cancel`);
    await eventually(async () => (await box.received()).length >= 1);
    await box.configure({ status: 204, secret: acct.webhook_signing_secret });
    const log = await eventually(async () => {
      const d = await deliveries(ack.id);
      return d[0]?.status === "delivered" && d;
    }, 10_000, "the delivery to succeed");
    expect(log[0]!.attempts.map((a) => a.status_code)).toEqual([...Array(log[0]!.attempts.length - 1).fill(503), 204]);
  });

  it("redirects are not followed: a 302 counts as a failed attempt", async () => {
    const box = await webhookBox({ status: 302 });
    const moved = `${box.name}-moved`;
    const { ack } = await createJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    await post(acct.api_key, `/jobs/${ack.id}/cancel`);
    const log = await eventually(async () => {
      const d = await deliveries(ack.id);
      return d[0]?.status === "failed" && d;
    }, 10_000, "the delivery to fail");
    expect(log[0]!.attempts.every((a) => a.status_code === 302)).toBe(true);
    const target = await (await fetch(`${box.url.replace(/\/hooks\/.*/, "")}/__test/boxes/${moved}`)).json() as { deliveries: unknown[] };
    expect(target.deliveries).toEqual([]);
  });

  it("an unreachable receiver is recorded as an error without a status code", async () => {
    const { ack } = await createJob(acct.api_key, minimalJob({ webhook_url: "http://127.0.0.1:9/hook" }));
    await post(acct.api_key, `/jobs/${ack.id}/cancel`);
    const log = await eventually(async () => {
      const d = await deliveries(ack.id);
      return d[0]?.status === "failed" && d;
    }, 10_000, "the delivery to fail");
    expect(log[0]!.attempts).toHaveLength(4);
    // A category, never the network library's text (which would tell whether a port is open).
    expect(log[0]!.attempts.map((a) => [a.status_code, a.error])).toEqual(Array(4).fill([null, "connection failed: the receiver could not be reached"]));
  });

  it("does not send to a URL that is no longer allowed when the attempt is made (loopback without the setting)", async () => {
    const box = await webhookBox();
    const { ack } = await createJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    // The same delivery, run by the job's alarm in a deployment without WEBHOOK_ALLOW_LOOPBACK.
    const sent = await deliverWebhook({ ...env, WEBHOOK_ALLOW_LOOPBACK: undefined }, { job_id: ack.id, account_id: acct.account_id }, {
      id: "dlv_test", event_id: "evt_test", event: "job.running", url: box.url, body: "{}", attempt: 1,
    });
    expect(sent).toEqual({ status_code: null, error: "refused: the URL does not point to a public internet address", duration_ms: 0 });
    expect(await box.received()).toEqual([]);
  });
});

describe("GET /jobs/{id}/webhooks and redelivery", () => {
  let jobId: string;
  let box: Awaited<ReturnType<typeof webhookBox>>;
  beforeAll(async () => {
    box = await webhookBox({ secret: acct.webhook_signing_secret });
    const { ack } = await createJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    jobId = ack.id;
    await post(acct.api_key, `/jobs/${jobId}/cancel`);
    await eventually(async () => (await deliveries(jobId))[0]?.status === "delivered");
  });

  it("redelivers an event as a new delivery with the same event id (202)", async () => {
    const [original] = await deliveries(jobId);
    const res = await post(acct.api_key, `/jobs/${jobId}/webhooks/${original!.id}/redeliver`);
    expect(res.status).toBe(202);
    const created = (await res.json()) as { id: string; redelivery_of: string; status: string };
    expect(created).toEqual({ id: expect.stringMatching(/^dlv_/), redelivery_of: original!.id, status: "pending" });
    const got = await eventually(async () => {
      const d = await box.received();
      return d.length >= 2 && d;
    });
    expect(got[1]!.body).toBe(got[0]!.body);
    expect(got[1]!.headers["x-service-event-id"]).toBe(got[0]!.headers["x-service-event-id"]);
    expect(got[1]!.headers["x-service-delivery-id"]).toBe(created.id);
    expect(got[1]!.signature_valid).toBe(true);
    const log = await eventually(async () => {
      const d = await deliveries(jobId);
      return d[1]?.status === "delivered" && d;
    });
    expect(log[1]).toMatchObject({ id: created.id, redelivery_of: original!.id, event_id: original!.event_id });
  });

  it("limits redeliveries to 5 per event per hour (429 with Retry-After), counting redeliveries of redeliveries too", async () => {
    const b = await webhookBox();
    const { ack } = await createJob(acct.api_key, minimalJob({ webhook_url: b.url }));
    await post(acct.api_key, `/jobs/${ack.id}/cancel`);
    const [original] = await eventually(async () => {
      const d = await deliveries(ack.id);
      return d[0]?.status === "delivered" && d;
    });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      // Alternate between the original and the newest redelivery: both count for the one event.
      const target = i % 2 === 0 || ids.length === 0 ? original!.id : ids[ids.length - 1]!;
      const res = await post(acct.api_key, `/jobs/${ack.id}/webhooks/${target}/redeliver`);
      expect(res.status).toBe(202);
      ids.push(((await res.json()) as { id: string }).id);
    }
    for (const target of [original!.id, ids[4]!]) {
      const limited = await post(acct.api_key, `/jobs/${ack.id}/webhooks/${target}/redeliver`);
      const err = await expectError(limited, 429, "rate_limited");
      const retryAfter = Number(limited.headers.get("Retry-After"));
      expect(retryAfter).toBeGreaterThan(3000);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(err.retry_after_seconds).toBe(retryAfter);
    }
    // Five redeliveries went out (plus the original), not more.
    await eventually(async () => (await deliveries(ack.id)).every((d) => d.status === "delivered"));
    expect((await deliveries(ack.id)).length).toBe(6);
  });

  it("answers 404 for an unknown delivery, another account's job, and 401 without a key", async () => {
    await expectError(await post(acct.api_key, `/jobs/${jobId}/webhooks/dlv_nope/redeliver`), 404, "delivery_not_found");
    const other = await createAccount();
    await expectError(await get(other.api_key, `/jobs/${jobId}/webhooks`), 404, "job_not_found");
    const [d] = await deliveries(jobId);
    await expectError(await post(other.api_key, `/jobs/${jobId}/webhooks/${d!.id}/redeliver`), 404, "job_not_found");
    await expectError(await get("", `/jobs/${jobId}/webhooks`), 401, "missing_api_key");
  });
});
