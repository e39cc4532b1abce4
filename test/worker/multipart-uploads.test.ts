import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { reelPartName, type JobPlan, type ReelMomentTask, type RenderTaskRequest } from "../../common/contract/job-plan";
import { rendererTaskToken } from "../../worker/src/artifacts/links";
import { createAccount, expectError, post, type TestAccount } from "./helpers";
import { bytesOf, callWithEnv, sameBytes, taskFilePath } from "./job-steps";
import { completeRenderTask, FIRST_TASKS, plannedJob, testPlan, waitForStart } from "./task-flow";

/**
 * Multipart uploads through the Worker (upload mode "worker", no R2 API credentials) against the real R2 binding
 * of the Workers pool. vitest.config.ts sets UPLOAD_PART_BYTES to 5 MiB, R2's smallest part (Miniflare enforces it
 * like R2 does), so a file of a few parts stays small.
 */
const MiB = 1024 * 1024;
const PART = 5 * MiB;

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

/** The additions internal errors carry beyond the public error envelope. */
const extra = (error: object) => error as Record<string, unknown>;

/** Where one task attempt stores its files: its job, its storage route (upload mode "worker") and its token. */
interface TaskStore {
  job_id: string;
  path: string;
  token: string;
}

/**
 * The test plan with its first reel moment carrying 12 teaser snippets: one task that stores the reel parts
 * 000-012 (P(n)), so these tests, which are about the upload routes, have files enough in one task's scope.
 */
function manyParts(jobId: string): JobPlan {
  const plan = testPlan(jobId);
  const [m1, m2, join] = plan.tasks as [ReelMomentTask, ReelMomentTask, Extract<JobPlan["tasks"][number], { kind: "reel_join" }>];
  Object.assign(m1, { position: 12, teasers: Array.from({ length: 12 }, (_, i) => ({ position: i, start: 118, end: 119 })) });
  Object.assign(m2, { position: 13 });
  Object.assign(join, { pieces: 14 });
  return plan;
}
const P = (n: number) => reelPartName("balanced", n);

/** A running job and the reel moment task that stores P(0)-P(12), started through the real queue: its upload target. */
async function runningJob(apiKey: string): Promise<{ ack: { id: string }; render: TaskStore }> {
  const { ack } = await plannedJob(apiKey, {}, manyParts);
  return { ack, render: storeOf(await waitForStart(ack.id, "reel-balanced-m01")) };
}

function storeOf(task: RenderTaskRequest): TaskStore {
  if (task.upload.mode !== "worker") throw new Error(task.upload.mode);
  return { job_id: task.job_id, path: taskFilePath(task, "").slice(0, -1), token: task.upload.token };
}

interface Started {
  upload_id: string;
  part_size_bytes: number;
  part_count: number;
}

const fileUrl = (task: TaskStore, name: string, query = "") => `${task.path}/${name}${query}`;
const auth = (token: string | null): Record<string, string> => (token === null ? {} : { Authorization: `Bearer ${token}` });

