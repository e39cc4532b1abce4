import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ANALYSIS_VERSION, STORED_ANALYSIS_NAME, type CostEstimate, type JobAck } from "../../common/contract";
import type { JobPlan, RenderTaskRequest } from "../../common/contract/job-plan";
import { analysisExpiry } from "../../worker/src/domain/analysis-reuse";
import { heardWordsName } from "../../common/contract/heard-words";
import { artifactKey } from "../../worker/src/artifacts/links";
import { runsOnRecutClass } from "../../worker/src/orchestration/recut-route";
import { openDb } from "../../worker/src/storage/db";
import { deleteExpiredAnalyses } from "../../worker/src/storage/analyses";
import { accountCredits, call, createAccount, minimalJob, post, vodUrl, FIXTURE_VODS, type TestAccount } from "./helpers";
import { TASK_CONTRACT_VERSION } from "../../common/contract/task-contract";
import { bytesOf, createJob, deliver, jobState, putTaskFile, record, rendererAnswers, rendererLog, sameBytes } from "./job-steps";
import { completeRenderTask, taskEvent, taskStarts, testPlan, waitForStart } from "./task-flow";

/**
 * Issue 21, re-cut in seconds: a job's analysis is stored beside its files, indexed in D1 when the job completes,
 * and reused by the same account's later jobs on the same VOD with the same analysis options. Driven through the
 * real routes, queue consumer, Durable Object, D1 and R2; the renderer's side is played by the test.
 */

const RENDER_TASKS = ["reel-balanced-m01", "reel-balanced-m02", "short-01"];
// The 1 h fixture VOD at auto_balance (40 credits per hour), one reel and one short: 40 + 25 + 10.
const FULL_COST = 75;
const OUTPUTS_COST = 35;

interface AnalysisRow {
  job_id: string;
  account_id: string;
  vod_id: string;
  analysis_version: number;
  options_hash: string;
  object_name: string;
  probed_duration_seconds: number | null;
  vod_duration_seconds: number;
  analysed_at: string;
  expires_at: string;
}
const analysisRow = (jobId: string) => env.DB.prepare("SELECT * FROM vod_analyses WHERE job_id = ?").bind(jobId).first<AnalysisRow>();
const ledgerOf = async (jobId: string) =>
  (await env.DB.prepare("SELECT kind, amount, purpose FROM credit_ledger WHERE job_id = ? ORDER BY id").bind(jobId).all<{ kind: string; amount: number; purpose: string | null }>()).results;

/** Dispatches a created job's analysis task to the renderer double; returns the request it received. */
async function analysisTask(ack: JobAck, message: unknown): Promise<RenderTaskRequest> {
  await rendererAnswers(ack.id, 202);
  expect((await deliver(message)).explicitAcks).toHaveLength(1);
  const analysis = (await taskStarts(ack.id))[0]!;
  expect(analysis.task.kind).toBe("analyse");
  await taskEvent(analysis, { type: "started" });
  return analysis;
}

/** Plays the analysis' result (with `analysis` as the renderer reports it), every render task and the join. */
async function finish(analysis: RenderTaskRequest, planAnalysis: JobPlan["analysis"], seconds = 3600): Promise<void> {
  const plan = testPlan(analysis.job_id);
  await taskEvent(analysis, { type: "completed", result: { kind: "analyse", plan: { ...plan, source: { ...plan.source, duration_seconds: seconds }, analysis: planAnalysis } } });
  for (const id of RENDER_TASKS) await completeRenderTask(await waitForStart(analysis.job_id, id));
  await completeRenderTask(await waitForStart(analysis.job_id, "reel-balanced-join"));
}

const ANALYSED_AT = () => new Date(Date.now() - 60_000).toISOString();

