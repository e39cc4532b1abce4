import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobPlan, RenderTaskRequest, ShortTask } from "../../common/contract/job-plan";
import { PresignedRequest } from "../../common/contract/render";
import { rendererJobToken } from "../../worker/src/artifacts/links";
import type { TaskRecord } from "../../worker/src/orchestration/task-book";
import { createAccount, expectError, post, type TestAccount } from "./helpers";
import { bytesOf, callWithEnv, jobState, putTaskFile, taskFilePath } from "./job-steps";
import { completeRenderTask, plannedJob, taskEvent, testPlan, waitForStart } from "./task-flow";

/**
 * Storage scoped per task attempt (issue 23, point 6), in the Workers pool with the real Durable Object, queue and
 * R2 binding: a render task's token opens only the files that task makes (and, to read, the ones it reads), only
 * while its attempt is current, on both upload modes' routes; the job's own token no longer opens any file of an
 * attempt dispatched since. The names come from common/plan/task-files.ts; the renderer names its files with the
 * same functions (test/renderer/pipeline/render-task.test.ts checks that each task kind stores exactly those).
 */

const R2 = { R2_ACCESS_KEY_ID: "AKIDSCOPE", R2_SECRET_ACCESS_KEY: "scope-secret", R2_S3_ENDPOINT: "http://127.0.0.1:9000/" };

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

/** The test plan with a second short (its own task), as a job asking for two shorts would have. */
function twoShorts(jobId: string): JobPlan {
  const plan = testPlan(jobId);
  const first = plan.tasks.find((t): t is ShortTask => t.kind === "short")!;
  plan.moments.push({ ...plan.moments[2]!, id: "m4", start: 1500, end: 1530, peak: 1515 });
  plan.shorts.push({ ...plan.shorts[0]!, index: 2, moment_id: "m4" });
  plan.tasks.push({ ...first, id: "short-02", index: 2, moment_id: "m4", start: 1500, end: 1530, peak: 1515 });
  return plan;
}

/** A job rendering the two-shorts plan, and the start requests of its tasks that run at once. */
async function renderingJob() {
  const { ack, render: analysis } = await plannedJob(acct.api_key, { num_shorts: 2 }, twoShorts);
  const [short1, short2, moment1] = await Promise.all(["short-01", "short-02", "reel-balanced-m01"].map((id) => waitForStart(ack.id, id)));
  return { id: ack.id, analysis, short1: short1!, short2: short2!, moment1: moment1! };
}

/** POST {operation} to a task's presigned storage route (the same attempt path, "storage" instead of "artifacts"). */
function presign(task: RenderTaskRequest, name: string, body: unknown, token: string | null = task.upload.mode === "s3" ? null : task.upload.token) {
  const path = `/internal/jobs/${task.job_id}/tasks/${task.task.id}/attempts/${task.task.attempt}/storage/${name}`;
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  return callWithEnv(R2, path, { method: "POST", headers, body: JSON.stringify(body) });
}

/** Every operation that writes an object. */
const WRITES = [
  { operation: "put" },
  { operation: "create_multipart", content_type: "video/mp4" },
  { operation: "upload_part", upload_id: "u-1", part_number: 1 },
  { operation: "complete_multipart", upload_id: "u-1", size_bytes: 10, parts: [{ part_number: 1, etag: "e" }] },
];

/** The job-wide renderer token Workers before per-attempt tokens handed out (legacy paths only). */
const jobToken = (jobId: string) => rendererJobToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, jobId);

const stored = async (jobId: string, name: string) => (await env.ARTIFACTS.head(`jobs/${jobId}/${name}`)) !== null;

