import { env, exports } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createClient } from "../../common/client";
import type { JobAck } from "../../common/contract";
import type { Env, JobQueueMessage } from "../../worker/src/env";
import { openDb } from "../../worker/src/storage/db";
import { deleteExpiredIdempotencyKeys, IDEMPOTENCY_WINDOW_MS } from "../../worker/src/storage/idempotency";
import { accountCredits, admin, BASE, createAccount, expect422, expectError, FIXTURE_VODS, minimalJob, nextIp, vodUrl, type TestAccount } from "./helpers";
import { callWithEnv } from "./job-steps";

/** Idempotency-Key on POST /jobs (issue 15, item 8): a retried creation never makes or bills a second job. */

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

/** A queue that records what it is sent (no real delivery races the test). */
function capturingQueue(): { queue: Queue<JobQueueMessage>; sent: JobQueueMessage[] } {
  const sent: JobQueueMessage[] = [];
  return { sent, queue: { send: async (m: JobQueueMessage) => void sent.push(m) } as unknown as Queue<JobQueueMessage> };
}

function postWithKey(key: string | null, body: unknown, overrides: Partial<Env> = {}, apiKey = acct.api_key): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json", "X-API-Key": apiKey, "CF-Connecting-IP": nextIp() };
  if (key !== null) headers["Idempotency-Key"] = key;
  return callWithEnv(overrides, "/jobs", { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
}

async function reserves(accountId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM credit_ledger WHERE account_id = ? AND kind = 'reserve'").bind(accountId).first<{ n: number }>();
  return row!.n;
}

describe("POST /jobs with Idempotency-Key", () => {
  it("the same key and body again returns the original answer (same job, status and bytes) without reserving again", async () => {
    const a = await createAccount({ plan: "pro", credits: 1000, purchase: true });
    const { queue, sent } = capturingQueue();
    const key = crypto.randomUUID();
    const first = await postWithKey(key, minimalJob({ num_shorts: 1 }), { JOBS_QUEUE: queue }, a.api_key);
    expect(first.status).toBe(202);
    const firstText = await first.text();
    const ack = JSON.parse(firstText) as JobAck;
    expect(await accountCredits(a.account_id)).toBe(1000 - ack.credit_cost);

    // The same body with its keys in another order and other spacing is the same request.
    const body = JSON.stringify({ num_shorts: 1, vod_length_hours: 1, vod_url: minimalJob().vod_url }, null, 2);
    for (let i = 0; i < 3; i++) {
      const again = await postWithKey(key, body, { JOBS_QUEUE: queue }, a.api_key);
      expect(again.status).toBe(202);
      expect(again.headers.get("Idempotent-Replayed")).toBe("true");
      expect(again.headers.get("Location")).toBe(`/jobs/${ack.id}`);
      expect(await again.text()).toBe(firstText);
    }
    expect(await accountCredits(a.account_id)).toBe(1000 - ack.credit_cost);
    expect(await reserves(a.account_id)).toBe(1);
    expect(sent).toEqual([{ job_id: ack.id }]);
    // Without a key every request is a new job.
    const plain1 = (await (await postWithKey(null, minimalJob(), { JOBS_QUEUE: queue }, a.api_key)).json()) as JobAck;
    const plain2 = (await (await postWithKey(null, minimalJob(), { JOBS_QUEUE: queue }, a.api_key)).json()) as JobAck;
    expect(new Set([ack.id, plain1.id, plain2.id]).size).toBe(3);
  });

  it("the same key with another body is 422 and creates nothing", async () => {
    const key = `order-${crypto.randomUUID()}`;
    expect((await postWithKey(key, minimalJob())).status).toBe(202);
    const before = await accountCredits(acct.account_id);
    const err = await expectError(await postWithKey(key, minimalJob({ num_shorts: 2 })), 422, "idempotency_key_reused");
    expect(err.message).toMatch(/different request body/);
    // Every 422 names its field in detail (it used to have none), inside error and at the top level.
    const detail = [{ field: "Idempotency-Key", message: "was already used with a different request body in the last 24 hours; use a new key for a new job" }];
    expect(err.detail).toEqual(detail);
    const again = (await (await postWithKey(key, minimalJob({ num_shorts: 2 }))).json()) as { detail: unknown };
    expect(again.detail).toEqual(detail);
    expect(await accountCredits(acct.account_id)).toBe(before);
    // Keys belong to an account: another account may use the same key for its own job.
    const other = await createAccount({ plan: "pro", credits: 1000, purchase: true });
    const theirs = await postWithKey(key, minimalJob({ num_shorts: 2 }), {}, other.api_key);
    expect(theirs.status).toBe(202);
  });

  it("concurrent requests with one key create one job and reserve once", async () => {
    const a = await createAccount({ plan: "pro", credits: 10_000, purchase: true });
    const { queue, sent } = capturingQueue();
    const key = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 6 }, () => postWithKey(key, minimalJob({ num_shorts: 3 }), { JOBS_QUEUE: queue }, a.api_key)));
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(202));
    expect(new Set(bodies).size).toBe(1);
    const ack = JSON.parse(bodies[0]!) as JobAck;
    const jobs = await env.DB.prepare("SELECT id FROM jobs WHERE account_id = ?").bind(a.account_id).all<{ id: string }>();
    expect(jobs.results.map((r) => r.id)).toEqual([ack.id]);
    expect(await reserves(a.account_id)).toBe(1);
    expect(await accountCredits(a.account_id)).toBe(10_000 - ack.credit_cost);
    expect(sent).toEqual([{ job_id: ack.id }]);
  });

  describe("one of two concurrent requests fails while the other creates the job", () => {
    // Without vod_length_hours the job needs the Twitch probe; the failing request's Twitch answers 404.
    const probed = () => ({ vod_url: vodUrl(FIXTURE_VODS.hour), num_shorts: 1 });
    const noTwitch = { TWITCH_GQL_URL: `${env.TWITCH_USHER_URL}/no-gql-here` };
    const jobsOf = async (accountId: string) =>
      (await env.DB.prepare("SELECT id FROM jobs WHERE account_id = ?").bind(accountId).all<{ id: string }>()).results.map((r) => r.id);
    afterEach(() => void vi.restoreAllMocks());

    it("a failure after the other request created the job keeps the key on that job", async () => {
      const a = await createAccount({ plan: "pro", credits: 10_000, purchase: true });
      const key = crypto.randomUUID();
      let failed: Response | undefined;
      // The winner has created the job and is queueing it when the other request with the key fails.
      const gated = {
        send: async () => {
          failed = await postWithKey(key, probed(), noTwitch, a.api_key);
        },
      } as unknown as Queue<JobQueueMessage>;
      const winner = await postWithKey(key, probed(), { JOBS_QUEUE: gated }, a.api_key);
      expect(winner.status).toBe(202);
      expect(failed!.status).toBe(422);
      const ack = (await winner.json()) as JobAck;

      const retry = await postWithKey(key, probed(), {}, a.api_key);
      expect(retry.status).toBe(202);
      expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
      expect(((await retry.json()) as JobAck).id).toBe(ack.id);
      expect(await jobsOf(a.account_id)).toEqual([ack.id]);
      expect(await reserves(a.account_id)).toBe(1);
    });

    it("a failure before the other request created the job moves that request to a fresh claim", async () => {
      const a = await createAccount({ plan: "pro", credits: 10_000, purchase: true });
      const key = crypto.randomUUID();
      // Order the two requests through their Twitch probes (real requests to the local Twitch server): the failing
      // one fails once the other has claimed the key, and the other probes only after the failure has answered.
      let otherClaimed!: () => void;
      const claimed = new Promise<void>((resolve) => (otherClaimed = resolve));
      let failureAnswered!: () => void;
      const answered = new Promise<void>((resolve) => (failureAnswered = resolve));
      const realFetch = globalThis.fetch;
      vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        if (url.includes("/no-gql-here")) await claimed;
        else if (url.startsWith(env.TWITCH_GQL_URL)) {
          otherClaimed();
          await answered;
        }
        return realFetch(input, init);
      });
      const { queue, sent } = capturingQueue();
      const failing = postWithKey(key, probed(), noTwitch, a.api_key).then((r) => (failureAnswered(), r));
      const other = postWithKey(key, probed(), { JOBS_QUEUE: queue }, a.api_key);
      expect((await failing).status).toBe(422);
      const winner = await other;
      expect(winner.status).toBe(202);
      const ack = (await winner.json()) as JobAck;
      vi.restoreAllMocks();

      const retry = await postWithKey(key, probed(), {}, a.api_key);
      expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
      expect(((await retry.json()) as JobAck).id).toBe(ack.id);
      expect(await jobsOf(a.account_id)).toEqual([ack.id]);
      expect(sent).toEqual([{ job_id: ack.id }]);
      expect(await reserves(a.account_id)).toBe(1);
    });
  });

  it("an answer without a job (422, 402, queue down) frees the key for a corrected retry", async () => {
    const poor = await createAccount({ plan: "pro", credits: 10, purchase: true });
    const key = crypto.randomUUID();
    await expectError(await postWithKey(key, minimalJob(), {}, poor.api_key), 402, "insufficient_credits");
    expect((await admin("POST", `/accounts/${poor.account_id}/credits`, { amount: 100 })).status).toBe(200);
    const ok = await postWithKey(key, minimalJob(), {}, poor.api_key);
    expect(ok.status).toBe(202);
    expect(ok.headers.get("Idempotent-Replayed")).toBeNull();

    const key2 = crypto.randomUUID();
    const broken = { send: async () => { throw new Error("queue down"); } } as unknown as Queue<JobQueueMessage>;
    await expectError(await postWithKey(key2, minimalJob(), { JOBS_QUEUE: broken }), 503, "service_unavailable");
    const { queue, sent } = capturingQueue();
    const retried = await postWithKey(key2, minimalJob(), { JOBS_QUEUE: queue });
    expect(retried.status).toBe(202);
    expect(sent).toHaveLength(1);

    const key3 = crypto.randomUUID();
    await expect422(await postWithKey(key3, { vod_url: "nope" }));
    expect((await postWithKey(key3, minimalJob())).status).toBe(202);
  });

  it("a key is remembered for 24 hours; an older one starts afresh", async () => {
    const key = crypto.randomUUID();
    const first = (await (await postWithKey(key, minimalJob())).json()) as JobAck;
    await env.DB.prepare("UPDATE idempotency_keys SET created_at = ? WHERE account_id = ? AND idempotency_key = ?")
      .bind(new Date(Date.now() - IDEMPOTENCY_WINDOW_MS - 1000).toISOString(), acct.account_id, key)
      .run();
    const second = (await (await postWithKey(key, minimalJob({ num_shorts: 1 }))).json()) as JobAck;
    expect(second.id).not.toBe(first.id);
  });

  it("the hourly sweep forgets keys older than 24 hours and keeps the others", async () => {
    const key = crypto.randomUUID();
    expect((await postWithKey(key, minimalJob())).status).toBe(202);
    const count = async () => (await env.DB.prepare("SELECT count(*) AS n FROM idempotency_keys WHERE idempotency_key = ?").bind(key).first<{ n: number }>())!.n;
    await deleteExpiredIdempotencyKeys(openDb(env.DB), Date.now());
    expect(await count()).toBe(1);
    await deleteExpiredIdempotencyKeys(openDb(env.DB), Date.now() + IDEMPOTENCY_WINDOW_MS + 1000);
    expect(await count()).toBe(0);
  });

  it("refuses a malformed key with 422 naming the header", async () => {
    for (const bad of ["", " ", "x".repeat(256), "ключ", "has space"]) {
      const detail = await expect422(await postWithKey(bad, minimalJob()));
      expect([bad, [...detail.keys()]]).toEqual([bad, ["Idempotency-Key"]]);
    }
  });
});

