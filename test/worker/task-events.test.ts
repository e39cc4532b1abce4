import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { RenderTaskRequest } from "../../common/contract/job-plan";
import { rendererJobToken, rendererTaskToken } from "../../worker/src/artifacts/links";
import type { TaskRecord } from "../../worker/src/orchestration/task-book";
import { accountCredits, createAccount, expectError, get, minimalJob, post, type TestAccount } from "./helpers";
import { bytesOf, callWithEnv, createJob, jobState, putTaskFile, record, sameBytes, startedJob, taskFilePath } from "./job-steps";
import { completeJob, plannedJob, postTaskEvent, taskEvent, testPlan, waitForStart } from "./task-flow";

/**
 * The renderer's reports about a task (POST /internal/jobs/{id}/tasks/{task}/attempts/{n}/events) and its uploads, through
 * the Worker's real routes: who may report, what a report does to the job, and what is refused after the end.
 * The task path's fan-out, retries and completion are in tasks.test.ts.
 */

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

/** POSTs a raw body to a task attempt's events route with the given token (null: none). */
function postRaw(jobId: string, token: string | null, body: unknown, taskId = "analyse", attempt = 1): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  return callWithEnv({}, `/internal/jobs/${jobId}/tasks/${taskId}/attempts/${attempt}/events`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
}

const attemptToken = (jobId: string, taskId = "analyse", attempt = 1) => rendererTaskToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, jobId, taskId, attempt);

describe("POST /internal/jobs/{id}/tasks/{task}/attempts/{n}/events: authentication and validation", () => {
  let render: RenderTaskRequest;
  beforeAll(async () => {
    ({ render } = await startedJob(acct.api_key));
  });

  it("answers 401 without the token, with a wrong one, with another job's token and with the job's own job-wide token", async () => {
    const progress = { type: "progress", attempt: 1, seq: 2, stage: "analysing", fraction: 0.5 };
    await expectError(await postRaw(render.job_id, null, progress), 401, "unauthorized");
    await expectError(await postRaw(render.job_id, `${render.callback.token}x`, progress), 401, "unauthorized");
    const other = await startedJob(acct.api_key);
    await expectError(await postRaw(render.job_id, other.render.callback.token, progress), 401, "unauthorized");
    await expectError(await postRaw(render.job_id, await rendererJobToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, render.job_id), progress), 401, "unauthorized");
    expect((await record(acct.api_key, render.job_id)).progress).toBe(0);
  });

  it("answers 404 for a job that does not exist (with that id's valid token), and for a task the job does not have", async () => {
    const id = "job_01HZZZZZZZZZZZZZZZZZZZZZZZ";
    await expectError(await postRaw(id, await attemptToken(id), { type: "started", attempt: 1, seq: 1 }), 404, "job_not_found");
    const err = await expectError(await postRaw(render.job_id, await attemptToken(render.job_id, "short-09"), { type: "started", attempt: 1, seq: 1 }, "short-09"), 404, "task_not_found");
    expect(err.message).toBe("This job has no task short-09.");
  });

  it("answers 422 for bodies that are not task events, and for a plan of another job", async () => {
    const t = render.callback.token;
    for (const bad of ["not json", { type: "progress", attempt: 1, seq: 3, stage: "warp", fraction: 0.5 }, { type: "started", attempt: 1 }, { type: "progress", attempt: 1, seq: 3, stage: "analysing", fraction: 1.5 }, { type: "exploded", attempt: 1, seq: 3 }]) {
      await expectError(await postRaw(render.job_id, t, bad), 422, "validation_failed");
    }
    await expectError(await postTaskEvent(render, { type: "completed", result: { kind: "analyse", plan: testPlan("job_someone_else") } }), 422, "validation_failed");
    expect((await record(acct.api_key, render.job_id)).progress).toBe(0);
  });
});

