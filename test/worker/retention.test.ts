import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobRecord } from "../../common/contract";
import { handleScheduled } from "../../worker/src/cron/scheduled";
import { call, createAccount, expectError, get, post, type TestAccount } from "./helpers";
import { record } from "./job-steps";
import { completeRenderTask, plannedJob, r2Keys, waitForStart } from "./task-flow";

/**
 * Retention (issue 23, point 4): R2's lifecycle rule deletes the files (a deploy step), the hourly cron only marks
 * records, in one statement; the API answers 410 from artifacts_expires_at on, so the answers and the record agree
 * whichever of the rule and the cron comes first.
 */
let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 1_000_000, purchase: true });
});

const DAY = 86_400_000;

async function runCron(at = Date.now()): Promise<void> {
  await handleScheduled(createScheduledController({ scheduledTime: at, cron: "17 * * * *" }), env, createExecutionContext());
}

async function marks(jobId: string): Promise<{ deleted: string | null; expires: string | null }> {
  return (await env.DB.prepare("SELECT artifacts_deleted_at AS deleted, artifacts_expires_at AS expires FROM jobs WHERE id = ?").bind(jobId).first<{ deleted: string | null; expires: string | null }>())!;
}

/** A job completed through its tasks, and its links as published while its files were available. */
async function completedJob(): Promise<{ id: string; zipUrl: string; fileUrl: string }> {
  const { ack } = await plannedJob(acct.api_key);
  for (const id of ["reel-balanced-m01", "reel-balanced-m02", "short-01"]) await completeRenderTask(await waitForStart(ack.id, id));
  await completeRenderTask(await waitForStart(ack.id, "reel-balanced-join"));
  const results = (await (await get(acct.api_key, `/jobs/${ack.id}/results`)).json()) as { zip_url: string; deliverables: { url: string }[] };
  return { id: ack.id, zipUrl: results.zip_url, fileUrl: results.deliverables[0]!.url };
}

const setExpiry = (jobId: string, at: number) => env.DB.prepare("UPDATE jobs SET artifacts_expires_at = ? WHERE id = ?").bind(new Date(at).toISOString(), jobId).run();

async function expectGone(job: { id: string; zipUrl: string; fileUrl: string }, goneAt: string): Promise<void> {
  const results = await expectError(await get(acct.api_key, `/jobs/${job.id}/results`), 410, "artifacts_expired");
  expect(results).toMatchObject({ artifacts_deleted_at: goneAt });
  await expectError(await get(acct.api_key, `/jobs/${job.id}/download-all`), 410, "artifacts_expired");
  await expectError(await call(job.zipUrl.replace("https://api.test", "")), 410, "artifacts_expired");
  await expectError(await call(job.fileUrl.replace("https://api.test", "")), 410, "artifacts_expired");
}

describe("retention: R2's lifecycle rule deletes, the cron marks", { timeout: 90_000 }, () => {
  it("answers 410 from artifacts_expires_at on, before the cron ran; the cron marks the record with that time and leaves the files to the rule", async () => {
    const job = await completedJob();
    const files = await r2Keys(job.id);
    const before = await record(acct.api_key, job.id);
    const expires = Date.now() - 60_000;
    await setExpiry(job.id, expires);
    const expiresIso = new Date(expires).toISOString();

    await expectGone(job, expiresIso);
    await runCron();
    expect(await marks(job.id)).toEqual({ deleted: expiresIso, expires: expiresIso });
    await expectGone(job, expiresIso);
    // Deleting is the lifecycle rule's work, not the cron's; the record itself stays as it was.
    expect(await r2Keys(job.id)).toEqual(files);
    expect(await record(acct.api_key, job.id)).toEqual({ ...before, artifacts_expires_at: expiresIso });
  });

  it("when the rule deleted the files before the cron ran, every answer is the same 410, and so is the record after", async () => {
    const job = await completedJob();
    const expires = Date.now() - 3_600_000;
    await setExpiry(job.id, expires);
    await env.ARTIFACTS.delete((await r2Keys(job.id)).map((name) => `jobs/${job.id}/${name}`));
    const expiresIso = new Date(expires).toISOString();
    await expectGone(job, expiresIso);
    await runCron();
    expect((await marks(job.id)).deleted).toBe(expiresIso);
    await expectGone(job, expiresIso);
  });

  it("serves files until artifacts_expires_at, and the cron leaves such jobs unmarked", async () => {
    const job = await completedJob();
    await setExpiry(job.id, Date.now() + DAY);
    await runCron();
    expect((await marks(job.id)).deleted).toBeNull();
    expect((await get(acct.api_key, `/jobs/${job.id}/results`)).status).toBe(200);
  });

  it("marks every due job in one run, however many (250 here; the old sweep did 100 an hour)", async () => {
    const job = await completedJob();
    const columns = (await env.DB.prepare("PRAGMA table_info(jobs)").all<{ name: string }>()).results.map((c) => c.name);
    const copied = columns.map((c) => (c === "id" ? `'${job.id}-copy-' || n` : c === "artifacts_expires_at" ? "?2" : c)).join(", ");
    await env.DB.prepare(
      `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 250)
       INSERT INTO jobs (${columns.join(", ")}) SELECT ${copied} FROM jobs, seq WHERE jobs.id = ?1`,
    )
      .bind(job.id, new Date(Date.now() - DAY).toISOString())
      .run();
    await runCron();
    const unmarked = await env.DB.prepare("SELECT COUNT(*) AS n FROM jobs WHERE id LIKE ?1 AND artifacts_deleted_at IS NULL").bind(`${job.id}-copy-%`).first<{ n: number }>();
    expect(unmarked!.n).toBe(0);
  });

  it("marks a job that failed more than 30 days ago (its partial uploads left to the rule), not one that failed recently nor a running one; a later run changes nothing", async () => {
    const old = await plannedJob(acct.api_key);
    const recent = await plannedJob(acct.api_key);
    const running = await plannedJob(acct.api_key);
    for (const { ack } of [old, recent]) expect((await post(acct.api_key, `/jobs/${ack.id}/cancel`)).status).toBe(200);
    await env.ARTIFACTS.put(`jobs/${old.ack.id}/short-01.mp4`, new Uint8Array(3000));
    const backdate = (id: string, days: number) => env.DB.prepare("UPDATE jobs SET updated_at = ? WHERE id = ?").bind(new Date(Date.now() - days * DAY).toISOString(), id).run();
    await backdate(old.ack.id, 31);
    await backdate(recent.ack.id, 10);
    await runCron();
    const first = (await marks(old.ack.id)).deleted;
    expect(first).not.toBeNull();
    expect(await r2Keys(old.ack.id)).toEqual(["short-01.mp4"]);
    expect((await marks(recent.ack.id)).deleted).toBeNull();
    expect((await marks(running.ack.id)).deleted).toBeNull();
    expect(((await (await get(acct.api_key, `/jobs/${old.ack.id}`)).json()) as JobRecord).status).toBe("failed");
    await runCron(Date.now() + DAY);
    expect((await marks(old.ack.id)).deleted).toBe(first);
  });
});
