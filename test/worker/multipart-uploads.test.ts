import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { rendererJobToken } from "../../worker/src/artifacts/links";
import { createAccount, expectError, post, type TestAccount } from "./helpers";
import { runningJob } from "./drive-job";
import { bytesOf, callWithEnv, createJob, putArtifact, sameBytes } from "./job-steps";

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

interface Started {
  upload_id: string;
  part_size_bytes: number;
  part_count: number;
}

const fileUrl = (jobId: string, name: string, query = "") => `/internal/jobs/${jobId}/artifacts/${name}${query}`;
const auth = (token: string | null): Record<string, string> => (token === null ? {} : { Authorization: `Bearer ${token}` });

// In-process calls (callWithEnv): a body the Worker refuses unread would otherwise surface as "Network connection
// lost" on the test runner's side of the pipe.
function startUpload(jobId: string, token: string | null, name: string, body: unknown): Promise<Response> {
  return callWithEnv({}, fileUrl(jobId, name, "?uploads"), {
    method: "POST",
    headers: { ...auth(token), "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function putPart(jobId: string, token: string | null, name: string, uploadId: string, partNumber: number | string, bytes: Uint8Array, headers: Record<string, string> = {}): Promise<Response> {
  return callWithEnv({}, fileUrl(jobId, name, `?uploadId=${encodeURIComponent(uploadId)}&partNumber=${partNumber}`), {
    method: "PUT",
    headers: { ...auth(token), "Content-Length": String(bytes.byteLength), ...headers },
    body: bytes,
  });
}

function completeUpload(jobId: string, token: string | null, name: string, uploadId: string, parts: unknown): Promise<Response> {
  return callWithEnv({}, fileUrl(jobId, name, `?uploadId=${encodeURIComponent(uploadId)}`), {
    method: "POST",
    headers: { ...auth(token), "Content-Type": "application/json" },
    body: JSON.stringify({ parts }),
  });
}

function abortUpload(jobId: string, token: string | null, name: string, uploadId: string): Promise<Response> {
  return callWithEnv({}, fileUrl(jobId, name, `?uploadId=${encodeURIComponent(uploadId)}`), { method: "DELETE", headers: auth(token) });
}

async function started(jobId: string, token: string, name: string, size: number, contentType = "video/mp4"): Promise<Started> {
  const res = await startUpload(jobId, token, name, { size_bytes: size, content_type: contentType });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Started;
}

/** Uploads part `n` of `data` (the slice the plan implies); returns its etag. */
async function sendPart(render: { job_id: string; callback: { token: string } }, name: string, up: Started, data: Uint8Array, n: number): Promise<string> {
  const slice = data.subarray((n - 1) * up.part_size_bytes, Math.min(data.byteLength, n * up.part_size_bytes));
  const res = await putPart(render.job_id, render.callback.token, name, up.upload_id, n, slice);
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
    const name = "reel-balanced.mp4";
    const data = bytesOf(7, 2 * PART + 12_345);
    const up = await started(render.job_id, render.callback.token, name, data.byteLength);
    expect(up).toMatchObject({ part_size_bytes: PART, part_count: 3 });
    const etags = new Map<number, string>();
    for (const n of [3, 1, 2]) etags.set(n, await sendPart(render, name, up, data, n));
    // A retried part replaces the first one; the completion names the etag of the one that counts.
    etags.set(2, await sendPart(render, name, up, data, 2));
    const parts = [2, 3, 1].map((n) => ({ part_number: n, etag: etags.get(n)! }));
    const res = await completeUpload(render.job_id, render.callback.token, name, up.upload_id, parts);
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toEqual({ name, size_bytes: data.byteLength });
    expect(sameBytes((await stored(render.job_id, name))!, data)).toBe(true);
    expect((await env.ARTIFACTS.head(`jobs/${render.job_id}/${name}`))!.httpMetadata?.contentType).toBe("video/mp4");

    // A completion repeated after it succeeded (its first answer lost) gets the same answer, not an error.
    const again = await completeUpload(render.job_id, render.callback.token, name, up.upload_id, parts);
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual({ name, size_bytes: data.byteLength });
  });

  it("a file of exactly one part size and a file smaller than one part are one part each", async () => {
    for (const [name, size] of [["exact.mp4", PART], ["tiny.mp4", 10]] as const) {
      const data = bytesOf(size, size);
      const up = await started(render.job_id, render.callback.token, name, size);
      expect(up.part_count).toBe(1);
      const etag = await sendPart(render, name, up, data, 1);
      expect((await completeUpload(render.job_id, render.callback.token, name, up.upload_id, [{ part_number: 1, etag }])).status).toBe(201);
      expect(sameBytes((await stored(render.job_id, name))!, data)).toBe(true);
    }
  });

  it("refuses parts of the wrong size before storing anything, and part numbers outside the upload", async () => {
    const name = "sizes.mp4";
    const data = bytesOf(8, PART + 1000);
    const up = await started(render.job_id, render.callback.token, name, data.byteLength);
    const t = render.callback.token;
    // Every part but the last is exactly the part size; the last holds the rest, no more and no less.
    const short = await expectError(await putPart(render.job_id, t, name, up.upload_id, 1, data.subarray(0, PART - 1)), 400, "wrong_part_size");
    expect(extra(short).expected_bytes).toBe(PART);
    await expectError(await putPart(render.job_id, t, name, up.upload_id, 1, data.subarray(0, PART + 1)), 400, "wrong_part_size");
    await expectError(await putPart(render.job_id, t, name, up.upload_id, 2, data.subarray(PART, PART + 999)), 400, "wrong_part_size");
    await expectError(await putPart(render.job_id, t, name, up.upload_id, 2, data.subarray(0, PART)), 400, "wrong_part_size");
    for (const n of [0, 3, -1, "1.5", "x", ""]) {
      await expectError(await putPart(render.job_id, t, name, up.upload_id, n, data.subarray(PART)), 422, "validation_failed");
    }
    // Content-Length is required, and the body must match it.
    const url = fileUrl(render.job_id, name, `?uploadId=${encodeURIComponent(up.upload_id)}&partNumber=2`);
    const streamOf = (bytes: Uint8Array) => new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(bytes), c.close()) });
    await expectError(await callWithEnv({}, url, { method: "PUT", headers: auth(t), body: streamOf(data.subarray(PART)), duplex: "half" } as RequestInit), 411, "length_required");
    const cut = await callWithEnv({}, url, { method: "PUT", headers: { ...auth(t), "Content-Length": "1000" }, body: streamOf(data.subarray(PART, PART + 400)), duplex: "half" } as RequestInit);
    await expectError(cut, 400, "upload_incomplete");
    // None of that left a part behind: completing with the one real part 1 and a guessed part 2 fails.
    const etag1 = await sendPart(render, name, up, data, 1);
    await expectError(await completeUpload(render.job_id, t, name, up.upload_id, [{ part_number: 1, etag: etag1 }, { part_number: 2, etag: etag1 }]), 400, "parts_missing");
    const etag2 = await sendPart(render, name, up, data, 2);
    expect((await completeUpload(render.job_id, t, name, up.upload_id, [{ part_number: 1, etag: etag1 }, { part_number: 2, etag: etag2 }])).status).toBe(201);
    expect(sameBytes((await stored(render.job_id, name))!, data)).toBe(true);
  });

  it("completes only with every part listed once, each with the etag its upload returned", async () => {
    const name = "missing.mp4";
    const data = bytesOf(9, 2 * PART + 5);
    const up = await started(render.job_id, render.callback.token, name, data.byteLength);
    const t = render.callback.token;
    const e1 = await sendPart(render, name, up, data, 1);
    const e3 = await sendPart(render, name, up, data, 3);
    // Part 2 never listed: named in the error.
    const missing = await expectError(await completeUpload(render.job_id, t, name, up.upload_id, [{ part_number: 1, etag: e1 }, { part_number: 3, etag: e3 }]), 400, "parts_missing");
    expect(extra(missing).missing_parts).toEqual([2]);
    // Part 2 listed but never uploaded; then a wrong etag for an uploaded part.
    await expectError(await completeUpload(render.job_id, t, name, up.upload_id, [1, 2, 3].map((n) => ({ part_number: n, etag: n === 2 ? e1 : n === 1 ? e1 : e3 }))), 400, "parts_missing");
    const e2 = await sendPart(render, name, up, data, 2);
    await expectError(await completeUpload(render.job_id, t, name, up.upload_id, [{ part_number: 1, etag: e1 }, { part_number: 2, etag: e2 }, { part_number: 3, etag: "not-an-etag" }]), 400, "parts_missing");
    // Listing a part twice, a part beyond the upload, or not a list at all.
    for (const bad of [
      [{ part_number: 1, etag: e1 }, { part_number: 1, etag: e1 }, { part_number: 2, etag: e2 }, { part_number: 3, etag: e3 }],
      [{ part_number: 1, etag: e1 }, { part_number: 2, etag: e2 }, { part_number: 3, etag: e3 }, { part_number: 4, etag: e3 }],
      [],
      [{ part_number: 1 }],
      "parts",
    ]) {
      await expectError(await completeUpload(render.job_id, t, name, up.upload_id, bad), 422, "validation_failed");
    }
    expect(await stored(render.job_id, name)).toBeNull();
    const ok = await completeUpload(render.job_id, t, name, up.upload_id, [{ part_number: 1, etag: e1 }, { part_number: 2, etag: e2 }, { part_number: 3, etag: e3 }]);
    expect(ok.status).toBe(201);
    expect(sameBytes((await stored(render.job_id, name))!, data)).toBe(true);
  });

  it("an aborted upload takes no more parts, cannot be completed and stores nothing; aborting twice is fine", async () => {
    const name = "aborted.mp4";
    const data = bytesOf(10, PART + 10);
    const up = await started(render.job_id, render.callback.token, name, data.byteLength);
    const t = render.callback.token;
    const e1 = await sendPart(render, name, up, data, 1);
    expect((await abortUpload(render.job_id, t, name, up.upload_id)).status).toBe(204);
    await expectError(await putPart(render.job_id, t, name, up.upload_id, 2, data.subarray(PART)), 404, "upload_not_found");
    await expectError(await completeUpload(render.job_id, t, name, up.upload_id, [{ part_number: 1, etag: e1 }, { part_number: 2, etag: e1 }]), 404, "upload_not_found");
    expect((await abortUpload(render.job_id, t, name, up.upload_id)).status).toBe(204);
    expect(await stored(render.job_id, name)).toBeNull();
  });

  it("validates the start: a positive whole size within 10,000 parts, JSON, and ?uploads or ?uploadId", async () => {
    const t = render.callback.token;
    for (const body of [{ size_bytes: 0 }, { size_bytes: -5 }, { size_bytes: 1.5 }, { size_bytes: "10" }, {}, { size_bytes: 10_000 * PART + 1 }, { size_bytes: 10, content_type: "" }, "{not json"]) {
      await expectError(await startUpload(render.job_id, t, "x.mp4", body), 422, "validation_failed");
    }
    expect((await startUpload(render.job_id, t, "x.mp4", { size_bytes: 10_000 * PART })).status).toBe(201);
    await expectError(await callWithEnv({}, fileUrl(render.job_id, "x.mp4"), { method: "POST", headers: auth(t), body: "{}" }), 400, "bad_request");
    await expectError(await startUpload(render.job_id, t, "Bad.mp4", { size_bytes: 10 }), 422, "validation_failed");
    const padded = JSON.stringify({ size_bytes: 10, content_type: "video/mp4", pad: "x".repeat(1024 * 1024) });
    await expectError(await startUpload(render.job_id, t, "x.mp4", padded), 413, "payload_too_large");
  });

  it("accepts only upload ids it made for this job and file (signed), and no other job's token", async () => {
    const name = "owned.mp4";
    const data = bytesOf(11, 100);
    const up = await started(render.job_id, render.callback.token, name, data.byteLength);
    const other = await runningJob(acct.api_key);
    const t = render.callback.token;
    // Another file of the same job, another job (with its own valid token), a forged or cut id.
    await expectError(await putPart(render.job_id, t, "other.mp4", up.upload_id, 1, data), 422, "validation_failed");
    await expectError(await putPart(other.ack.id, other.render.callback.token, name, up.upload_id, 1, data), 422, "validation_failed");
    const [body, sig] = up.upload_id.split(".");
    const forgedBody = btoa(atob(body!.replace(/-/g, "+").replace(/_/g, "/")).replace(`,${data.byteLength},`, `,${data.byteLength + 1},`)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    for (const bad of [`${forgedBody}.${sig}`, body!, `${body}.${sig}x`, "garbage", `${up.upload_id}.x`]) {
      await expectError(await putPart(render.job_id, t, name, bad, 1, data), 422, "validation_failed");
      await expectError(await completeUpload(render.job_id, t, name, bad, [{ part_number: 1, etag: "e" }]), 422, "validation_failed");
      await expectError(await abortUpload(render.job_id, t, name, bad), 422, "validation_failed");
    }
    await expectError(await putPart(render.job_id, t, name, "", 1, data), 422, "validation_failed");
    // No token, a wrong one, another job's: 401 on every multipart call.
    for (const token of [null, "nope", other.render.callback.token]) {
      await expectError(await startUpload(render.job_id, token, name, { size_bytes: 10 }), 401, "unauthorized");
      await expectError(await putPart(render.job_id, token, name, up.upload_id, 1, data), 401, "unauthorized");
      await expectError(await completeUpload(render.job_id, token, name, up.upload_id, [{ part_number: 1, etag: "e" }]), 401, "unauthorized");
      await expectError(await abortUpload(render.job_id, token, name, up.upload_id), 401, "unauthorized");
    }
    const etag = await sendPart(render, name, up, data, 1);
    expect((await completeUpload(render.job_id, t, name, up.upload_id, [{ part_number: 1, etag }])).status).toBe(201);
  });

  it("takes parts only while the job runs; an upload of a cancelled job can still be aborted", async () => {
    const { ack } = await createJob(acct.api_key);
    const pendingToken = await rendererJobToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, ack.id);
    expect((await expectError(await startUpload(ack.id, pendingToken, "a.mp4", { size_bytes: 10 }), 409, "job_not_running")).status).toBe("pending");

    const job = await runningJob(acct.api_key);
    const t = job.render.callback.token;
    const data = bytesOf(12, PART + 1);
    const up = await started(job.ack.id, t, "late.mp4", data.byteLength);
    const e1 = await sendPart(job.render, "late.mp4", up, data, 1);
    expect((await post(acct.api_key, `/jobs/${job.ack.id}/cancel`)).status).toBe(200);
    await expectError(await putPart(job.ack.id, t, "late.mp4", up.upload_id, 2, data.subarray(PART)), 409, "job_not_running");
    await expectError(await completeUpload(job.ack.id, t, "late.mp4", up.upload_id, [{ part_number: 1, etag: e1 }]), 400, "parts_missing");
    await expectError(await completeUpload(job.ack.id, t, "late.mp4", up.upload_id, [{ part_number: 1, etag: e1 }, { part_number: 2, etag: e1 }]), 409, "job_not_running");
    await expectError(await startUpload(job.ack.id, t, "later.mp4", { size_bytes: 10 }), 409, "job_not_running");
    expect((await abortUpload(job.ack.id, t, "late.mp4", up.upload_id)).status).toBe(204);

    const unknown = "job_01HXXXXXXXXXXXXXXXXXXXXXXX";
    const unknownToken = await rendererJobToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, unknown);
    await expectError(await startUpload(unknown, unknownToken, "a.mp4", { size_bytes: 10 }), 404, "job_not_found");
  });
});

