import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobResults } from "../../common/contract";
import { publishResults, type StoredResult } from "../../worker/src/artifacts/results";
import type { Delivery } from "../../worker/src/webhooks/outbox";
import { call, createAccount, expectError, get, minimalJob, post, type TestAccount } from "./helpers";
import { eventually, jobState, sameBytes, startedJob, webhookBox, type RenderedFile } from "./job-steps";
import { completeJob } from "./task-flow";
import type { ReceivedDelivery } from "./doubles-protocol";

/**
 * job.completed carries signed links that expire (LINK_TTL_SECONDS). Retries and redeliveries may go out long
 * after the event was created, so every attempt re-signs them: same event id and body shape, fresh expiry, and
 * the signatures cover the body actually sent.
 */

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

interface CompletedBody {
  event: "job.completed";
  payload: JobResults;
}

const path = (url: string) => url.replace(/^https:\/\/api\.test/, "");
const nowSec = () => Math.floor(Date.now() / 1000);

async function hmacHex(secret: string, text: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return [...new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(text)))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Signed over the exact bytes received, plain and timestamped. */
async function expectSignedBody(d: ReceivedDelivery): Promise<void> {
  expect(d.signature_valid).toBe(true);
  expect(d.headers["x-service-signature"]).toBe(await hmacHex(acct.webhook_signing_secret, d.body));
  const ts = d.headers["x-service-timestamp"]!;
  expect(d.headers["x-service-signature-timestamped"]).toBe(`t=${ts},v1=${await hmacHex(acct.webhook_signing_secret, `${ts}.${d.body}`)}`);
}

/** Every link of one payload expires at its links_expire_at. */
function expectLinksExpireAt(p: JobResults): number {
  const exp = Date.parse(p.links_expire_at) / 1000;
  for (const d of p.deliverables) expect(new URL(d.url).searchParams.get("expires")).toBe(String(exp));
  expect(new URL(p.zip_url).searchParams.get("token")!.split(".")[0]).toBe(String(exp));
  return exp;
}