describe("task events drive the job", { timeout: 60_000 }, () => {
  it("progress moves the job's stage and percent (the analysis owns the first 20 %)", async () => {
    const { ack, render } = await startedJob(acct.api_key);
    expect(await taskEvent(render, { type: "started" })).toMatchObject({ accepted: true, status: "running" });
    await taskEvent(render, { type: "progress", stage: "analysing", fraction: 0.5 });
    expect(await record(acct.api_key, ack.id)).toMatchObject({ status: "running", stage: "analysing", progress: 10 });
  });

  it("ignores repeated and out-of-order events by sequence number", async () => {
    const { render } = await startedJob(acct.api_key);
    await taskEvent(render, { type: "progress", seq: 5, stage: "transcribing", fraction: 0.6 });
    expect(await taskEvent(render, { type: "progress", seq: 4, stage: "analysing", fraction: 0.7 })).toMatchObject({ accepted: false, reason: "duplicate" });
    expect(await taskEvent(render, { type: "progress", seq: 5, stage: "writing_metadata", fraction: 0.65 })).toMatchObject({ accepted: false, reason: "duplicate" });
    expect(await record(acct.api_key, render.job_id)).toMatchObject({ stage: "transcribing", progress: 12 });
    // A late "started" does not reset anything either.
    expect(await taskEvent(render, { type: "started", seq: 1 })).toMatchObject({ accepted: false });
    await taskEvent(render, { type: "progress", seq: 6, stage: "writing_metadata", fraction: 0.7 });
    expect(await record(acct.api_key, render.job_id)).toMatchObject({ stage: "writing_metadata", progress: 14 });
  });

  it("a failure about the input fails the job with the renderer's message and every credit back", async () => {
    const before = await accountCredits(acct.account_id);
    const { ack, render } = await startedJob(acct.api_key);
    await taskEvent(render, { type: "progress", stage: "downloading_audio", fraction: 0.3 });
    await taskEvent(render, { type: "failed", retryable: false, error: { code: "vod_deleted", message: "The VOD was deleted while it was being processed." } });
    const rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({ status: "failed", refunded_credits: ack.credit_cost, error: { code: "vod_deleted", message: "The VOD was deleted while it was being processed." } });
    expect(await accountCredits(acct.account_id)).toBe(before);
  });

  it("a job delivering fewer reels and shorts than billed gets their credits back with the completion", async () => {
    const before = await accountCredits(acct.account_id);
    // Billed: 2 reels (balanced, audience) and 3 shorts; the test plan delivers the balanced reel and one short.
    const { ack, render } = await startedJob(acct.api_key, minimalJob({ run_profiles: ["balanced", "audience"], num_shorts: 3 }));
    expect(await accountCredits(acct.account_id)).toBe(before - ack.credit_cost);
    await completeJob(render);
    expect(await record(acct.api_key, ack.id)).toMatchObject({ status: "completed", refunded_credits: 25 + 2 * 10 });
    expect(await accountCredits(acct.account_id)).toBe(before - ack.credit_cost + 45);
    const ledger = await env.DB.prepare("SELECT kind, amount, reason FROM credit_ledger WHERE job_id = ? ORDER BY id").bind(ack.id).all<{ kind: string; amount: number; reason: string }>();
    expect(ledger.results).toEqual([
      { kind: "reserve", amount: -ack.credit_cost, reason: expect.any(String) },
      { kind: "refund", amount: 45, reason: "completed without some billed outputs" },
    ]);
    const results = (await (await get(acct.api_key, `/jobs/${ack.id}/results`)).json()) as { refunded_credits: number };
    expect(results.refunded_credits).toBe(45);
  });

  it("a job delivering everything billed refunds nothing", async () => {
    const before = await accountCredits(acct.account_id);
    const { ack, render } = await startedJob(acct.api_key, minimalJob({ num_shorts: 1 }));
    await completeJob(render);
    expect(await record(acct.api_key, ack.id)).toMatchObject({ status: "completed", refunded_credits: 0 });
    expect(await accountCredits(acct.account_id)).toBe(before - ack.credit_cost);
  });

  it("after the end every event answers 409 and changes nothing (late reports of a cancelled job)", async () => {
    const { ack, render } = await startedJob(acct.api_key);
    await taskEvent(render, { type: "progress", stage: "analysing", fraction: 0.4 });
    expect((await post(acct.api_key, `/jobs/${ack.id}/cancel`)).status).toBe(200);
    const after = await record(acct.api_key, ack.id);
    const late = [
      { type: "progress" as const, stage: "writing_metadata" as const, fraction: 0.9 },
      { type: "failed" as const, retryable: true, error: { code: "cancelled", message: "stopped" } },
      { type: "completed" as const, result: { kind: "analyse" as const, plan: testPlan(ack.id) } },
    ];
    for (const event of late) {
      const err = await expectError(await postTaskEvent(render, event), 409, "job_settled");
      expect(err.status).toBe("failed");
    }
    expect(await record(acct.api_key, ack.id)).toEqual(after);
  });

  it("a report before the queue consumer confirmed the dispatch starts the job (started_at set, job.running once)", async () => {
    const { ack } = await createJob(acct.api_key);
    // The consumer claimed the task; the renderer's first report got there before the consumer's confirmation.
    expect(await jobState(ack.id).claimTask("analyse")).toMatchObject({ ok: true, attempt: 1 });
    expect(await (await postRaw(ack.id, await attemptToken(ack.id), { type: "started", attempt: 1, seq: 1 })).json()).toMatchObject({ accepted: true, status: "running" });
    const rec = await record(acct.api_key, ack.id);
    expect(rec.status).toBe("running");
    expect(rec.started_at).not.toBeNull();
  });

  it("each accepted report moves the task's deadline", async () => {
    const { render } = await startedJob(acct.api_key);
    const heard = async () => (await runInDurableObject(jobState(render.job_id), (_i, state) => state.storage.get<TaskRecord[]>("tasks")))![0]!.heard_at!;
    const deadline = () => runInDurableObject(jobState(render.job_id), (_i, state) => state.storage.get<number>("watchdog_at"));
    const first = await heard();
    expect(await deadline()).toBeGreaterThan(Date.now() + 590_000);
    await new Promise((r) => setTimeout(r, 20));
    await taskEvent(render, { type: "progress", stage: "analysing", fraction: 0.1 });
    // A report that changes nothing still proves the renderer is alive.
    await new Promise((r) => setTimeout(r, 20));
    const second = await heard();
    await taskEvent(render, { type: "progress", stage: "analysing", fraction: 0.1 });
    const third = await heard();
    expect(second).toBeGreaterThan(first);
    expect(third).toBeGreaterThan(second);
    expect(await deadline()).toBe(third + 600_000);
  });
});

