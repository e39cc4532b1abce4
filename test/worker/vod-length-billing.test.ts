import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { JobAck } from "../../common/contract";
import type { JobPlan, RenderTaskRequest } from "../../common/contract/job-plan";
import type { JobLifecycle } from "../../worker/src/orchestration/job-lifecycle";
import { accountCredits, createAccount, FIXTURE_VODS, get, vodUrl, type TestAccount } from "./helpers";
import { createJob, deliver, eventually, jobState, record, rendererAnswers, rendererLog, webhookBox } from "./job-steps";
import { completeRenderTask, taskEvent, taskStarts, testPlan, waitForStart } from "./task-flow";

/**
 * Issue 15, underbilling: a job is billed for the VOD's real length. When Twitch cannot be reached at acceptance
 * the claimed vod_length_hours is billed as sent; the analysis then measures the real length, and the Worker
 * reserves the difference before any render task starts (or fails the job when the account cannot cover it). A
 * billed length above the real one is refunded the difference at completion. Driven through the real routes,
 * queue, Durable Object and D1, with the renderer's side played by the tests.
 */

/** Twitch unreachable at acceptance: the claim stands in for the probe. */
const NO_TWITCH = { TWITCH_GQL_URL: `${env.TWITCH_USHER_URL}/no-gql-here` };
const RENDER_TASKS = ["reel-balanced-m01", "reel-balanced-m02", "short-01"];

interface LedgerRow {
  kind: string;
  amount: number;
  purpose: string | null;
  reason: string;
}
async function ledgerOf(jobId: string): Promise<LedgerRow[]> {
  const rows = await env.DB.prepare("SELECT kind, amount, purpose, reason FROM credit_ledger WHERE job_id = ? ORDER BY id").bind(jobId).all<LedgerRow>();
  return rows.results;
}

/** The test plan (one reel of two moments, its join, one short) for a VOD of `seconds`. */
function planOf(jobId: string, seconds: number): JobPlan {
  const plan = testPlan(jobId);
  return { ...plan, source: { ...plan.source, duration_seconds: seconds } };
}

/** Creates a job (Twitch reachable or not at acceptance) and dispatches its analysis task; returns the task request. */
async function analysingJob(acct: TestAccount, body: Record<string, unknown>, probe: "unreachable" | "probed"): Promise<{ ack: JobAck; analysis: RenderTaskRequest }> {
  const { ack, message } = await createJob(acct.api_key, { num_shorts: 1, ...body }, probe === "unreachable" ? NO_TWITCH : {});
  await rendererAnswers(ack.id, 202);
  expect((await deliver(message)).explicitAcks).toHaveLength(1);
  const analysis = (await taskStarts(ack.id))[0]!;
  expect(analysis.task.kind).toBe("analyse");
  await taskEvent(analysis, { type: "started" });
  return { ack, analysis };
}

/** Plays every render task and the join to the end. */
async function renderEverything(jobId: string): Promise<void> {
  for (const id of RENDER_TASKS) await completeRenderTask(await waitForStart(jobId, id));
  await completeRenderTask(await waitForStart(jobId, "reel-balanced-join"));
}

const stateOf = (jobId: string) => runInDurableObject(jobState(jobId), (_i, state) => state.storage.get<JobLifecycle>("state"));

// The 2 h fixture VOD claimed as 0.5 h while Twitch is unreachable, with one reel and one short (auto_balance, 40
// credits per hour): billed 20 + 25 + 10 = 55 at acceptance; the real 2 h costs 80 + 25 + 10 = 115, 60 more.
const LOW_CLAIM = { vod_url: vodUrl(FIXTURE_VODS.public), vod_length_hours: 0.5 };
const LOW_CLAIM_COST = 55;
const REAL_COST = 115;

