import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TaskEvent, type JobPlan, type ShortTask } from "../../../common/contract/job-plan";
import { taskFiles } from "../../../common/plan/task-files";
import { StorageOperation, UploadTarget } from "../../../common/contract/render";
import { localRenderJob } from "../../../dev/render-cli/local-job";
import { silentLogger } from "../../../render-container/src/log";
import { runTask } from "../../../render-container/src/pipeline/run-task";
import { createRenderServer } from "../../../render-container/src/service/http-server";
import { TaskRegistry } from "../../../render-container/src/service/task-registry";
import { SMALL_VOD } from "../../dev/fixture-vods";
import { startRecorder } from "../../support/http-recorder";
import { serveVodForTests } from "../../support/twitch-fixture";
import { handMadePlan, planMoment, taskRequest } from "../pipeline/task-fixtures";
import { PresignedUploader, createUploader } from "../../../render-container/src/output/uploader";
import { completeMultipartUpload, createMultipartUpload, presignObjectRequest, type R2S3Access } from "../../../worker/src/artifacts/r2-presign";
import { startFakeS3 } from "../../support/fake-s3";

/**
 * Upload mode "presigned" (issue 23, point 6): the real renderer uploader holds only its task attempt's token; every R2
 * request it makes goes on a URL presigned by the Worker's own presigning code (worker/src/artifacts/r2-presign.ts),
 * checked by the fake S3, which recomputes query-string SigV4 with node:crypto. The Worker's route around that code
 * (auth, name and job checks) is tested in the Workers pool (test/worker/presigned-storage.test.ts); here a small
 * server stands where the route is, calling the same functions.
 */

const creds = { accessKeyId: "AKPRESIGN", secretAccessKey: "presign/secret+key", region: "auto" };
const TOKEN = "job-token-abc";