describe("PUT /internal/jobs/{id}/tasks/{task}/attempts/{n}/artifacts/{name}", () => {
  // A render task (short 1 of the test plan) storing its own files on the upload target it was handed.
  let render: RenderTaskRequest;
  beforeAll(async () => {
    const { ack } = await plannedJob(acct.api_key);
    render = await waitForStart(ack.id, "short-01");
  });

  it("streams the body into R2 under jobs/<id>/<name> with its content type", async () => {
    const bytes = bytesOf(42, 1_500_000);
    const res = await putTaskFile(render, "short-01.mp4", bytes, "video/mp4");
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ name: "short-01.mp4", size_bytes: bytes.byteLength });
    const object = await env.ARTIFACTS.get(`jobs/${render.job_id}/short-01.mp4`);
    expect(object!.httpMetadata?.contentType).toBe("video/mp4");
    expect(sameBytes(new Uint8Array(await object!.arrayBuffer()), bytes)).toBe(true);
  });

  it("accepts an empty file", async () => {
    const res = await putTaskFile(render, "short-01.srt", new Uint8Array(0), "application/x-subrip");
    expect(res.status).toBe(201);
    expect((await env.ARTIFACTS.head(`jobs/${render.job_id}/short-01.srt`))!.size).toBe(0);
  });

  it("needs the task attempt's token", async () => {
    const bytes = bytesOf(1, 10);
    for (const token of [null, "nope", await rendererJobToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, render.job_id)]) {
      await expectError(await putTaskFile(render, "short-01.jpg", bytes, "image/jpeg", true, token), 401, "unauthorized");
    }
    expect(await env.ARTIFACTS.head(`jobs/${render.job_id}/short-01.jpg`)).toBeNull();
  });

  it("rejects names outside the artifact name rule", async () => {
    for (const name of ["Reel.mp4", ".hidden", "a%2Fb.mp4", "-x.mp4"]) {
      await expectError(await putTaskFile(render, name, bytesOf(1, 10), "video/mp4", true), 422, "validation_failed");
    }
  });

  it("requires Content-Length (411) and a body that matches it (400)", async () => {
    const url = taskFilePath(render, "short-01.transcript.json");
    const headers = { Authorization: `Bearer ${render.upload.mode === "s3" ? "" : render.upload.token}`, "Content-Type": "application/json" };
    const streamed = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytesOf(3, 100));
        c.close();
      },
    });
    // In-process (no pipe to the test runner): a streamed body carries no Content-Length.
    await expectError(await callWithEnv({}, url, { method: "PUT", headers, body: streamed, duplex: "half" } as RequestInit), 411, "length_required");
    await expectError(await callWithEnv({}, url, { method: "PUT", headers: { ...headers, "Content-Length": "abc" }, body: bytesOf(3, 100) }), 400, "bad_request");
    const short = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytesOf(3, 100));
        c.close();
      },
    });
    const res = await callWithEnv({}, url, { method: "PUT", headers: { ...headers, "Content-Length": "200" }, body: short, duplex: "half" } as RequestInit);
    await expectError(res, 400, "upload_incomplete");
    expect(await env.ARTIFACTS.head(`jobs/${render.job_id}/short-01.transcript.json`)).toBeNull();
  });

  it("accepts files only while the job is running", async () => {
    const done = await startedJob(acct.api_key);
    await post(acct.api_key, `/jobs/${done.ack.id}/cancel`);
    expect((await expectError(await putTaskFile(done.render, "analysis.json.gz", bytesOf(1, 10), "application/gzip", true), 409, "job_not_running")).status).toBe("failed");
    expect(await env.ARTIFACTS.head(`jobs/${done.ack.id}/analysis.json.gz`)).toBeNull();
  });

  it("answers 404 for an unknown job", async () => {
    const id = "job_01HYYYYYYYYYYYYYYYYYYYYYYY";
    const unknown = { upload: { mode: "worker" as const, url: `https://api.test/internal/jobs/${id}/tasks/analyse/attempts/1/artifacts`, token: await rendererTaskToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, id, "analyse", 1) } };
    await expectError(await putTaskFile(unknown, "analysis.json.gz", bytesOf(1, 10), "application/gzip", true), 404, "job_not_found");
  });
});