describe("one-request uploads stay below Cloudflare's request body limit", () => {
  it("refuses a single PUT above 100 MB with 413 before reading it, naming the multipart route", async () => {
    const { render } = await runningJob(acct.api_key);
    const res = await callWithEnv({}, fileUrl(render.job_id, "huge.mp4"), {
      method: "PUT",
      headers: { ...auth(render.callback.token), "Content-Length": "100000001", "Content-Type": "video/mp4" },
      body: bytesOf(1, 16),
    });
    const err = await expectError(res, 413, "payload_too_large");
    expect(err.message).toContain("?uploads");
    expect(extra(err).max_bytes).toBe(100_000_000);
  });
});

describe("GET /internal/jobs/{id}/artifacts/{name}: a task reads what an earlier task stored", () => {
  let render: Awaited<ReturnType<typeof runningJob>>["render"];
  const data = bytesOf(21, 300_000);
  beforeAll(async () => {
    ({ render } = await runningJob(acct.api_key));
    expect((await putArtifact(render.job_id, render.callback.token, "part-reel-balanced-000.mp4", data, "video/mp4")).status).toBe(201);
  });

  const getFile = (name: string, token: string | null, headers: Record<string, string> = {}) =>
    callWithEnv({}, fileUrl(render.job_id, name), { headers: { ...auth(token), ...headers } });

  it("streams the stored bytes with their type and length", async () => {
    const res = await getFile("part-reel-balanced-000.mp4", render.callback.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("video/mp4");
    expect(res.headers.get("content-length")).toBe(String(data.byteLength));
    expect(sameBytes(new Uint8Array(await res.arrayBuffer()), data)).toBe(true);
  });

  it("serves a byte range (a resumed download)", async () => {
    const res = await getFile("part-reel-balanced-000.mp4", render.callback.token, { Range: "bytes=1000-" });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 1000-${data.byteLength - 1}/${data.byteLength}`);
    expect(sameBytes(new Uint8Array(await res.arrayBuffer()), data.subarray(1000))).toBe(true);
    const past = await getFile("part-reel-balanced-000.mp4", render.callback.token, { Range: `bytes=${data.byteLength}-` });
    expect(past.status).toBe(416);
  });

  it("answers 404 for a file that is not there, 422 for a bad name, 401 without the job's token", async () => {
    await expectError(await getFile("part-reel-balanced-001.mp4", render.callback.token), 404, "file_not_found");
    await expectError(await getFile("Bad.mp4", render.callback.token), 422, "validation_failed");
    await expectError(await getFile("part-reel-balanced-000.mp4", null), 401, "unauthorized");
    const other = await runningJob(acct.api_key);
    await expectError(await getFile("part-reel-balanced-000.mp4", other.render.callback.token), 401, "unauthorized");
  });
});