/** A job that analyses the VOD and stores its analysis (the object uploaded as the renderer does), to completion. */
async function analysedJob(acct: TestAccount, body: Record<string, unknown> = {}): Promise<{ ack: JobAck; object: Uint8Array; analysedAt: string }> {
  const { ack, message } = await createJob(acct.api_key, minimalJob({ num_shorts: 1, ...body }));
  expect(ack.analysis_reused).toBeNull();
  const analysis = await analysisTask(ack, message);
  const object = bytesOf(ack.id.length + 7, 4_000);
  expect((await putTaskFile(analysis, STORED_ANALYSIS_NAME, object, "application/gzip")).status).toBe(201);
  const analysedAt = ANALYSED_AT();
  await finish(analysis, { reused_from: null, stored: { name: STORED_ANALYSIS_NAME, version: ANALYSIS_VERSION, size_bytes: object.byteLength, duration_seconds: 3600, analysed_at: analysedAt } });
  expect((await record(acct.api_key, ack.id)).status).toBe("completed");
  return { ack, object, analysedAt };
}

/** POST /jobs/estimate's answer for a body. */
async function estimate(acct: TestAccount, body: Record<string, unknown>): Promise<CostEstimate> {
  const res = await post(acct.api_key, "/jobs/estimate", minimalJob({ num_shorts: 1, ...body }));
  expect(res.status).toBe(200);
  return (await res.json()) as CostEstimate;
}