/** Structure of a payload with the link signatures and expiries blanked. */
const shape = (p: JobResults) =>
  JSON.parse(JSON.stringify(p).replace(/(sig|token)=[^"&]+/g, "$1=…").replace(/expires=\d+/g, "expires=…").replace(/"links_expire_at":"[^"]+"/, '"links_expire_at":"…"'));

const completedOf = (got: ReceivedDelivery[]) => got.filter((d) => d.headers["x-service-event"] === "job.completed");

async function deliveries(jobId: string): Promise<Delivery[]> {
  const res = await get(acct.api_key, `/jobs/${jobId}/webhooks`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { deliveries: Delivery[] }).deliveries;
}

describe("job.completed links are signed when each attempt is sent", { timeout: 60_000 }, () => {
  it("retries carry freshly signed links, each attempt signed over its own body", async () => {
    const box = await webhookBox({ status: 500, secret: acct.webhook_signing_secret });
    const { ack, render } = await startedJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    await completeJob(render);
    // WEBHOOK_RETRY_BASE_SECONDS is 0.1: attempts after 0.1 s, 0.4 s and 1.6 s, so the 4th is > 2 s after the 1st.
    const log = await eventually(async () => {
      const d = (await deliveries(ack.id)).find((x) => x.event === "job.completed");
      return d?.status === "failed" && d;
    }, 12_000, "the job.completed delivery to fail");
    expect(log.attempts).toHaveLength(4);

    const got = completedOf(await box.received());
    expect(got).toHaveLength(4);
    expect(new Set(got.map((d) => d.headers["x-service-event-id"]))).toEqual(new Set([log.event_id]));
    expect(got.map((d) => d.headers["x-service-delivery-attempt"])).toEqual(["1", "2", "3", "4"]);
    const bodies = got.map((d) => JSON.parse(d.body) as CompletedBody);
    const expiries: number[] = [];
    for (const [i, d] of got.entries()) {
      await expectSignedBody(d);
      expect(bodies[i]!.event).toBe("job.completed");
      expect(shape(bodies[i]!.payload)).toEqual(shape(bodies[0]!.payload));
      expiries.push(expectLinksExpireAt(bodies[i]!.payload));
    }
    // The last attempt was signed more than 2 s after the first: its links expire later.
    expect(expiries[3]!).toBeGreaterThan(expiries[0]!);
    expect(new Set(got.map((d) => d.body)).size).toBeGreaterThan(1);
  });

  describe("redelivery of an event whose links have expired", () => {
    let jobId: string;
    let files: RenderedFile[];
    let box: Awaited<ReturnType<typeof webhookBox>>;
    let original: Delivery;
    let staleBody: CompletedBody;

    beforeAll(async () => {
      box = await webhookBox({ secret: acct.webhook_signing_secret });
      const started = await startedJob(acct.api_key, minimalJob({ webhook_url: box.url }));
      jobId = started.ack.id;
      ({ files } = await completeJob(started.render));
      original = await eventually(async () => {
        const d = (await deliveries(jobId)).find((x) => x.event === "job.completed");
        return d?.status === "delivered" && d;
      }, 8000, "job.completed");

      // Two days pass: the stored event's links (signed at completion, 24 h) have expired. Simulated by storing
      // the body as it would have been signed two days ago.
      const row = await env.DB.prepare("SELECT result_json, artifacts_expires_at, refunded_credits FROM jobs WHERE id = ?").bind(jobId).first<{ result_json: string; artifacts_expires_at: string; refunded_credits: number }>();
      const stale = await publishResults(
        { LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! },
        "https://api.test",
        { id: jobId, artifacts_expires_at: row!.artifacts_expires_at, refunded_credits: row!.refunded_credits },
        JSON.parse(row!.result_json) as StoredResult,
        Date.now() - 2 * 86400_000,
      );
      staleBody = { event: "job.completed", payload: stale };
      await runInDurableObject(jobState(jobId), async (_instance, state) => {
        state.storage.sql.exec(`UPDATE webhook_deliveries SET body = ? WHERE id = ?`, JSON.stringify(staleBody), original.id);
      });
      // The stored links really are dead now.
      await expectError(await call(path(staleBody.payload.deliverables[0]!.url)), 403, "link_expired");
      await expectError(await call(path(staleBody.payload.zip_url)), 403, "link_expired");
    });

    it("sends the same event (same id and shape) with links that work again", async () => {
      const res = await post(acct.api_key, `/jobs/${jobId}/webhooks/${original.id}/redeliver`);
      expect(res.status).toBe(202);
      const created = (await res.json()) as { id: string };
      const redelivered = await eventually(async () => (await box.received()).find((d) => d.headers["x-service-delivery-id"] === created.id), 8000, "the redelivery");

      await expectSignedBody(redelivered);
      expect(redelivered.headers["x-service-event-id"]).toBe(original.event_id);
      expect(redelivered.headers["x-service-event"]).toBe("job.completed");
      const body = JSON.parse(redelivered.body) as CompletedBody;
      expect(body.event).toBe("job.completed");
      expect(shape(body.payload)).toEqual(shape(staleBody.payload));

      // Fresh expiry: about LINK_TTL_SECONDS (24 h) from now, on every link.
      const exp = expectLinksExpireAt(body.payload);
      expect(exp).toBeGreaterThan(nowSec() + 23 * 3600);
      // The links serve the files again, without an API key.
      for (const d of body.payload.deliverables) {
        const file = await call(path(d.url));
        expect(file.status).toBe(200);
        expect(sameBytes(new Uint8Array(await file.arrayBuffer()), files.find((f) => f.ref.name === d.name)!.bytes)).toBe(true);
      }
      for (const a of body.payload.manifest.artifacts.assets.shorts) {
        const file = await call(path(a.url!));
        expect(file.status).toBe(200);
        await file.body?.cancel();
      }
      const zip = await call(path(body.payload.zip_url));
      expect(zip.status).toBe(200);
      expect(zip.headers.get("content-type")).toBe("application/zip");
      await zip.body?.cancel();
    });
  });

  it("job.failed is not rebuilt: a redelivery sends the stored body byte for byte", async () => {
    const box = await webhookBox({ secret: acct.webhook_signing_secret });
    const { ack } = await startedJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    await post(acct.api_key, `/jobs/${ack.id}/cancel`);
    const failed = await eventually(async () => {
      const d = (await deliveries(ack.id)).find((x) => x.event === "job.failed");
      return d?.status === "delivered" && d;
    });
    const res = await post(acct.api_key, `/jobs/${ack.id}/webhooks/${failed.id}/redeliver`);
    const created = (await res.json()) as { id: string };
    const got = await eventually(async () => {
      const d = (await box.received()).filter((x) => x.headers["x-service-event"] === "job.failed");
      return d.length >= 2 && d;
    });
    expect(got[1]!.headers["x-service-delivery-id"]).toBe(created.id);
    expect(got[1]!.body).toBe(got[0]!.body);
    await expectSignedBody(got[1]!);
  });

  it("after the retention sweep deleted the files, the stored body is sent (nothing to re-sign)", async () => {
    const box = await webhookBox({ secret: acct.webhook_signing_secret });
    const { ack, render } = await startedJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    await completeJob(render);
    const original = await eventually(async () => {
      const d = (await deliveries(ack.id)).find((x) => x.event === "job.completed");
      return d?.status === "delivered" && d;
    });
    await env.DB.prepare("UPDATE jobs SET artifacts_deleted_at = ? WHERE id = ?").bind(new Date().toISOString(), ack.id).run();
    // The stored body, marked so that a rebuilt one could never equal it.
    const stored = await runInDurableObject(jobState(ack.id), async (_instance, state) => {
      const body = JSON.parse(state.storage.sql.exec<{ body: string }>(`SELECT body FROM webhook_deliveries WHERE id = ?`, original.id).one().body) as { payload: { zip_url: string } };
      body.payload.zip_url = "https://api.test/stored-body-marker";
      const text = JSON.stringify(body);
      state.storage.sql.exec(`UPDATE webhook_deliveries SET body = ? WHERE id = ?`, text, original.id);
      return text;
    });
    const res = await post(acct.api_key, `/jobs/${ack.id}/webhooks/${original.id}/redeliver`);
    const created = (await res.json()) as { id: string };
    const again = await eventually(async () => (await box.received()).find((d) => d.headers["x-service-delivery-id"] === created.id));
    expect(again.body).toBe(stored);
    await expectSignedBody(again);
  });
});