describe("billing the VOD's real length (task mode)", { timeout: 60_000 }, () => {
  it("probe failed and the claim too low: the difference is reserved before any render task, and the job goes on", async () => {
    // Exactly enough for the real length.
    const acct = await createAccount({ plan: "pro", credits: REAL_COST, purchase: true });
    const { ack, analysis } = await analysingJob(acct, LOW_CLAIM, "unreachable");
    expect(ack.credit_cost).toBe(LOW_CLAIM_COST);
    expect(await record(acct.api_key, ack.id)).toMatchObject({ vod_duration_seconds: 1800, billed_vod_seconds: 1800 });

    await taskEvent(analysis, { type: "completed", result: { kind: "analyse", plan: planOf(ack.id, 7200) } });
    expect(await ledgerOf(ack.id)).toEqual([
      { kind: "reserve", amount: -LOW_CLAIM_COST, purpose: null, reason: "job accepted" },
      { kind: "reserve", amount: -(REAL_COST - LOW_CLAIM_COST), purpose: "vod_length", reason: "VOD longer than billed: real length 2.00 h (7200 s), 0.50 h (1800 s) billed at acceptance" },
    ]);
    expect(await accountCredits(acct.account_id)).toBe(0);
    expect(await record(acct.api_key, ack.id)).toMatchObject({ status: "running", credit_cost: REAL_COST, vod_duration_seconds: 7200, billed_vod_seconds: 7200 });

    // The render tasks start, and the job completes with nothing refunded: the real length was paid for.
    await renderEverything(ack.id);
    expect(await record(acct.api_key, ack.id)).toMatchObject({ status: "completed", credit_cost: REAL_COST, refunded_credits: 0 });
    expect((await ledgerOf(ack.id)).map((e) => e.kind)).toEqual(["reserve", "reserve"]);
  });

  it("probe failed, the claim too low and the account short: the job fails at once with a full refund, naming the real length, and no render task starts", async () => {
    // One credit short of the real length.
    const acct = await createAccount({ plan: "pro", credits: REAL_COST - 1, purchase: true });
    const box = await webhookBox({ secret: acct.webhook_signing_secret });
    const { ack, analysis } = await analysingJob(acct, { ...LOW_CLAIM, webhook_url: box.url }, "unreachable");
    expect(await accountCredits(acct.account_id)).toBe(REAL_COST - 1 - LOW_CLAIM_COST);

    await taskEvent(analysis, { type: "completed", result: { kind: "analyse", plan: planOf(ack.id, 7200) } });
    const rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({ status: "failed", credit_cost: LOW_CLAIM_COST, refunded_credits: LOW_CLAIM_COST, vod_duration_seconds: 7200, error: { code: "insufficient_credits" } });
    expect(rec.error!.message).toBe(
      "The VOD is 2.00 h (7200 s) long, but 0.50 h (1800 s) was billed when the job was accepted; the 60 more credits the real length costs exceed the account's balance of 59. " +
        "Nothing was rendered and all credits were refunded; add credits and submit the job again.",
    );
    expect(await accountCredits(acct.account_id)).toBe(REAL_COST - 1);
    expect(await ledgerOf(ack.id)).toEqual([
      { kind: "reserve", amount: -LOW_CLAIM_COST, purpose: null, reason: "job accepted" },
      { kind: "refund", amount: LOW_CLAIM_COST, purpose: null, reason: "job failed: insufficient_credits" },
    ]);
    const failed = await eventually(async () => (await box.received()).find((d) => d.body.includes('"job.failed"')));
    expect(JSON.parse(failed.body).payload).toMatchObject({ error_code: "insufficient_credits", refunded_credits: LOW_CLAIM_COST, error: expect.stringContaining("2.00 h (7200 s)") });

    // No render task exists or was sent: the renderer saw the analysis only, also after the queue had time to deliver.
    expect((await jobState(ack.id).tasks()).map((t) => t.id)).toEqual(["analyse"]);
    await new Promise((r) => setTimeout(r, 3000));
    expect((await rendererLog(ack.id)).starts.map((s) => (s as RenderTaskRequest).task.id)).toEqual(["analyse"]);
  });

  it("a VOD over the 24 h maximum, found only by the renderer, fails the job with a full refund before any render task", async () => {
    const acct = await createAccount({ plan: "pro", credits: 10_000, purchase: true });
    const { ack, analysis } = await analysingJob(acct, { vod_url: vodUrl(FIXTURE_VODS.tooLong), vod_length_hours: 1 }, "unreachable");
    await taskEvent(analysis, { type: "completed", result: { kind: "analyse", plan: planOf(ack.id, 30 * 3600) } });
    const rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({ status: "failed", refunded_credits: ack.credit_cost, vod_duration_seconds: 108_000, error: { code: "vod_too_long" } });
    expect(rec.error!.message).toMatch(/^The VOD is 30\.00 h \(108000 s\) long; the maximum is 24 h/);
    expect(await accountCredits(acct.account_id)).toBe(10_000);
    expect((await jobState(ack.id).tasks()).map((t) => t.id)).toEqual(["analyse"]);
  });

  it("a claim within the tolerance below the real length changes nothing", async () => {
    // 1 h VOD claimed as 3528 s (2 % short) on director_finish (100 credits/h): 98 + 25 + 10 credits, where the
    // real hour would cost 2 more; the tolerance lets it stand.
    const acct = await createAccount({ plan: "pro", credits: 1000, purchase: true });
    const { ack, analysis } = await analysingJob(acct, { vod_url: vodUrl(FIXTURE_VODS.hour), vod_length_hours: 3528 / 3600, model_preset: "director_finish" }, "unreachable");
    expect(ack.credit_cost).toBe(133);
    await taskEvent(analysis, { type: "completed", result: { kind: "analyse", plan: planOf(ack.id, 3600) } });
    await renderEverything(ack.id);
    const rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({ status: "completed", credit_cost: 133, refunded_credits: 0, vod_duration_seconds: 3600 });
    expect(rec.billed_vod_seconds).toBeCloseTo(3528, 6);
    expect(await ledgerOf(ack.id)).toEqual([{ kind: "reserve", amount: -133, purpose: null, reason: "job accepted" }]);
    expect(await accountCredits(acct.account_id)).toBe(1000 - 133);
  });

  it("a claim above the real length is refunded the difference at completion (record, results, job.completed and ledger agree)", async () => {
    // 1 h VOD claimed as 1.5 h (probed: billed as sent): 60 + 25 + 10 = 95; the real hour costs 40 + 35 = 75.
    const acct = await createAccount({ plan: "pro", credits: 1000, purchase: true });
    const box = await webhookBox({ secret: acct.webhook_signing_secret });
    const { ack, analysis } = await analysingJob(acct, { vod_url: vodUrl(FIXTURE_VODS.hour), vod_length_hours: 1.5, webhook_url: box.url }, "probed");
    expect(ack.credit_cost).toBe(95);
    await taskEvent(analysis, { type: "completed", result: { kind: "analyse", plan: planOf(ack.id, 3600) } });
    // Nothing moves before the completion.
    expect(await record(acct.api_key, ack.id)).toMatchObject({ credit_cost: 95, refunded_credits: 0, billed_vod_seconds: 5400 });
    await renderEverything(ack.id);

    const rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({ status: "completed", credit_cost: 95, refunded_credits: 20, billed_vod_seconds: 3600, vod_duration_seconds: 3600 });
    expect(await accountCredits(acct.account_id)).toBe(1000 - 75);
    expect(await ledgerOf(ack.id)).toEqual([
      { kind: "reserve", amount: -95, purpose: null, reason: "job accepted" },
      { kind: "refund", amount: 20, purpose: "vod_length", reason: "VOD shorter than billed: real length 1.00 h (3600 s), 1.50 h (5400 s) billed" },
    ]);
    const results = (await (await get(acct.api_key, `/jobs/${ack.id}/results`)).json()) as { refunded_credits: number };
    expect(results.refunded_credits).toBe(20);
    const completed = await eventually(async () => (await box.received()).find((d) => d.body.includes('"job.completed"')));
    expect(JSON.parse(completed.body).payload.refunded_credits).toBe(20);
  });

  it("a duplicate analysis result reserves once", async () => {
    const acct = await createAccount({ plan: "pro", credits: 1000, purchase: true });
    const { ack, analysis } = await analysingJob(acct, LOW_CLAIM, "unreachable");
    const result = { kind: "analyse" as const, plan: planOf(ack.id, 7200) };
    await taskEvent(analysis, { type: "completed", seq: 5000, result });
    // The same event again (a retried POST), and the same result under a new sequence number.
    expect(await taskEvent(analysis, { type: "completed", seq: 5000, result })).toMatchObject({ accepted: false, reason: "duplicate" });
    expect(await taskEvent(analysis, { type: "completed", seq: 5001, result })).toMatchObject({ accepted: false, reason: "duplicate" });
    expect((await ledgerOf(ack.id)).filter((e) => e.purpose === "vod_length")).toHaveLength(1);
    expect(await accountCredits(acct.account_id)).toBe(1000 - REAL_COST);
    expect((await record(acct.api_key, ack.id)).credit_cost).toBe(REAL_COST);
  });
});