// In-process calls (callWithEnv): a body the Worker refuses unread would otherwise surface as "Network connection
// lost" on the test runner's side of the pipe.
function startUpload(task: TaskStore, token: string | null, name: string, body: unknown): Promise<Response> {
  return callWithEnv({}, fileUrl(task, name, "?uploads"), {
    method: "POST",
    headers: { ...auth(token), "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function putPart(task: TaskStore, token: string | null, name: string, uploadId: string, partNumber: number | string, bytes: Uint8Array, headers: Record<string, string> = {}): Promise<Response> {
  return callWithEnv({}, fileUrl(task, name, `?uploadId=${encodeURIComponent(uploadId)}&partNumber=${partNumber}`), {
    method: "PUT",
    headers: { ...auth(token), "Content-Length": String(bytes.byteLength), ...headers },
    body: bytes,
  });
}

function completeUpload(task: TaskStore, token: string | null, name: string, uploadId: string, parts: unknown): Promise<Response> {
  return callWithEnv({}, fileUrl(task, name, `?uploadId=${encodeURIComponent(uploadId)}`), {
    method: "POST",
    headers: { ...auth(token), "Content-Type": "application/json" },
    body: JSON.stringify({ parts }),
  });
}

function abortUpload(task: TaskStore, token: string | null, name: string, uploadId: string): Promise<Response> {
  return callWithEnv({}, fileUrl(task, name, `?uploadId=${encodeURIComponent(uploadId)}`), { method: "DELETE", headers: auth(token) });
}

async function started(task: TaskStore, token: string, name: string, size: number, contentType = "video/mp4"): Promise<Started> {
  const res = await startUpload(task, token, name, { size_bytes: size, content_type: contentType });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Started;
}

/** Uploads part `n` of `data` (the slice the plan implies); returns its etag. */
async function sendPart(render: TaskStore, name: string, up: Started, data: Uint8Array, n: number): Promise<string> {
  const slice = data.subarray((n - 1) * up.part_size_bytes, Math.min(data.byteLength, n * up.part_size_bytes));
  const res = await putPart(render, render.token, name, up.upload_id, n, slice);
  expect(res.status, await res.clone().text()).toBe(200);
  const body = (await res.json()) as { part_number: number; etag: string };
  expect(body.part_number).toBe(n);
  return body.etag;
}

async function stored(jobId: string, name: string): Promise<Uint8Array | null> {
  const object = await env.ARTIFACTS.get(`jobs/${jobId}/${name}`);
  return object ? new Uint8Array(await object.arrayBuffer()) : null;
}

// Each test moves a few 5 MiB parts through the Worker: more than the default 5 s when the machine is loaded.
describe("multipart upload through the Worker", { timeout: 30_000 }, () => {
  let render: Awaited<ReturnType<typeof runningJob>>["render"];
  beforeAll(async () => {
    ({ render } = await runningJob(acct.api_key));
  });

  it("stores a file sent in several parts, in any order and with a part sent twice, byte for byte", async () => {
    const name = P(0);
    const data = bytesOf(7, 2 * PART + 12_345);
    const up = await started(render, render.token, name, data.byteLength);
    expect(up).toMatchObject({ part_size_bytes: PART, part_count: 3 });
    const etags = new Map<number, string>();
    for (const n of [3, 1, 2]) etags.set(n, await sendPart(render, name, up, data, n));
    // A retried part replaces the first one; the completion names the etag of the one that counts.
    etags.set(2, await sendPart(render, name, up, data, 2));
    const parts = [2, 3, 1].map((n) => ({ part_number: n, etag: etags.get(n)! }));
    const res = await completeUpload(render, render.token, name, up.upload_id, parts);
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toEqual({ name, size_bytes: data.byteLength });
    expect(sameBytes((await stored(render.job_id, name))!, data)).toBe(true);
    expect((await env.ARTIFACTS.head(`jobs/${render.job_id}/${name}`))!.httpMetadata?.contentType).toBe("video/mp4");

    // A completion repeated after it succeeded (its first answer lost) gets the same answer, not an error.
    const again = await completeUpload(render, render.token, name, up.upload_id, parts);
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual({ name, size_bytes: data.byteLength });
  });

  it("a file of exactly one part size and a file smaller than one part are one part each", async () => {
    for (const [name, size] of [[P(1), PART], [P(2), 10]] as const) {
      const data = bytesOf(size, size);
      const up = await started(render, render.token, name, size);
      expect(up.part_count).toBe(1);
      const etag = await sendPart(render, name, up, data, 1);
      expect((await completeUpload(render, render.token, name, up.upload_id, [{ part_number: 1, etag }])).status).toBe(201);
      expect(sameBytes((await stored(render.job_id, name))!, data)).toBe(true);
    }
  });

  it("refuses parts of the wrong size before storing anything, and part numbers outside the upload", async () => {
    const name = P(3);
    const data = bytesOf(8, PART + 1000);
    const up = await started(render, render.token, name, data.byteLength);
    const t = render.token;
    // Every part but the last is exactly the part size; the last holds the rest, no more and no less.
    const short = await expectError(await putPart(render, t, name, up.upload_id, 1, data.subarray(0, PART - 1)), 400, "wrong_part_size");
    expect(extra(short).expected_bytes).toBe(PART);
    await expectError(await putPart(render, t, name, up.upload_id, 1, data.subarray(0, PART + 1)), 400, "wrong_part_size");
    await expectError(await putPart(render, t, name, up.upload_id, 2, data.subarray(PART, PART + 999)), 400, "wrong_part_size");
    await expectError(await putPart(render, t, name, up.upload_id, 2, data.subarray(0, PART)), 400, "wrong_part_size");
    for (const n of [0, 3, -1, "1.5", "x", ""]) {
      await expectError(await putPart(render, t, name, up.upload_id, n, data.subarray(PART)), 422, "validation_failed");
    }
    // Content-Length is required, and the body must match it.
    const url = fileUrl(render, name, `?uploadId=${encodeURIComponent(up.upload_id)}&partNumber=2`);
    const streamOf = (bytes: Uint8Array) => new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(bytes), c.close()) });
    await expectError(await callWithEnv({}, url, { method: "PUT", headers: auth(t), body: streamOf(data.subarray(PART)), duplex: "half" } as RequestInit), 411, "length_required");
    const cut = await callWithEnv({}, url, { method: "PUT", headers: { ...auth(t), "Content-Length": "1000" }, body: streamOf(data.subarray(PART, PART + 400)), duplex: "half" } as RequestInit);
    await expectError(cut, 400, "upload_incomplete");
    // None of that left a part behind: completing with the one real part 1 and a guessed part 2 fails.
    const etag1 = await sendPart(render, name, up, data, 1);
    await expectError(await completeUpload(render, t, name, up.upload_id, [{ part_number: 1, etag: etag1 }, { part_number: 2, etag: etag1 }]), 400, "parts_missing");
    const etag2 = await sendPart(render, name, up, data, 2);
    expect((await completeUpload(render, t, name, up.upload_id, [{ part_number: 1, etag: etag1 }, { part_number: 2, etag: etag2 }])).status).toBe(201);
    expect(sameBytes((await stored(render.job_id, name))!, data)).toBe(true);
  });

  it("completes only with every part listed once, each with the etag its upload returned", async () => {
    const name = P(4);
    const data = bytesOf(9, 2 * PART + 5);
    const up = await started(render, render.token, name, data.byteLength);
    const t = render.token;
    const e1 = await sendPart(render, name, up, data, 1);
    const e3 = await sendPart(render, name, up, data, 3);
    // Part 2 never listed: named in the error.
    const missing = await expectError(await completeUpload(render, t, name, up.upload_id, [{ part_number: 1, etag: e1 }, { part_number: 3, etag: e3 }]), 400, "parts_missing");
    expect(extra(missing).missing_parts).toEqual([2]);
    // Part 2 listed but never uploaded; then a wrong etag for an uploaded part.
    await expectError(await completeUpload(render, t, name, up.upload_id, [1, 2, 3].map((n) => ({ part_number: n, etag: n === 2 ? e1 : n === 1 ? e1 : e3 }))), 400, "parts_missing");
    const e2 = await sendPart(render, name, up, data, 2);
    await expectError(await completeUpload(render, t, name, up.upload_id, [{ part_number: 1, etag: e1 }, { part_number: 2, etag: e2 }, { part_number: 3, etag: "not-an-etag" }]), 400, "parts_missing");
    // Listing a part twice, a part beyond the upload, or not a list at all.
    for (const bad of [
      [{ part_number: 1, etag: e1 }, { part_number: 1, etag: e1 }, { part_number: 2, etag: e2 }, { part_number: 3, etag: e3 }],
      [{ part_number: 1, etag: e1 }, { part_number: 2, etag: e2 }, { part_number: 3, etag: e3 }, { part_number: 4, etag: e3 }],
      [],
      [{ part_number: 1 }],
      "parts",
    ]) {
      await expectError(await completeUpload(render, t, name, up.upload_id, bad), 422, "validation_failed");
    }
    expect(await stored(render.job_id, name)).toBeNull();
    const ok = await completeUpload(render, t, name, up.upload_id, [{ part_number: 1, etag: e1 }, { part_number: 2, etag: e2 }, { part_number: 3, etag: e3 }]);
    expect(ok.status).toBe(201);
    expect(sameBytes((await stored(render.job_id, name))!, data)).toBe(true);
  });

  it("an aborted upload takes no more parts, cannot be completed and stores nothing; aborting twice is fine", async () => {
    const name = P(5);
    const data = bytesOf(10, PART + 10);
    const up = await started(render, render.token, name, data.byteLength);
    const t = render.token;
    const e1 = await sendPart(render, name, up, data, 1);
    expect((await abortUpload(render, t, name, up.upload_id)).status).toBe(204);
    await expectError(await putPart(render, t, name, up.upload_id, 2, data.subarray(PART)), 404, "upload_not_found");
    await expectError(await completeUpload(render, t, name, up.upload_id, [{ part_number: 1, etag: e1 }, { part_number: 2, etag: e1 }]), 404, "upload_not_found");
    expect((await abortUpload(render, t, name, up.upload_id)).status).toBe(204);
    expect(await stored(render.job_id, name)).toBeNull();
  });

  it("validates the start: a positive whole size within 10,000 parts, JSON, and ?uploads or ?uploadId", async () => {
    const t = render.token;
    for (const body of [{ size_bytes: 0 }, { size_bytes: -5 }, { size_bytes: 1.5 }, { size_bytes: "10" }, {}, { size_bytes: 10_000 * PART + 1 }, { size_bytes: 10, content_type: "" }, "{not json"]) {
      await expectError(await startUpload(render, t, P(6), body), 422, "validation_failed");
    }
    expect((await startUpload(render, t, P(6), { size_bytes: 10_000 * PART })).status).toBe(201);
    await expectError(await callWithEnv({}, fileUrl(render, P(6)), { method: "POST", headers: auth(t), body: "{}" }), 400, "bad_request");
    await expectError(await startUpload(render, t, "Bad.mp4", { size_bytes: 10 }), 422, "validation_failed");
    const padded = JSON.stringify({ size_bytes: 10, content_type: "video/mp4", pad: "x".repeat(1024 * 1024) });
    await expectError(await startUpload(render, t, P(6), padded), 413, "payload_too_large");
  });

  it("accepts only upload ids it made for this job and file (signed), and no other job's token", async () => {
    const name = P(7);
    const data = bytesOf(11, 100);
    const up = await started(render, render.token, name, data.byteLength);
    const other = await runningJob(acct.api_key);
    const t = render.token;
    // Another file of the same job, another job (with its own valid token), a forged or cut id.
    await expectError(await putPart(render, t, P(8), up.upload_id, 1, data), 422, "validation_failed");
    await expectError(await putPart(other.render, other.render.token, name, up.upload_id, 1, data), 422, "validation_failed");
    const [body, sig] = up.upload_id.split(".");
    const forgedBody = btoa(atob(body!.replace(/-/g, "+").replace(/_/g, "/")).replace(`,${data.byteLength},`, `,${data.byteLength + 1},`)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    for (const bad of [`${forgedBody}.${sig}`, body!, `${body}.${sig}x`, "garbage", `${up.upload_id}.x`]) {
      await expectError(await putPart(render, t, name, bad, 1, data), 422, "validation_failed");
      await expectError(await completeUpload(render, t, name, bad, [{ part_number: 1, etag: "e" }]), 422, "validation_failed");
      await expectError(await abortUpload(render, t, name, bad), 422, "validation_failed");
    }
    await expectError(await putPart(render, t, name, "", 1, data), 422, "validation_failed");
    // No token, a wrong one, another job's: 401 on every multipart call.
    for (const token of [null, "nope", other.render.token]) {
      await expectError(await startUpload(render, token, name, { size_bytes: 10 }), 401, "unauthorized");
      await expectError(await putPart(render, token, name, up.upload_id, 1, data), 401, "unauthorized");
      await expectError(await completeUpload(render, token, name, up.upload_id, [{ part_number: 1, etag: "e" }]), 401, "unauthorized");
      await expectError(await abortUpload(render, token, name, up.upload_id), 401, "unauthorized");
    }
    const etag = await sendPart(render, name, up, data, 1);
    expect((await completeUpload(render, t, name, up.upload_id, [{ part_number: 1, etag }])).status).toBe(201);
  });

  it("takes parts only while the job runs; an upload of a cancelled job can still be aborted", async () => {
    const job = await runningJob(acct.api_key);
    const t = job.render.token;
    const data = bytesOf(12, PART + 1);
    const up = await started(job.render, t, P(0), data.byteLength);
    const e1 = await sendPart(job.render, P(0), up, data, 1);
    expect((await post(acct.api_key, `/jobs/${job.ack.id}/cancel`)).status).toBe(200);
    await expectError(await putPart(job.render, t, P(0), up.upload_id, 2, data.subarray(PART)), 409, "job_not_running");
    await expectError(await completeUpload(job.render, t, P(0), up.upload_id, [{ part_number: 1, etag: e1 }]), 400, "parts_missing");
    await expectError(await completeUpload(job.render, t, P(0), up.upload_id, [{ part_number: 1, etag: e1 }, { part_number: 2, etag: e1 }]), 409, "job_not_running");
    await expectError(await startUpload(job.render, t, P(1), { size_bytes: 10 }), 409, "job_not_running");
    expect((await abortUpload(job.render, t, P(0), up.upload_id)).status).toBe(204);

    const unknown = "job_01HXXXXXXXXXXXXXXXXXXXXXXX";
    const unknownTask = { job_id: unknown, path: `/internal/jobs/${unknown}/tasks/analyse/attempts/1/artifacts`, token: await rendererTaskToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, unknown, "analyse", 1) };
    await expectError(await startUpload(unknownTask, unknownTask.token, "analysis.json.gz", { size_bytes: 10 }), 404, "job_not_found");
  });
});

