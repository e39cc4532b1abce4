import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobAck, JobRecord } from "../../common/contract";
import { createJob, webhookBox } from "./job-steps";
import { storedResult } from "./stored-result";
import { accountCredits, createAccount, expect422, expectError, get, minimalJob, post, postJob, type TestAccount } from "./helpers";

/** Lifecycle calls go to the job's JobState object over RPC, as the queue consumer and callbacks do. */
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


describe("JobState transitions", () => {
  it("goes pending -> running -> completed and mirrors every change into D1", async () => {
    const ack = await newJob();
    const stub = stateOf(ack.id);
    expect((await stub.get())?.status).toBe("pending");

    const running = await stub.markRunning();
    expect(running.changed).toBe(true);
    let rec = await record(ack.id);
    expect(rec).toMatchObject({ status: "running", progress: 0 });
    expect(rec.started_at).not.toBeNull();

    await stub.reportProgress("analysing", 42.9);
    rec = await record(ack.id);
    expect(rec).toMatchObject({ status: "running", progress: 42, stage: "analysing" });
    // Progress never goes backwards.
    await stub.reportProgress("selecting", 10);
    expect(await record(ack.id)).toMatchObject({ progress: 42, stage: "selecting" });

    const done = await stub.complete(storedResult);
    expect(done.changed).toBe(true);
    rec = await record(ack.id);
    expect(rec).toMatchObject({ status: "completed", progress: 100, stage: null, error: null, refunded_credits: 0 });
    expect(Date.parse(rec.artifacts_expires_at!) - Date.parse(rec.finished_at!)).toBe(30 * 86_400_000);
    expect(rec.updated_at).toBe(rec.finished_at);
    for (const t of [rec.created_at, rec.updated_at, rec.started_at!, rec.finished_at!, rec.artifacts_expires_at!]) {
      expect(t).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it("changes nothing on late calls after the end, and says so", async () => {
    const ack = await newJob();
    const stub = stateOf(ack.id);
    await stub.markRunning();
    await stub.complete(storedResult);
    const before = await record(ack.id);
    const credits = await accountCredits(acct.account_id);
    for (const late of [stub.markRunning(), stub.reportProgress("rendering_reels", 50), stub.complete(storedResult), stub.fail("render_failed", "late", { refund: "full" })]) {
      expect(await late).toMatchObject({ changed: false, reason: "terminal", state: { status: "completed" } });
    }
    expect(await record(ack.id)).toEqual(before);
    expect(await accountCredits(acct.account_id)).toBe(credits);
    expect(await ledgerOf(ack.id)).toEqual([{ kind: "reserve", amount: -65 }]);
  });

  it("refunds everything when a running job fails", async () => {
    const before = await accountCredits(acct.account_id);
    const ack = await newJob({ num_shorts: 4 });
    const stub = stateOf(ack.id);
    await stub.reportProgress("rendering_shorts", 90);
    const failed = await stub.fail("render_failed", "ffmpeg exited with code 1");
    expect(failed).toMatchObject({ changed: true, refund_credits: 105 });
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
    expect(await stateOf("job_does_not_exist").markRunning()).toEqual({ changed: false, reason: "not_found", state: null });
  });
});

describe("POST /jobs/{id}/cancel", () => {
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
    [10, 78],
    [30, 52],
    [60, 26],
    [80, 0],
  ])("refunds by tier for a running job at %i %% (cost 105 -> %i)", async (progress, refund) => {
    const ack = await newJob({ num_shorts: 4 });
    await stateOf(ack.id).reportProgress("analysing", progress);
    const before = await accountCredits(acct.account_id);
    const res = await post(acct.api_key, `/jobs/${ack.id}/cancel`);
    expect(await res.json()).toEqual({ id: ack.id, status: "failed", refund_credits: refund });
    expect(await accountCredits(acct.account_id)).toBe(before + refund);
    expect((await record(ack.id)).refunded_credits).toBe(refund);
    const ledger = await ledgerOf(ack.id);
    expect(ledger).toEqual(refund > 0 ? [{ kind: "reserve", amount: -105 }, { kind: "refund", amount: refund }] : [{ kind: "reserve", amount: -105 }]);
  });

  it("answers 400 for completed and failed jobs and changes nothing", async () => {
    const completed = await newJob();
    await stateOf(completed.id).markRunning();
    await stateOf(completed.id).complete(storedResult);
    const err = await expectError(await post(acct.api_key, `/jobs/${completed.id}/cancel`), 400, "job_not_cancellable");
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

  it("lets exactly one of a racing cancel and completion win", async () => {
    for (let i = 0; i < 5; i++) {
      const ack = await newJob();
      const stub = stateOf(ack.id);
      await stub.markRunning();
      const before = await accountCredits(acct.account_id);
      const [cancel, complete] = await Promise.all([post(acct.api_key, `/jobs/${ack.id}/cancel`), stub.complete(storedResult)]);
      const rec = await record(ack.id);
      if (cancel.status === 200) {
        expect(complete).toMatchObject({ changed: false, reason: "terminal" });
        expect(rec).toMatchObject({ status: "failed", refunded_credits: 48 });
        expect(await accountCredits(acct.account_id)).toBe(before + 48);
      } else {
        expect(cancel.status).toBe(400);
        expect(complete.changed).toBe(true);
        expect(rec).toMatchObject({ status: "completed", refunded_credits: 0 });
        expect(await accountCredits(acct.account_id)).toBe(before);
      }
    }
  });
});

describe("status changes and webhooks (the JobState object enqueues them itself)", () => {
  it("every status change, and no progress within running, puts its events into the job's outbox", async () => {
    const box = await webhookBox();
    const { ack } = await createJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    const stub = stateOf(ack.id);
    await stub.reportProgress("resolving", 5);
    await stub.reportProgress("analysing", 20);
    expect((await stub.listWebhooks()).map((d) => d.event)).toEqual(["job.running"]);
    await stub.cancel();
    const deliveries = await stub.listWebhooks();
    expect(deliveries.map((d) => d.event)).toEqual(["job.running", "job.failed"]);
    expect(deliveries.every((d) => d.url === box.url)).toBe(true);
  });

  it("an event that cannot be built is contained: the change stays and the events before it still go out", async () => {
    const box = await webhookBox();
    const { ack } = await createJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    const stub = stateOf(ack.id);
    // pending -> completed without a stored result: job.running is enqueued, job.completed has nothing to link to.
    expect((await stub.complete()).changed).toBe(true);
    expect((await record(ack.id)).status).toBe("completed");
    expect((await stub.listWebhooks()).map((d) => d.event)).toEqual(["job.running"]);
  });
});

describe("GET /jobs/{id}/results", () => {
  it("answers 409 with the current status until the job is completed", async () => {
    const ack = await newJob();
    expect((await expectError(await get(acct.api_key, ack.results_endpoint), 409, "job_not_completed")).status).toBe("pending");
    await stateOf(ack.id).reportProgress("analysing", 30);
    expect((await expectError(await get(acct.api_key, ack.results_endpoint), 409, "job_not_completed")).status).toBe("running");
    await stateOf(ack.id).fail("render_failed", "boom");
    expect((await expectError(await get(acct.api_key, ack.results_endpoint), 409, "job_not_completed")).status).toBe("failed");
  });

  it("publishes the stored result once completed", async () => {
    const ack = await newJob();
    await stateOf(ack.id).markRunning();
    await stateOf(ack.id).complete(storedResult);
    const res = await get(acct.api_key, ack.results_endpoint);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { job_id: string; status: string; deliverables: { type: string; url: string }[]; zip_url: string; links_expire_at: string };
    expect(body).toMatchObject({ job_id: ack.id, status: "completed" });
    expect(body.deliverables.map((d) => d.type)).toEqual(["reel", "short", "captions"]);
    expect(body.zip_url).toContain(`/jobs/${ack.id}/download-all?token=`);
    const other = await createAccount();
    await expectError(await get(other.api_key, ack.results_endpoint), 404, "job_not_found");
  });
});

describe("POST /jobs/{id}/feedback", () => {
  it("answers 409 unless the job is completed", async () => {
    const ack = await newJob();
    const err = await expectError(await post(acct.api_key, `/jobs/${ack.id}/feedback`, { positive: true }), 409, "job_not_completed");
    expect(err.status).toBe("pending");
  });

  it("validates the vote and overwrites a previous one", async () => {
    const ack = await newJob();
    await stateOf(ack.id).markRunning();
    await stateOf(ack.id).complete(storedResult);
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