describe("billing the VOD's real length: exactly once, and beside other refunds", { timeout: 60_000 }, () => {
  it("a re-applied analysis result reserves the difference once, even when the object lost its writes after D1 took them", async () => {
    const acct = await createAccount({ plan: "pro", credits: 1000, purchase: true });
    const { ack, analysis } = await analysingJob(acct, LOW_CLAIM, "unreachable");
    // The object's storage before the result: what it holds again when its writes after the D1 batch are lost.
    const before = await runInDurableObject(jobState(ack.id), async (_i, state) => ({ state: await state.storage.get("state"), tasks: await state.storage.get("tasks") }));
    const result = { kind: "analyse" as const, plan: planOf(ack.id, 7200) };
    await taskEvent(analysis, { type: "completed", result });
    await runInDurableObject(jobState(ack.id), async (_i, state) => {
      await state.storage.put("state", before.state);
      await state.storage.put("tasks", before.tasks);
    });
    // The renderer's retry of the same report (a new sequence number): the ledger's unique index holds.
    expect(await taskEvent(analysis, { type: "completed", result })).toMatchObject({ accepted: true, status: "running" });
    expect((await ledgerOf(ack.id)).filter((e) => e.purpose === "vod_length")).toEqual([
      { kind: "reserve", amount: -(REAL_COST - LOW_CLAIM_COST), purpose: "vod_length", reason: expect.stringContaining("real length 2.00 h (7200 s)") },
    ]);
    expect(await accountCredits(acct.account_id)).toBe(1000 - REAL_COST);
    expect(await stateOf(ack.id)).toMatchObject({ credit_cost: REAL_COST, billed_vod_seconds: 7200, real_vod_seconds: 7200 });

    // Everything delivered: nothing back.
    await renderEverything(ack.id);
    expect(await record(acct.api_key, ack.id)).toMatchObject({ status: "completed", credit_cost: REAL_COST, refunded_credits: 0 });
  });

  it("a claim above the real length is refunded the difference at completion, beside undelivered outputs, as two entries", async () => {
    // 1 h VOD claimed as 1.5 h, two profiles and 3 shorts: 60 + 50 + 30 = 140; the test plan delivers one reel
    // and one short (35 + 20 back) of a VOD that is 1 h long (20 back).
    const acct = await createAccount({ plan: "pro", credits: 1000, purchase: true });
    const { ack, analysis } = await analysingJob(acct, { vod_url: vodUrl(FIXTURE_VODS.hour), vod_length_hours: 1.5, run_profiles: ["balanced", "audience"], num_shorts: 3 }, "unreachable");
    expect(ack.credit_cost).toBe(140);
    await taskEvent(analysis, { type: "completed", result: { kind: "analyse", plan: planOf(ack.id, 3600) } });
    await renderEverything(ack.id);
    expect(await record(acct.api_key, ack.id)).toMatchObject({ status: "completed", refunded_credits: 45 + 20, billed_vod_seconds: 3600 });
    expect(await ledgerOf(ack.id)).toEqual([
      { kind: "reserve", amount: -140, purpose: null, reason: "job accepted" },
      { kind: "refund", amount: 45, purpose: null, reason: "completed without some billed outputs" },
      { kind: "refund", amount: 20, purpose: "vod_length", reason: "VOD shorter than billed: real length 1.00 h (3600 s), 1.50 h (5400 s) billed" },
    ]);
    expect(await accountCredits(acct.account_id)).toBe(1000 - 140 + 65);
  });
});