describe("one-request uploads stay below Cloudflare's request body limit", () => {
  it("refuses a single PUT above 100 MB with 413 before reading it, naming the multipart route", async () => {
    const { render } = await runningJob(acct.api_key);
    const res = await callWithEnv({}, fileUrl(render, P(0)), {
      method: "PUT",
      headers: { ...auth(render.token), "Content-Length": "100000001", "Content-Type": "video/mp4" },
      body: bytesOf(1, 16),
    });
    const err = await expectError(res, 413, "payload_too_large");
    expect(err.message).toContain("?uploads");
    expect(extra(err).max_bytes).toBe(100_000_000);
  });
});

describe("GET .../artifacts/{name}: a task reads what an earlier task stored", () => {
  // The reel's join of the test plan, reading a part its first moment's task stored.
  let render: TaskStore;
  let data: Uint8Array;
  beforeAll(async () => {
    const { ack } = await plannedJob(acct.api_key);
    for (const id of FIRST_TASKS) await completeRenderTask(await waitForStart(ack.id, id));
    render = storeOf(await waitForStart(ack.id, "reel-balanced-join"));
    data = (await stored(ack.id, P(0)))!;
    expect(data.byteLength).toBeGreaterThan(1000);
  });

  const getFile = (name: string, token: string | null, headers: Record<string, string> = {}) =>
    callWithEnv({}, fileUrl(render, name), { headers: { ...auth(token), ...headers } });

  it("streams the stored bytes with their type and length", async () => {
    const res = await getFile(P(0), render.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("video/mp4");
    expect(res.headers.get("content-length")).toBe(String(data.byteLength));
    expect(sameBytes(new Uint8Array(await res.arrayBuffer()), data)).toBe(true);
  });

  it("serves a byte range (a resumed download)", async () => {
    const res = await getFile(P(0), render.token, { Range: "bytes=1000-" });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 1000-${data.byteLength - 1}/${data.byteLength}`);
    expect(sameBytes(new Uint8Array(await res.arrayBuffer()), data.subarray(1000))).toBe(true);
    const past = await getFile(P(0), render.token, { Range: `bytes=${data.byteLength}-` });
    expect(past.status).toBe(416);
  });

  it("answers 404 for a file that is not there, 422 for a bad name, 401 without the task attempt's token", async () => {
    // The join's own reel, not stored yet.
    await expectError(await getFile("reel-balanced.mp4", render.token), 404, "file_not_found");
    await expectError(await getFile("Bad.mp4", render.token), 422, "validation_failed");
    await expectError(await getFile(P(0), null), 401, "unauthorized");
    const other = await runningJob(acct.api_key);
    await expectError(await getFile(P(0), other.render.token), 401, "unauthorized");
  });
});
