import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobAck, JobRecord } from "../../common/contract";
import type { Env } from "../../worker/src/env";
import { claimedJob, completeAtOnce, completeSmall, failJob, onlyTaskResult, reachProgress, runningJob, SMALL_FILES, startOnlyTask, uploadFiles } from "./drive-job";
import { startedJob, webhookBox } from "./job-steps";
import { postTaskEvent, taskEvent, waitForStart } from "./task-flow";
import { accountCredits, createAccount, expect422, expectError, get, minimalJob, post, postJob, type TestAccount } from "./helpers";

/**
 * A job's lifecycle as its JobState object keeps it, driven the way production drives it: the renderer's task
 * events through the Worker's real route (drive-job.ts), the client's cancel, and the object's own RPC.
 */
const stateOf = (jobId: string) => env.JOB_STATE.get(env.JOB_STATE.idFromName(jobId));

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

/** A 1 h job on the default preset: 40 + 25 = 65 credits; with 4 shorts, 105. */
async function newJob(extra: Record<string, unknown> = {}): Promise<JobAck> {
  const res = await postJob(acct.api_key, minimalJob(extra));
  expect(res.status).toBe(202);
  return (await res.json()) as JobAck;
}

async function record(id: string): Promise<JobRecord> {
  const res = await get(acct.api_key, `/jobs/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as JobRecord;
}

async function ledgerOf(jobId: string): Promise<{ kind: string; amount: number }[]> {
  const rows = await env.DB.prepare("SELECT kind, amount FROM credit_ledger WHERE job_id = ? ORDER BY id").bind(jobId).all<{ kind: string; amount: number }>();
  return rows.results;
}

// Completing a job through the task path waits for the real queue to start its tasks (batches wait up to 1 s).
describe("JobState transitions", { timeout: 30_000 }, () => {
  it("goes pending -> running -> completed and mirrors every change into D1", async () => {
    // Handed to a renderer whose first report comes before the queue consumer confirmed the start.
    const { ack, render } = await claimedJob(acct.api_key);
    expect((await stateOf(ack.id).get())?.status).toBe("pending");

    await taskEvent(render, { type: "started" });
    let rec = await record(ack.id);
    expect(rec).toMatchObject({ status: "running", progress: 0 });
    expect(rec.started_at).not.toBeNull();

    // The analysis owns the first 20 %: 0.649 of it is 12.98 %, floored.
    await taskEvent(render, { type: "progress", stage: "analysing", fraction: 0.649 });
    rec = await record(ack.id);
    expect(rec).toMatchObject({ status: "running", progress: 12, stage: "analysing" });
    // Progress never goes backwards: the attempt fails, the task runs again from 0, and its new reports move
    // only the stage until they pass what the job already showed.
    await taskEvent(render, { type: "failed", retryable: true, error: { code: "render_failed", message: "ffmpeg exited with code 1" } });
    const again = await waitForStart(ack.id, "analyse", 2);
    await taskEvent(again, { type: "progress", stage: "selecting", fraction: 0.1 });
    expect(await record(ack.id)).toMatchObject({ status: "running", progress: 12, stage: "selecting" });

    await completeSmall(again);
    rec = await record(ack.id);
    expect(rec).toMatchObject({ status: "completed", progress: 100, stage: null, error: null, refunded_credits: 0 });
    expect(Date.parse(rec.artifacts_expires_at!) - Date.parse(rec.finished_at!)).toBe(30 * 86_400_000);
    expect(rec.updated_at).toBe(rec.finished_at);
    for (const t of [rec.created_at, rec.updated_at, rec.started_at!, rec.finished_at!, rec.artifacts_expires_at!]) {
      expect(t).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it("changes nothing on late calls after the end, and says so", async () => {
    const { ack, render } = await startedJob(acct.api_key);
    await completeSmall(render);
    const short = await waitForStart(ack.id, "short-01");
    const before = await record(ack.id);
    const credits = await accountCredits(acct.account_id);
    const late = [
      { type: "started" as const },
      { type: "progress" as const, stage: "rendering_reels" as const, fraction: 0.5 },
      { type: "completed" as const, result: onlyTaskResult(short, SMALL_FILES.map((f) => f.ref)) },
      { type: "failed" as const, retryable: false, error: { code: "render_failed", message: "late" } },
    ];
    for (const [task, event] of [...late.map((e) => [short, e] as const), [render, { type: "started" as const }] as const]) {
      const err = await expectError(await postTaskEvent(task, event), 409, "job_settled");
      expect(err.status).toBe("completed");
    }
    expect(await stateOf(ack.id).fail("render_failed", "late", { refund: "full" })).toMatchObject({ changed: false, reason: "terminal", state: { status: "completed" } });
    expect(await record(ack.id)).toEqual(before);
    expect(await accountCredits(acct.account_id)).toBe(credits);
    expect(await ledgerOf(ack.id)).toEqual([{ kind: "reserve", amount: -65 }]);
  });

  it("refunds everything when a running job fails", async () => {
    const before = await accountCredits(acct.account_id);
    const { ack, render } = await runningJob(acct.api_key, minimalJob({ num_shorts: 4 }));
    const renders = await reachProgress(render, 90);
    // A render task reports that it cannot be done (not retryable): the job fails.
    await failJob(renders[2]!, { code: "render_failed", message: "ffmpeg exited with code 1" });
    expect(await record(ack.id)).toMatchObject({
      status: "failed",
      refunded_credits: 105,
      error: { code: "render_failed", message: "ffmpeg exited with code 1" },
    });
    expect(await accountCredits(acct.account_id)).toBe(before);
    expect(await ledgerOf(ack.id)).toEqual([
      { kind: "reserve", amount: -105 },
      { kind: "refund", amount: 105 },
    ]);
  });

  it("answers not_found for an object that holds no job", async () => {
    const nobody = stateOf("job_does_not_exist");
    expect(await nobody.taskEvent("analyse", { type: "started", attempt: 1, seq: 1 }, { task_id: "analyse", attempt: 1 })).toEqual({ outcome: "not_found" });
    expect(await nobody.fail("render_failed", "boom")).toEqual({ changed: false, reason: "not_found", state: null });
    expect(await nobody.get()).toBeNull();
  });
});

describe("POST /jobs/{id}/cancel", { timeout: 30_000 }, () => {
  it("refunds everything for a pending job and reports it as failed/cancelled_by_user", async () => {
    const before = await accountCredits(acct.account_id);
    const ack = await newJob();
    const res = await post(acct.api_key, `/jobs/${ack.id}/cancel`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: ack.id, status: "failed", refund_credits: 65 });
    expect(await record(ack.id)).toMatchObject({
      status: "failed",
      refunded_credits: 65,
      error: { code: "cancelled_by_user", message: "Cancelled by user" },
    });
    expect(await accountCredits(acct.account_id)).toBe(before);
  });

  it.each([
    { progress: 10, refund: 78 },
    { progress: 30, refund: 52 },
    { progress: 60, refund: 26 },
    { progress: 80, refund: 0 },
  ])("refunds by tier for a running job at $progress % (cost 105 -> refund $refund)", async ({ progress, refund }) => {
    const { ack, render } = await runningJob(acct.api_key, minimalJob({ num_shorts: 4 }));
    await reachProgress(render, progress);
    const before = await accountCredits(acct.account_id);
    const res = await post(acct.api_key, `/jobs/${ack.id}/cancel`);
    expect(await res.json()).toEqual({ id: ack.id, status: "failed", refund_credits: refund });
    expect(await accountCredits(acct.account_id)).toBe(before + refund);
    expect((await record(ack.id)).refunded_credits).toBe(refund);
    const ledger = await ledgerOf(ack.id);
    expect(ledger).toEqual(refund > 0 ? [{ kind: "reserve", amount: -105 }, { kind: "refund", amount: refund }] : [{ kind: "reserve", amount: -105 }]);
  });

  it("answers 400 for completed and failed jobs and changes nothing", async () => {
    const completed = await startedJob(acct.api_key);
    await completeAtOnce(completed.render);
    const err = await expectError(await post(acct.api_key, `/jobs/${completed.ack.id}/cancel`), 400, "job_not_cancellable");
    expect(err.status).toBe("completed");

    const cancelled = await newJob();
    expect((await post(acct.api_key, `/jobs/${cancelled.id}/cancel`)).status).toBe(200);
    const credits = await accountCredits(acct.account_id);
    const again = await expectError(await post(acct.api_key, `/jobs/${cancelled.id}/cancel`), 400, "job_not_cancellable");
    expect(again.status).toBe("failed");
    expect(await accountCredits(acct.account_id)).toBe(credits);
    expect(await ledgerOf(cancelled.id)).toHaveLength(2);
  });

  it("answers 404 for another account's job and for unknown ids", async () => {
    const ack = await newJob();
    const other = await createAccount();
    await expectError(await post(other.api_key, `/jobs/${ack.id}/cancel`), 404, "job_not_found");
    await expectError(await post(acct.api_key, "/jobs/job_01ARZ3NDEKTSV4RRFFQ69G5FAV/cancel"), 404, "job_not_found");
    expect((await record(ack.id)).status).toBe("pending");
  });

  it("lets exactly one of a racing cancel and the last task's completion win", async () => {
    // Five races side by side, each on its own account (so each one's credits can be checked), each job at 20 %
    // (the analysis done, its one render task started) with that task's files stored.
    const outcomes = await Promise.all(
      [1, 2, 3, 4, 5].map(async () => {
        const owner = await createAccount({ plan: "pro", credits: 1_000, purchase: true });
        const { ack, render } = await startedJob(owner.api_key);
        const task = await startOnlyTask(render);
        const result = onlyTaskResult(task, await uploadFiles(render, SMALL_FILES));
        const before = await accountCredits(owner.account_id);
        const [cancel, complete] = await Promise.all([post(owner.api_key, `/jobs/${ack.id}/cancel`), postTaskEvent(task, { type: "completed", result })]);
        const rec = (await (await get(owner.api_key, `/jobs/${ack.id}`)).json()) as JobRecord;
        const credits = await accountCredits(owner.account_id);
        if (cancel.status === 200) {
          expect(complete.status).toBe(409);
          expect(((await complete.json()) as { error: { code: string } }).error.code).toBe("job_settled");
          expect(rec).toMatchObject({ status: "failed", refunded_credits: 48 });
          expect(credits).toBe(before + 48);
        } else {
          expect(cancel.status).toBe(400);
          expect(complete.status).toBe(200);
          expect(rec).toMatchObject({ status: "completed", refunded_credits: 0 });
          expect(credits).toBe(before);
        }
        return rec.status;
      }),
    );
    expect(outcomes.every((s) => s === "failed" || s === "completed")).toBe(true);
  });
});

describe("status changes and webhooks (the JobState object enqueues them itself)", { timeout: 30_000 }, () => {
  it("every status change, and no progress within running, puts its events into the job's outbox", async () => {
    const box = await webhookBox();
    const { ack, render } = await claimedJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    const stub = stateOf(ack.id);
    // The first report is a progress report (its "started" was lost): it makes the job running all the same.
    await taskEvent(render, { type: "progress", stage: "resolving", fraction: 0.25 });
    await taskEvent(render, { type: "progress", stage: "analysing", fraction: 0.5 });
    expect((await stub.listWebhooks()).map((d) => d.event)).toEqual(["job.running"]);
    await stub.cancel();
    const deliveries = await stub.listWebhooks();
    expect(deliveries.map((d) => d.event)).toEqual(["job.running", "job.failed"]);
    expect(deliveries.every((d) => d.url === box.url)).toBe(true);
  });

  it("an event that cannot be built is contained: the change stays and the events before it still go out", async () => {
    const box = await webhookBox();
    const { ack, render } = await claimedJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    const stub = stateOf(ack.id);
    // This job's object runs without PUBLIC_BASE_URL (a misconfigured deployment): job.completed's links cannot be built.
    await runInDurableObject(stub, (instance) => {
      (instance as unknown as { env: Env }).env = { ...env, PUBLIC_BASE_URL: "" };
    });
    // One report takes the job pending -> running -> completed (the analysis found nothing to render): job.running
    // is enqueued, job.completed cannot be.
    await completeAtOnce(render);
    expect((await record(ack.id)).status).toBe("completed");
    expect((await stub.listWebhooks()).map((d) => d.event)).toEqual(["job.running"]);
  });
});

describe("GET /jobs/{id}/results", { timeout: 30_000 }, () => {
  it("answers 409 with the current status until the job is completed", async () => {
    const { ack, render } = await claimedJob(acct.api_key);
    expect((await expectError(await get(acct.api_key, ack.results_endpoint), 409, "job_not_completed")).status).toBe("pending");
    await taskEvent(render, { type: "progress", stage: "analysing", fraction: 0.5 });
    expect((await expectError(await get(acct.api_key, ack.results_endpoint), 409, "job_not_completed")).status).toBe("running");
    await failJob(render, { code: "render_failed", message: "boom" });
    expect((await expectError(await get(acct.api_key, ack.results_endpoint), 409, "job_not_completed")).status).toBe("failed");
  });

  it("publishes the stored result once completed", async () => {
    const { ack, render } = await startedJob(acct.api_key);
    await completeSmall(render);
    const res = await get(acct.api_key, ack.results_endpoint);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { job_id: string; status: string; deliverables: { type: string; url: string }[]; zip_url: string; links_expire_at: string };
    expect(body).toMatchObject({ job_id: ack.id, status: "completed" });
    // The render task's files, then the finalising step's two documents.
    expect(body.deliverables.map((d) => d.type)).toEqual(["reel", "short", "captions", "metadata", "manifest"]);
    expect(body.zip_url).toContain(`/jobs/${ack.id}/download-all?token=`);
    const other = await createAccount();
    await expectError(await get(other.api_key, ack.results_endpoint), 404, "job_not_found");
  });
});

describe("POST /jobs/{id}/feedback", { timeout: 30_000 }, () => {
  it("answers 409 unless the job is completed", async () => {
    const ack = await newJob();
    const err = await expectError(await post(acct.api_key, `/jobs/${ack.id}/feedback`, { positive: true }), 409, "job_not_completed");
    expect(err.status).toBe("pending");
  });

  it("validates the vote and overwrites a previous one", async () => {
    const { ack, render } = await startedJob(acct.api_key);
    await completeAtOnce(render);
    const url = `/jobs/${ack.id}/feedback`;

    expect((await expect422(await post(acct.api_key, url, {}))).get("positive")).toEqual(["is required"]);
    expect((await expect422(await post(acct.api_key, url, { positive: "yes" }))).get("positive")).toEqual(["must be true or false"]);
    expect((await expect422(await post(acct.api_key, url, { positive: true, reason: "timing_off" }))).get("reason")).toEqual(["applies only to negative votes"]);
    expect((await expect422(await post(acct.api_key, url, { positive: false, reason: "boring" }))).has("reason")).toBe(true);
    expect((await expect422(await post(acct.api_key, url, { positive: false, reason: "other" }))).get("notes")).toEqual(["is required when reason is other"]);
    expect((await expect422(await post(acct.api_key, url, { positive: false, reason: "other", notes: "   " }))).get("notes")).toEqual(["is required when reason is other"]);

    const first = await post(acct.api_key, url, { positive: false, reason: "other", notes: "Music was muted" });
    expect(first.status).toBe(204);
    expect(await first.text()).toBe("");
    const row1 = await env.DB.prepare("SELECT positive, reason, notes FROM job_feedback WHERE job_id = ?").bind(ack.id).first();
    expect(row1).toEqual({ positive: 0, reason: "other", notes: "Music was muted" });

    expect((await post(acct.api_key, url, { positive: true })).status).toBe(204);
    expect((await post(acct.api_key, url, { positive: false, reason: "wrong_moments" })).status).toBe(204);
    const rows = await env.DB.prepare("SELECT positive, reason, notes FROM job_feedback WHERE job_id = ?").bind(ack.id).all();
    expect(rows.results).toEqual([{ positive: 0, reason: "wrong_moments", notes: null }]);
  });

  it("answers 404 for another account's job", async () => {
    const ack = await newJob();
    const other = await createAccount();
    await expectError(await post(other.api_key, `/jobs/${ack.id}/feedback`, { positive: true }), 404, "job_not_found");
  });
});