let dir: string;
let s3: Awaited<ReturnType<typeof startFakeS3>>;
let broker: Server;
let brokerUrl: string;
const brokerCalls: { name: string; op: StorageOperation }[] = [];
/** Plans of jobs whose tasks the broker holds to their files, as the Worker does (common/plan/task-files.ts). */
const plans = new Map<string, JobPlan>();
const refused: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "presigned-"));
  s3 = await startFakeS3(creds);
  const access: R2S3Access = { endpoint: s3.url, bucket: "bkt", accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey };
  broker = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    // The Worker's route: one task attempt's storage (worker/src/routes/internal-storage.ts).
    const m = /^\/internal\/jobs\/(job_\w+)\/tasks\/([a-z0-9-]+)\/attempts\/\d+\/storage\/([a-z0-9._-]+)$/.exec(req.url ?? "");
    if (req.headers.authorization !== `Bearer ${TOKEN}` || !m) return void res.writeHead(401).end();
    const [, jobId, taskId, name] = m as unknown as [string, string, string, string];
    const op = StorageOperation.parse(JSON.parse(Buffer.concat(chunks).toString()));
    brokerCalls.push({ name, op });
    const plan = plans.get(jobId);
    const spec = plan?.tasks.find((t) => t.id === taskId);
    const files = plan && spec ? taskFiles(spec, plan) : null;
    if (plan && !(op.operation === "get" || op.operation === "head" ? [...files!.writes, ...files!.reads] : files!.writes).includes(name)) {
      refused.push(`${op.operation} ${name}`);
      return void res.writeHead(403, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "outside_task_scope", message: `Task ${taskId} may not touch ${name}.` } }));
    }
    const key = `jobs/${jobId}/${name}`;
    const send = (status: number, body: unknown) => void res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    switch (op.operation) {
      case "put":
        return send(200, await presignObjectRequest(access, { method: "PUT", key }));
      case "get":
        return send(200, await presignObjectRequest(access, { method: "GET", key }));
      case "head":
        return send(200, await presignObjectRequest(access, { method: "HEAD", key }));
      case "upload_part":
        return send(200, await presignObjectRequest(access, { method: "PUT", key, query: { partNumber: String(op.part_number), uploadId: op.upload_id } }));
      case "abort_multipart":
        return send(200, await presignObjectRequest(access, { method: "DELETE", key, query: { uploadId: op.upload_id } }));
      case "create_multipart":
        return send(201, { upload_id: await createMultipartUpload(access, key, op.content_type ?? "application/octet-stream") });
      case "complete_multipart":
        await completeMultipartUpload(access, { key, uploadId: op.upload_id, parts: op.parts, sizeBytes: op.size_bytes });
        return send(201, { size_bytes: op.size_bytes });
    }
  });
  await new Promise<void>((r) => broker.listen(0, "127.0.0.1", r));
  brokerUrl = `http://127.0.0.1:${(broker.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await s3.close();
  await new Promise((r) => broker.close(r));
});

const storageUrl = (jobId = "job_p1", taskId = "short-01") => `${brokerUrl}/internal/jobs/${jobId}/tasks/${taskId}/attempts/1/storage`;
const target = (jobId = "job_p1") => UploadTarget.parse({ mode: "presigned", url: storageUrl(jobId), token: TOKEN });
const access = (): R2S3Access => ({ endpoint: s3.url, bucket: "bkt", accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey });

describe("uploads through presigned URLs (no R2 credentials in the renderer)", () => {
  it("puts a small file on a presigned URL: the fake S3 verifies the query signature, no Authorization header is sent", async () => {
    const file = path.join(dir, "short.srt");
    await writeFile(file, "1\n00:00:00,000 --> 00:00:01,000\nhello\n");
    const before = s3.requests.length;
    await expect(createUploader(target(), fetch).put("short-01.srt", file, "application/x-subrip")).resolves.toEqual({ size_bytes: 38 });
    expect(s3.signatureFailures).toEqual([]);
    expect(s3.objects.get("bkt/jobs/job_p1/short-01.srt")?.toString()).toContain("hello");
    const sent = s3.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: "PUT", url: expect.stringContaining("X-Amz-Signature=") });
    expect(sent[0]!.headers.authorization).toBeUndefined();
    expect(sent[0]!.url).not.toContain(creds.secretAccessKey);
  });

  it("uploads a large file in parts (the Worker creates and completes, each part on its own presigned URL) and reads it back", async () => {
    const file = path.join(dir, "reel.mp4");
    const data = randomBytes(2_600_000);
    await writeFile(file, data);
    const before = s3.requests.length;
    const up = new PresignedUploader(storageUrl(), TOKEN, fetch, 1_000_000, 1_000_000);
    await up.put("reel-balanced.mp4", file, "video/mp4");
    expect(s3.signatureFailures).toEqual([]);
    expect(s3.objects.get("bkt/jobs/job_p1/reel-balanced.mp4")?.equals(data)).toBe(true);
    expect(s3.uploads.size).toBe(0);
    const sent = s3.requests.slice(before);
    // Create and complete carry the Worker's Authorization header; the three parts are presigned.
    expect(sent.map((r) => `${r.method} ${r.url.includes("X-Amz-Signature=") ? "presigned" : r.headers.authorization ? "worker-signed" : "unsigned"}`)).toEqual([
      "POST worker-signed",
      "PUT presigned",
      "PUT presigned",
      "PUT presigned",
      "POST worker-signed",
    ]);
    const back = path.join(dir, "back", "reel.mp4");
    await expect(up.fetchTo("reel-balanced.mp4", back)).resolves.toEqual({ size_bytes: data.length });
    expect((await readFile(back)).equals(data)).toBe(true);
    expect(brokerCalls.filter((c) => c.name === "reel-balanced.mp4").map((c) => c.op.operation)).toEqual([
      "create_multipart",
      "upload_part",
      "upload_part",
      "upload_part",
      "complete_multipart",
      "get",
    ]);
  });

  it("aborts the multipart upload on a presigned DELETE when a part is refused", async () => {
    const file = path.join(dir, "refused.mp4");
    await writeFile(file, randomBytes(2_100_000));
    s3.intercept((r) => (r.method === "PUT" && r.url.includes("partNumber=2") ? 400 : undefined));
    try {
      const up = new PresignedUploader(storageUrl(), TOKEN, fetch, 1_000_000, 1_000_000);
      await expect(up.put("reel-hype.mp4", file, "video/mp4")).rejects.toThrow(/part 2/);
    } finally {
      s3.intercept(() => undefined);
    }
    expect(s3.uploads.size).toBe(0);
    expect(s3.requests.at(-1)).toMatchObject({ method: "DELETE", url: expect.stringContaining("X-Amz-Signature=") });
    expect(s3.objects.has("bkt/jobs/job_p1/reel-hype.mp4")).toBe(false);
  });
});

describe("what a presigned URL does not allow", () => {
  it("a URL for one object cannot write another: another key, another job, or another upload's part", async () => {
    const put = await presignObjectRequest(access(), { method: "PUT", key: "jobs/job_p2/short-01.mp4" });
    const other = put.url.replace("/jobs/job_p2/short-01.mp4", "/jobs/job_p2/short-02.mp4");
    const otherJob = put.url.replace("/jobs/job_p2/", "/jobs/job_other/");
    for (const url of [other, otherJob]) {
      const res = await fetch(url, { method: "PUT", body: "x" });
      expect(res.status).toBe(403);
      expect(await res.text()).toContain("SignatureDoesNotMatch");
    }
    // A GET URL does not PUT.
    const get = await presignObjectRequest(access(), { method: "GET", key: "jobs/job_p2/short-01.mp4" });
    expect((await fetch(get.url, { method: "PUT", body: "x" })).status).toBe(403);
    expect(s3.objects.has("bkt/jobs/job_p2/short-02.mp4") || s3.objects.has("bkt/jobs/job_other/short-01.mp4")).toBe(false);

    // An upload belongs to its key: a part URL signed for another key with this upload id finds no such upload.
    const uploadId = await createMultipartUpload(access(), "jobs/job_p2/reel-a.mp4", "video/mp4");
    const part = await presignObjectRequest(access(), { method: "PUT", key: "jobs/job_p2/reel-b.mp4", query: { partNumber: "1", uploadId } });
    const res = await fetch(part.url, { method: "PUT", body: "x" });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("NoSuchUpload");
    expect(s3.uploads.get(uploadId)?.size).toBe(0);
  });

  it("refuses a wrong signature and an expired URL", async () => {
    const key = "jobs/job_p3/short-01.mp4";
    const good = await presignObjectRequest(access(), { method: "PUT", key });
    const tampered = new URL(good.url);
    const sig = tampered.searchParams.get("X-Amz-Signature")!;
    tampered.searchParams.set("X-Amz-Signature", `${sig[0] === "0" ? "1" : "0"}${sig.slice(1)}`);
    expect((await fetch(tampered, { method: "PUT", body: "x" })).status).toBe(403);
    // Signed with another secret.
    const forged = await presignObjectRequest({ ...access(), secretAccessKey: "not-the-secret" }, { method: "PUT", key });
    expect((await fetch(forged.url, { method: "PUT", body: "x" })).status).toBe(403);
    // A longer X-Amz-Expires than was signed.
    const longer = new URL(good.url);
    longer.searchParams.set("X-Amz-Expires", "604800");
    expect((await fetch(longer, { method: "PUT", body: "x" })).status).toBe(403);
    expect(s3.signatureFailures.length).toBeGreaterThanOrEqual(3);
    expect(s3.objects.has(`bkt/${key}`)).toBe(false);

    // Signed 20 minutes ago for 15 minutes: valid signature, expired.
    const old = await presignObjectRequest(access(), { method: "PUT", key, ttlSeconds: 900, now: new Date(Date.now() - 20 * 60_000) });
    const res = await fetch(old.url, { method: "PUT", body: "x" });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("expired");
    expect(s3.expired).toHaveLength(1);
    expect(s3.objects.has(`bkt/${key}`)).toBe(false);
    // The same URL in time works.
    expect((await fetch(good.url, { method: "PUT", body: "ok" })).status).toBe(200);
    expect(s3.objects.get(`bkt/${key}`)?.toString()).toBe("ok");
  });
});

describe("a real render task in upload mode presigned", () => {
  const twitchServer = serveVodForTests(SMALL_VOD);
  // 8 s: what is under test is where its files go, not the render (as the service's hand-off test's short).
  const SHORT: ShortTask = {
    kind: "short", id: "short-01", index: 1, moment_id: "m1", start: 30, end: 38, peak: 34, snap: false, title_text: null,
    title: "A short", description: "d", tags: ["t"], expected_encode_seconds: 8,
  };

  it("renders a short and stores every file in R2 on presigned URLs: the task body and every request hold no credential", async () => {
    const events: TaskEvent[] = [];
    const worker = await startRecorder((q, res) => {
      events.push(TaskEvent.parse(JSON.parse(q.body.toString())));
      res.writeHead(200).end();
    });
    const root = await mkdtemp(path.join(os.tmpdir(), "presigned-task-"));
    const tasks = new TaskRegistry(root, (req, ctx) => runTask(req, ctx, { downloadConcurrency: 4, maxVideoBytesPerJob: 1e9, encodeConcurrency: 1, env: {} }), silentLogger, { maxTasks: 1 });
    const server = createRenderServer(tasks, silentLogger, { token: "svc" });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const job = await localRenderJob(
        { vod_url: `https://www.twitch.tv/videos/${SMALL_VOD.vodId}`, compilation_enabled: false, final_video_length_minutes: 0, num_shorts: 1, parameters: { shorts_crop_mode: "fit" } },
        { twitch: twitchServer(), jobId: "job_real", callback: { url: `${worker.url}/events`, token: "cb" }, upload: { mode: "presigned", url: storageUrl("job_real"), token: TOKEN } },
      );
      const plan = handMadePlan("job_real", SMALL_VOD.durationSeconds, [planMoment("m1", 30, 38, 34)], [SHORT]);
      // The broker now holds the task to its own files, as the Worker does.
      plans.set("job_real", plan);
      const request = taskRequest(job, plan, "short-01");
      expect(JSON.stringify(request)).not.toMatch(new RegExp(`${creds.secretAccessKey.replace(/[+/]/g, "\\$&")}|${creds.accessKeyId}|secret_access_key`));
      const before = s3.requests.length;
      const refusedBefore = s3.signatureFailures.length;
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/tasks`, { method: "POST", headers: { authorization: "Bearer svc", "content-type": "application/json" }, body: JSON.stringify(request) });
      expect(res.status).toBe(202);
      await expect.poll(() => events.some((e) => e.type === "completed" || e.type === "failed"), { timeout: 240_000 }).toBe(true);
      const end = events.at(-1)!;
      if (end.type !== "completed" || end.result.kind !== "short") throw new Error(JSON.stringify(end));
      // Every file the task reports is in the bucket under the job's folder, as large as reported.
      expect(end.result.artifacts.map((a) => a.name).sort()).toEqual(["short-01.jpg", "short-01.mp4", "short-01.srt", "short-01.transcript.json"]);
      for (const a of end.result.artifacts) expect(s3.objects.get(`bkt/jobs/job_real/${a.name}`)?.length, a.name).toBe(a.size_bytes);
      // Each went up on a presigned URL (no Authorization header), none was refused; so did the short's heard words
      // (kept for re-cuts, never a deliverable).
      const sent = s3.requests.slice(before);
      expect(sent.map((r) => r.method)).toEqual([...end.result.artifacts, "heard"].map(() => "PUT"));
      expect(s3.objects.has("bkt/jobs/job_real/short-01.heard.json")).toBe(true);
      expect(sent.every((r) => r.url.includes("X-Amz-Signature=") && r.headers.authorization === undefined)).toBe(true);
      expect(s3.signatureFailures.length).toBe(refusedBefore);
      // It asked for nothing outside its scope, and stored every file of it.
      expect(refused).toEqual([]);
      expect([...end.result.artifacts.map((a) => a.name), "short-01.heard.json"].sort()).toEqual(taskFiles(SHORT, plan)!.writes.sort());
    } finally {
      await new Promise((r) => server.close(r));
      await worker.close();
    }
  }, 300_000);
});