describe("reusing a stored analysis (re-cuts)", { timeout: 90_000 }, () => {
  it("indexes a completed job's analysis until min(the reuse window, the files' retention)", async () => {
    const acct = await createAccount({ plan: "pro", credits: 1000, purchase: true });
    const { ack, analysedAt } = await analysedJob(acct);
    const row = await analysisRow(ack.id);
    const job = await record(acct.api_key, ack.id);
    expect(row).toMatchObject({ account_id: acct.account_id, vod_id: FIXTURE_VODS.hour, analysis_version: ANALYSIS_VERSION, object_name: STORED_ANALYSIS_NAME, probed_duration_seconds: 3600, vod_duration_seconds: 3600, analysed_at: analysedAt });
    // 168 h after the analysis comes before the files' 30 days.
    expect(row!.expires_at).toBe(new Date(Date.parse(analysedAt) + 168 * 3600_000).toISOString());
    expect(Date.parse(row!.expires_at)).toBeLessThan(Date.parse(job.artifacts_expires_at!));
    // A window longer than the retention is cut at the files' expiry.
    expect(analysisExpiry(analysedAt, 24 * 40, job.artifacts_expires_at)).toBe(job.artifacts_expires_at);
    expect(analysisExpiry(analysedAt, 168, job.artifacts_expires_at)).toBe(row!.expires_at);
  });

  it("a re-cut with other render options reuses it: waived processing credits in the estimate, the 202 and the record; the analysis task reads the stored object", async () => {
    const acct = await createAccount({ plan: "pro", credits: 1000, purchase: true });
    const { ack: first, object, analysedAt } = await analysedJob(acct);
    expect(first.credit_cost).toBe(FULL_COST);
    const recut = {
      manual_highlights: [{ start_seconds: 1200, end_seconds: 1230, label: "the clutch" }],
      parameters: { shorts_crop_mode: "fit", caption_style: "word_highlight" },
      run_profiles: ["balanced"],
    };
    const quote = await estimate(acct, recut);
    expect(quote.credit_cost).toBe(OUTPUTS_COST);
    expect(quote.billing_note).toMatch(/Processing credits waived: .* from job job_.* does not depend on the VOD's length\./);
    expect(quote.breakdown).toMatchObject({ processing_credits: 0, total: OUTPUTS_COST, processing_waived: { credits: 40, reason: "analysis_reused", from_job_id: first.id, analysed_at: analysedAt } });

    const before = await accountCredits(acct.account_id);
    const { ack, message } = await createJob(acct.api_key, minimalJob({ num_shorts: 1, ...recut }));
    expect(ack).toMatchObject({ credit_cost: OUTPUTS_COST, analysis_reused: { from_job_id: first.id, analysed_at: analysedAt } });
    expect(ack.message).toContain(first.id);
    expect(await accountCredits(acct.account_id)).toBe(before - OUTPUTS_COST);
    expect(await record(acct.api_key, ack.id)).toMatchObject({ credit_cost: OUTPUTS_COST, analysis_reused: { from_job_id: first.id, analysed_at: analysedAt } });

    // What the first job's short heard, as its task keeps it (private, beside its files: heard-words.ts).
    const heardObject = bytesOf(3, 900);
    await env.ARTIFACTS.put(artifactKey(first.id, heardWordsName(1)), heardObject);
    const analysis = await analysisTask(ack, message);
    expect(analysis.reuse).toMatchObject({ from_job_id: first.id, analysed_at: analysedAt });
    // The analysis task is also given a link to the words of each short of the job whose analysis it reuses.
    expect(analysis.reuse!.heard).toHaveLength(1);
    const heardLink = new URL(analysis.reuse!.heard![0]!);
    expect(heardLink.pathname).toContain(`${first.id}/${heardWordsName(1)}`);
    const heardRes = await call(`${heardLink.pathname}${heardLink.search}`);
    expect(heardRes.status).toBe(200);
    expect(sameBytes(new Uint8Array(await heardRes.arrayBuffer()), heardObject)).toBe(true);
    const link = new URL(analysis.reuse!.url);
    const res = await call(`${link.pathname}${link.search}`);
    expect(res.status).toBe(200);
    expect(sameBytes(new Uint8Array(await res.arrayBuffer()), object)).toBe(true);
    // The link is signed for that one file: another name in the same folder is refused.
    const other = await call(`${link.pathname.replace(STORED_ANALYSIS_NAME, "reel-balanced.mp4")}${link.search}`);
    expect(other.status).toBe(403);

    // The VOD measured longer than billed: a reusing job pays no processing credits, so nothing more is reserved.
    await finish(analysis, { reused_from: first.id, stored: null }, 3900);
    expect(await ledgerOf(ack.id)).toEqual([{ kind: "reserve", amount: -OUTPUTS_COST, purpose: null }]);
    expect(await record(acct.api_key, ack.id)).toMatchObject({ status: "completed", credit_cost: OUTPUTS_COST, refunded_credits: 0 });
    // A job that reused an analysis stores none of its own.
    expect(await analysisRow(ack.id)).toBeNull();
    // Render tasks never carry the link.
    expect((await taskStarts(ack.id)).filter((t) => t.task.kind !== "analyse").every((t) => t.reuse === null)).toBe(true);

    // A later re-cut (the client moving the bounds again) may take the words of this re-cut's short too, newest
    // first; a job whose files were deleted offers none.
    const again = await createJob(acct.api_key, minimalJob({ num_shorts: 1, ...recut }));
    const third = await analysisTask(again.ack, again.message);
    expect(third.reuse!.heard!.map((u) => new URL(u).pathname.split("/").slice(-2).join("/"))).toEqual([`${ack.id}/${heardWordsName(1)}`, `${first.id}/${heardWordsName(1)}`]);
    await env.DB.prepare("UPDATE jobs SET artifacts_deleted_at = ? WHERE id = ?").bind(new Date().toISOString(), ack.id).run();
    const fourth = await createJob(acct.api_key, minimalJob({ num_shorts: 1, ...recut }));
    expect((await analysisTask(fourth.ack, fourth.message)).reuse!.heard!.map((u) => new URL(u).pathname.split("/").at(-2))).toEqual([first.id]);
  });

  it("a re-cut's tasks start on the re-cut class first (RECUT_RENDER_URL locally, RECUT_CONTAINER deployed), and on the general one when it is busy", async () => {
    const acct = await createAccount({ plan: "pro", credits: 1000, purchase: true });
    // A second renderer of the double, told apart by its URL: the local stand-in for the re-cut Container class.
    const recutPool = `${env.RENDER_URL.replace(/\/+$/, "")}/speaks/${TASK_CONTRACT_VERSION}`;
    const withRecutPool = { env: { RECUT_RENDER_URL: recutPool } };
    const analysisOf = async (jobId: string) => (await jobState(jobId).tasks()).find((t) => t.id === "analyse")!;

    // A full analysis is not a re-cut's: the general pool, though a re-cut pool exists.
    const full = await createJob(acct.api_key, minimalJob({ num_shorts: 1 }));
    await rendererAnswers(full.ack.id, 202);
    expect((await deliver(full.message, withRecutPool)).explicitAcks).toHaveLength(1);
    expect(await analysisOf(full.ack.id)).toMatchObject({ instance: env.RENDER_URL.replace(/\/+$/, "") });
    const fullAnalysis = (await taskStarts(full.ack.id))[0]!;
    const object = bytesOf(11, 2_000);
    expect((await putTaskFile(fullAnalysis, STORED_ANALYSIS_NAME, object, "application/gzip")).status).toBe(201);
    await taskEvent(fullAnalysis, { type: "started" });
    await finish(fullAnalysis, { reused_from: null, stored: { name: STORED_ANALYSIS_NAME, version: ANALYSIS_VERSION, size_bytes: object.byteLength, duration_seconds: 3600, analysed_at: ANALYSED_AT() } });

    // The re-cut's analysis task (it carries `reuse`) goes to the re-cut pool.
    const recut = { num_shorts: 1, compilation_enabled: false, manual_highlights: [{ start_seconds: 1200, end_seconds: 1230, label: "re-cut" }] };
    const first = await createJob(acct.api_key, minimalJob(recut));
    expect(first.ack.analysis_reused?.from_job_id).toBe(full.ack.id);
    await rendererAnswers(first.ack.id, 202);
    expect((await deliver(first.message, withRecutPool)).explicitAcks).toHaveLength(1);
    expect((await analysisOf(first.ack.id)).instance).toBe(recutPool);
    expect((await taskStarts(first.ack.id))[0]!.reuse?.from_job_id).toBe(full.ack.id);

    // Which tasks are a re-cut's (recut-route.ts): the reusing analysis; the handed-over short of a one-short plan
    // built from a reused analysis, should it go through the queue after all; no render task of any other plan.
    const started = (await taskStarts(first.ack.id))[0]!;
    const plan = testPlan(first.ack.id);
    const oneShort = { ...plan, reels: [], tasks: plan.tasks.filter((t) => t.id === "short-01"), analysis: { reused_from: full.ack.id, stored: null } };
    const shortOf = (p: JobPlan) => ({ ...started, task: { id: "short-01", kind: "short" as const, attempt: 1 }, reuse: null, plan: p });
    expect(runsOnRecutClass(started)).toBe(true);
    expect(runsOnRecutClass(shortOf(oneShort))).toBe(true);
    expect(runsOnRecutClass(shortOf({ ...oneShort, analysis: { reused_from: null, stored: null } }))).toBe(false);
    expect(runsOnRecutClass(shortOf({ ...plan, analysis: { reused_from: full.ack.id, stored: null } }))).toBe(false);
    expect(runsOnRecutClass({ ...started, reuse: null })).toBe(false);

    // Its re-cut pool busy (503): the task starts on the general pool at once instead of waiting.
    const second = await createJob(acct.api_key, minimalJob(recut));
    await rendererAnswers(second.ack.id, 202, [503]);
    expect((await deliver(second.message, withRecutPool)).explicitAcks).toHaveLength(1);
    expect((await rendererLog(second.ack.id)).answers).toEqual([503, 202]);
    expect((await analysisOf(second.ack.id)).instance).toBe(env.RENDER_URL.replace(/\/+$/, ""));
  });

  it("is not reused across accounts, presets, stream languages, or when reuse is off", async () => {
    const acct = await createAccount({ plan: "pro", credits: 1000, purchase: true });
    const stranger = await createAccount({ plan: "pro", credits: 1000, purchase: true });
    const { ack: first } = await analysedJob(acct);
    expect((await estimate(acct, {})).breakdown.processing_waived?.from_job_id).toBe(first.id);
    expect((await estimate(stranger, {})).breakdown).toMatchObject({ processing_credits: 40, processing_waived: null });
    expect((await estimate(acct, { model_preset: "director_finish" })).breakdown).toMatchObject({ processing_credits: 100, processing_waived: null });
    expect((await estimate(acct, { stream_language: "de" })).breakdown.processing_waived).toBeNull();
    const { ack } = await createJob(acct.api_key, minimalJob({ num_shorts: 1 }), { ANALYSIS_REUSE_HOURS: "0" });
    expect(ack).toMatchObject({ credit_cost: FULL_COST, analysis_reused: null });
  });

  it("what invalidates it: another analysis version, a VOD whose length changed, expiry, deleted files; the sweep drops expired rows", async () => {
    const acct = await createAccount({ plan: "pro", credits: 2000, purchase: true });
    const { ack: first } = await analysedJob(acct);
    const reusedFrom = async () => (await estimate(acct, {})).breakdown.processing_waived?.from_job_id ?? null;
    const update = (sql: string, ...args: unknown[]) => env.DB.prepare(sql).bind(...args).run();
    expect(await reusedFrom()).toBe(first.id);

    await update("UPDATE vod_analyses SET analysis_version = ? WHERE job_id = ?", ANALYSIS_VERSION - 1, first.id);
    expect(await reusedFrom()).toBeNull();
    await update("UPDATE vod_analyses SET analysis_version = ? WHERE job_id = ?", ANALYSIS_VERSION, first.id);

    // Twitch reported another length when it was analysed: not the VOD it is now.
    await update("UPDATE vod_analyses SET probed_duration_seconds = 3540 WHERE job_id = ?", first.id);
    expect(await reusedFrom()).toBeNull();
    await update("UPDATE vod_analyses SET probed_duration_seconds = 3600 WHERE job_id = ?", first.id);
    expect(await reusedFrom()).toBe(first.id);

    // Expiring within the hours a new job's analysis task may wait for a renderer: no longer offered.
    await update("UPDATE vod_analyses SET expires_at = ? WHERE job_id = ?", new Date(Date.now() + 3600_000).toISOString(), first.id);
    expect(await reusedFrom()).toBeNull();
    await update("UPDATE vod_analyses SET expires_at = ? WHERE job_id = ?", new Date(Date.now() + 86_400_000).toISOString(), first.id);
    expect(await reusedFrom()).toBe(first.id);

    // The retention sweep deleted the job's files (and the object with them).
    await update("UPDATE jobs SET artifacts_deleted_at = ? WHERE id = ?", new Date().toISOString(), first.id);
    expect(await reusedFrom()).toBeNull();

    // The hourly sweep deletes rows past their expiry, and only those.
    expect(await deleteExpiredAnalyses(openDb(env.DB), new Date(Date.now() + 3600_000))).toBe(0);
    expect(await analysisRow(first.id)).not.toBeNull();
    expect(await deleteExpiredAnalyses(openDb(env.DB), new Date(Date.now() + 2 * 86_400_000))).toBeGreaterThanOrEqual(1);
    expect(await analysisRow(first.id)).toBeNull();
  });

  it("is in the OpenAPI document: analysis_reused on the 202 and the record, processing_waived in the breakdown", async () => {
    const doc = (await (await call("/openapi.json")).json()) as { components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> } };
    const { JobAck, JobRecord, CostBreakdown } = doc.components.schemas;
    for (const schema of [JobAck!, JobRecord!]) {
      expect(schema.required).toContain("analysis_reused");
      expect(JSON.stringify(schema.properties.analysis_reused)).toMatch(/from_job_id.*analysed_at/);
    }
    expect(CostBreakdown!.required).toContain("processing_waived");
    expect(JSON.stringify(CostBreakdown!.properties.processing_waived)).toContain("analysis_reused");
  });

  it("a job accepted without a probe (Twitch unreachable) neither reuses an analysis nor offers its own", async () => {
    const acct = await createAccount({ plan: "pro", credits: 1000, purchase: true });
    const noTwitch = { TWITCH_GQL_URL: `${env.TWITCH_USHER_URL}/no-gql-here` } as never;
    const { ack: probed } = await analysedJob(acct, { vod_url: vodUrl(FIXTURE_VODS.public), vod_length_hours: 2 });
    expect(await analysisRow(probed.id)).not.toBeNull();
    const { ack, message } = await createJob(acct.api_key, minimalJob({ num_shorts: 1, vod_url: vodUrl(FIXTURE_VODS.public), vod_length_hours: 2 }), noTwitch);
    expect(ack.analysis_reused).toBeNull();
    const analysis = await analysisTask(ack, message);
    expect(analysis.reuse).toBeNull();
    await finish(analysis, { reused_from: null, stored: { name: STORED_ANALYSIS_NAME, version: ANALYSIS_VERSION, size_bytes: 10, duration_seconds: 7200, analysed_at: ANALYSED_AT() } }, 7200);
    expect(await analysisRow(ack.id)).toBeNull();
  });
});