const clientJob = () => ({ vod_url: vodUrl(FIXTURE_VODS.hour), vod_length_hours: 1 });

describe("typed client", () => {
  it("sends an Idempotency-Key by default and retries a lost answer with it: one job, one reservation", async () => {
    const a = await createAccount({ plan: "pro", credits: 1000, purchase: true });
    const seen: (string | null)[] = [];
    let lose = 1;
    const client = createClient({
      baseUrl: BASE,
      apiKey: a.api_key,
      headers: { "CF-Connecting-IP": nextIp() },
      fetch: async (request) => {
        seen.push(request.headers.get("Idempotency-Key"));
        const res = await exports.default.fetch(request);
        // The Worker answered, but the answer never reaches the client (a dropped connection).
        if (lose-- > 0) throw new TypeError("fetch failed: connection reset");
        return res;
      },
    });
    const ack = await client.createJob(clientJob());
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]).toBe(seen[0]);
    expect(await reserves(a.account_id)).toBe(1);
    expect(await accountCredits(a.account_id)).toBe(1000 - ack.credit_cost);
    // Each call has its own key; a caller's own key is sent as given.
    await client.createJob(clientJob());
    await client.createJob(clientJob(), { idempotencyKey: "my-order-42" });
    expect(new Set(seen).size).toBe(3);
    expect(seen.at(-1)).toBe("my-order-42");
  });
});