describe("a render task's storage token opens only the files that task makes", () => {
  let job: Awaited<ReturnType<typeof renderingJob>>;
  beforeAll(async () => {
    job = await renderingJob();
  });

  it("presigned: short 1's task cannot presign short 2, another task's reel part, the reel, the manifest, the metadata or the stored analysis", async () => {
    for (const name of ["short-02.mp4", "short-02.srt", "part-balanced-000.mp4", "reel-balanced.mp4", "manifest.json", "metadata.json", "reel-balanced.otio", "analysis.json.gz"]) {
      for (const op of [...WRITES, { operation: "get" }, { operation: "head" }, { operation: "abort_multipart", upload_id: "u-1" }]) {
        const err = await expectError(await presign(job.short1, name, op), 403, "outside_task_scope");
        expect(err.message, `${op.operation} ${name}`).toMatch(new RegExp(`^Task short-01 may not (write|read) ${name.replace(/\./g, "\\.")}: a task's storage token opens only the files that task makes( or reads)?\\.$`));
      }
    }
  });

  it("presigned: its own files are presigned, each for its own key", async () => {
    for (const name of ["short-01.mp4", "short-01.jpg", "short-01.srt", "short-01.transcript.json"]) {
      const res = await presign(job.short1, name, { operation: "put" });
      expect(res.status, name).toBe(200);
      const url = new URL(PresignedRequest.parse(await res.json()).url);
      expect(url.pathname).toBe(`/highlight-artifacts/jobs/${job.id}/${name}`);
    }
  });

  it("a token opens only its own task's route: another task's token, the job's token and a token for another attempt are refused", async () => {
    const short2Token = job.short2.upload.mode === "s3" ? "" : job.short2.upload.token;
    for (const token of [await jobToken(job.id), short2Token, null]) {
      await expectError(await presign(job.short1, "short-01.mp4", { operation: "put" }, token), 401, "unauthorized");
      await expectError(await putTaskFile(job.short1, "short-01.mp4", bytesOf(1, 10), "video/mp4", true, token), 401, "unauthorized");
    }
    // Attempt 1's token on attempt 2's path (which the Worker never handed out yet) is not that attempt's token.
    const otherAttempt = { ...job.short1, task: { ...job.short1.task, attempt: 2 } };
    await expectError(await presign(otherAttempt, "short-01.mp4", { operation: "put" }, job.short1.upload.mode === "s3" ? null : job.short1.upload.token), 401, "unauthorized");
  });

  it("the job-wide paths take the job's token for no file of an attempt dispatched with its own token", async () => {
    const auth = { Authorization: `Bearer ${await jobToken(job.id)}` };
    const legacy = await callWithEnv(R2, `/internal/jobs/${job.id}/storage/short-01.mp4`, { method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify({ operation: "put" }) });
    await expectError(legacy, 403, "outside_task_scope");
    const put = await callWithEnv({}, `/internal/jobs/${job.id}/artifacts/manifest.json`, { method: "PUT", headers: { ...auth, "Content-Length": "2" }, body: "{}" });
    await expectError(put, 403, "outside_task_scope");
    expect(await stored(job.id, "manifest.json")).toBe(false);
  });

  it("worker mode: short 1's task cannot store short 2 or the manifest, nor read another task's part; its own files are stored", async () => {
    for (const name of ["short-02.mp4", "manifest.json", "part-balanced-000.mp4"]) {
      await expectError(await putTaskFile(job.short1, name, bytesOf(2, 100), "video/mp4", true), 403, "outside_task_scope");
      const start = await callWithEnv({}, taskFilePath(job.short1, name, "?uploads"), {
        method: "POST",
        headers: { Authorization: `Bearer ${job.short1.upload.mode === "s3" ? "" : job.short1.upload.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ size_bytes: 100 }),
      });
      await expectError(start, 403, "outside_task_scope");
      expect(await stored(job.id, name), name).toBe(false);
    }
    expect((await putTaskFile(job.moment1, "part-balanced-000.mp4", bytesOf(3, 1000), "video/mp4")).status).toBe(201);
    const read = await callWithEnv({}, taskFilePath(job.short1, "part-balanced-000.mp4"), { headers: { Authorization: `Bearer ${job.short1.upload.mode === "s3" ? "" : job.short1.upload.token}` } });
    await expectError(read, 403, "outside_task_scope");
    expect((await putTaskFile(job.short1, "short-01.srt", bytesOf(4, 50), "application/x-subrip")).status).toBe(201);
  });

  it("a reel's join reads its parts but cannot overwrite them; it stores the reel", async () => {
    const done = await renderingJob();
    for (const t of [done.moment1, done.short1, done.short2, await waitForStart(done.id, "reel-balanced-m02")]) await completeRenderTask(t);
    const join = await waitForStart(done.id, "reel-balanced-join");
    const token = join.upload.mode === "s3" ? "" : join.upload.token;
    const part = await callWithEnv({}, taskFilePath(join, "part-balanced-000.mp4"), { headers: { Authorization: `Bearer ${token}` } });
    expect(part.status).toBe(200);
    expect((await part.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect((await presign(join, "part-balanced-002.mp4", { operation: "get" })).status).toBe(200);
    await expectError(await putTaskFile(join, "part-balanced-000.mp4", bytesOf(5, 10), "video/mp4", true), 403, "outside_task_scope");
    await expectError(await presign(join, "part-balanced-000.mp4", { operation: "put" }), 403, "outside_task_scope");
    expect((await putTaskFile(join, "reel-balanced.jpg", bytesOf(6, 10), "image/jpeg")).status).toBe(201);
  });
});

describe("only the current attempt of a task may store", () => {
  it("an attempt that failed and was retried is refused; the new attempt stores; a finished task and a cancelled job are refused; an abort of its own upload is still allowed", async () => {
    const job = await renderingJob();
    await taskEvent(job.short1, { type: "started" });
    await taskEvent(job.short1, { type: "failed", error: { code: "render_failed", message: "ffmpeg exited 1" }, retryable: true });
    const second = await waitForStart(job.id, "short-01", 2);
    expect(second.upload.mode !== "s3" && second.upload.token).not.toBe(job.short1.upload.mode !== "s3" && job.short1.upload.token);

    const stale = await expectError(await presign(job.short1, "short-01.mp4", { operation: "put" }), 409, "task_superseded");
    expect(stale.message).toBe("Attempt 1 of task short-01 is no longer current; stop it.");
    await expectError(await putTaskFile(job.short1, "short-01.mp4", bytesOf(7, 10), "video/mp4", true), 409, "task_superseded");
    expect(await stored(job.id, "short-01.mp4")).toBe(false);
    // Cleaning up an upload it left behind stays allowed (it ends an upload and never touches a stored object).
    expect((await presign(job.short1, "short-01.mp4", { operation: "abort_multipart", upload_id: "u-1" })).status).toBe(200);

    expect((await presign(second, "short-01.mp4", { operation: "put" })).status).toBe(200);
    expect((await putTaskFile(second, "short-01.mp4", bytesOf(8, 10), "video/mp4")).status).toBe(201);

    // Done: nothing more to store.
    await completeRenderTask(second);
    await expectError(await presign(second, "short-01.jpg", { operation: "put" }), 409, "task_superseded");

    // The job cancelled: no task of it stores anything, while aborting its own upload is fine.
    expect((await post(acct.api_key, `/jobs/${job.id}/cancel`)).status).toBe(200);
    const settled = await expectError(await presign(job.short2, "short-02.mp4", { operation: "put" }), 409, "job_not_running");
    expect((settled as Record<string, unknown>).status).toBe("failed");
    await expectError(await putTaskFile(job.short2, "short-02.mp4", bytesOf(9, 10), "video/mp4", true), 409, "job_not_running");
    expect((await presign(job.short2, "short-02.mp4", { operation: "abort_multipart", upload_id: "u-2" })).status).toBe(200);
    await expectError(await presign(job.short2, "short-01.mp4", { operation: "abort_multipart", upload_id: "u-2" }), 403, "outside_task_scope");
  });
});

describe("rollout: attempts dispatched before per-task scope", () => {
  it("the job-wide paths serve the files of an attempt claimed by the previous Worker (no scoped_storage) while it runs, and nothing once it ended", async () => {
    const job = await renderingJob();
    // The record as the previous Worker wrote it when it claimed the attempt: no scoped_storage.
    await runInDurableObject(jobState(job.id), async (_instance, state) => {
      const book = (await state.storage.get<TaskRecord[]>("tasks"))!;
      delete book.find((t) => t.id === "short-01")!.scoped_storage;
      await state.storage.put("tasks", book);
    });
    const auth = { Authorization: `Bearer ${await jobToken(job.id)}`, "Content-Type": "application/json" };
    const legacy = (name: string, op: unknown) => callWithEnv(R2, `/internal/jobs/${job.id}/storage/${name}`, { method: "POST", headers: auth, body: JSON.stringify(op) });
    expect((await legacy("short-01.mp4", { operation: "put" })).status).toBe(200);
    expect((await callWithEnv({}, `/internal/jobs/${job.id}/artifacts/short-01.srt`, { method: "PUT", headers: { ...auth, "Content-Length": "3" }, body: "abc" })).status).toBe(201);
    // Not the files of another task (its attempt has its own token), nor the finalising step's.
    for (const name of ["short-02.mp4", "manifest.json", "part-balanced-000.mp4"]) await expectError(await legacy(name, { operation: "put" }), 403, "outside_task_scope");
    await completeRenderTask(job.short1);
    await expectError(await legacy("short-01.mp4", { operation: "put" }), 403, "outside_task_scope");
  });
});
