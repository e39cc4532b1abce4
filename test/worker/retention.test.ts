import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobRecord } from "../../common/contract";
import type { RenderTaskRequest } from "../../common/contract/job-plan";
import { handleScheduled } from "../../worker/src/cron/scheduled";
import { call, createAccount, expectError, get, type TestAccount } from "./helpers";
import { bytesOf, putArtifact, record, startedJob } from "./job-steps";
import { completeJob, taskEvent } from "./task-flow";

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

const DAY = 86_400_000;

async function runCron(at = Date.now()): Promise<void> {
  await handleScheduled(createScheduledController({ scheduledTime: at, cron: "17 * * * *" }), env, createExecutionContext());
}

async function storedNames(jobId: string): Promise<string[]> {
  return (await env.ARTIFACTS.list({ prefix: `jobs/${jobId}/` })).objects.map((o) => o.key.slice(`jobs/${jobId}/`.length)).sort();
}

async function deletedAt(jobId: string): Promise<string | null> {
  return (await env.DB.prepare("SELECT artifacts_deleted_at AS d FROM jobs WHERE id = ?").bind(jobId).first<{ d: string | null }>())!.d;
}

/** A completed job with its files in R2, and its results as published before the sweep. */
async function completedJob(): Promise<{ render: RenderTaskRequest; names: string[]; zipUrl: string; fileUrl: string }> {
  const { render } = await startedJob(acct.api_key);
  const { files } = await completeJob(render);
  const results = (await (await get(acct.api_key, `/jobs/${render.job_id}/results`)).json()) as { zip_url: string; deliverables: { url: string }[] };
  return { render, names: files.map((f) => f.ref.name).sort(), zipUrl: results.zip_url, fileUrl: results.deliverables[0]!.url };
}

const backdate = (jobId: string, column: "artifacts_expires_at" | "updated_at", daysAgo: number) =>
  env.DB.prepare(`UPDATE jobs SET ${column} = ? WHERE id = ?`).bind(new Date(Date.now() - daysAgo * DAY).toISOString(), jobId).run();

describe("retention sweep (hourly cron)", () => {
  it("deletes a completed job's files once artifacts_expires_at has passed, keeps the record, and answers 410 after", async () => {
    const { render, names, zipUrl, fileUrl } = await completedJob();
    const id = render.job_id;
    expect(await storedNames(id)).toEqual(names);
    await backdate(id, "artifacts_expires_at", 1);
    const before = await record(acct.api_key, id);

    await runCron();
    expect(await storedNames(id)).toEqual([]);
    expect(await deletedAt(id)).not.toBeNull();
    // The record stays, unchanged.
    expect(await record(acct.api_key, id)).toEqual(before);

    const results = await expectError(await get(acct.api_key, `/jobs/${id}/results`), 410, "artifacts_expired");
    expect(results.message).toMatch(/deleted .* 30-day retention/);
    await expectError(await get(acct.api_key, `/jobs/${id}/download-all`), 410, "artifacts_expired");
    await expectError(await call(zipUrl.replace("https://api.test", "")), 410, "artifacts_expired");
    await expectError(await call(fileUrl.replace("https://api.test", "")), 410, "artifacts_expired");
  });

  it("leaves completed jobs whose files are not yet due", async () => {
    const { render, names } = await completedJob();
    await backdate(render.job_id, "artifacts_expires_at", -1);
    await runCron();
    expect(await storedNames(render.job_id)).toEqual(names);
    expect(await deletedAt(render.job_id)).toBeNull();
    expect((await get(acct.api_key, `/jobs/${render.job_id}/results`)).status).toBe(200);
  });

  it("deletes partial uploads of a job that failed more than 30 days ago, not of one that failed recently", async () => {
    const old = await startedJob(acct.api_key);
    const recent = await startedJob(acct.api_key);
    for (const { render } of [old, recent]) {
      expect((await putArtifact(render.job_id, render.callback.token, "reel-balanced.mp4", bytesOf(5, 5000), "video/mp4")).status).toBe(201);
      await taskEvent(render, { type: "failed", retryable: false, error: { code: "render_failed", message: "FFmpeg failed." } });
    }
    await backdate(old.render.job_id, "updated_at", 31);
    await backdate(recent.render.job_id, "updated_at", 10);
    await runCron();
    expect(await storedNames(old.render.job_id)).toEqual([]);
    expect(await deletedAt(old.render.job_id)).not.toBeNull();
    expect(await storedNames(recent.render.job_id)).toEqual(["reel-balanced.mp4"]);
    expect(await deletedAt(recent.render.job_id)).toBeNull();
    expect(((await (await get(acct.api_key, `/jobs/${old.render.job_id}`)).json()) as JobRecord).status).toBe("failed");
  });

  it("never touches running jobs, and a later sweep does not repeat finished work", async () => {
    const running = await startedJob(acct.api_key);
    expect((await putArtifact(running.render.job_id, running.render.callback.token, "short-01.mp4", bytesOf(6, 3000), "video/mp4")).status).toBe(201);
    const { render } = await completedJob();
    await backdate(render.job_id, "artifacts_expires_at", 2);
    // A sweep scheduled 40 days from now: everything finished by then is due, running jobs still are not.
    await runCron(Date.now() + 40 * DAY);
    expect(await storedNames(running.render.job_id)).toEqual(["short-01.mp4"]);
    const first = await deletedAt(render.job_id);
    expect(first).not.toBeNull();
    await runCron(Date.now() + 41 * DAY);
    expect(await deletedAt(render.job_id)).toBe(first);
  });
});
