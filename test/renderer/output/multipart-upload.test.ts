import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdtemp, open, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { probeMedia } from "../../../render-container/src/ffmpeg/probe";
import { S3Uploader, WorkerUploader, WORKER_MULTIPART_ABOVE, createUploader } from "../../../render-container/src/output/uploader";
import { startFakeS3 } from "../../support/fake-s3";
import { makeSourceClip } from "../../support/media";
import { startWorkerUploadServer } from "../../support/worker-upload-server";

/**
 * The renderer's uploader in upload mode "worker" against a local server speaking the Worker's upload routes:
 * files above the threshold go up in parts streamed from disk, a failed part is retried alone, a refusal or a
 * cancel aborts the upload. UPLOAD_LARGE=1 adds a 2 GiB file (sparse) at the production sizes.
 */
const TOKEN = "job-token";
let dir: string;
let server: Awaited<ReturnType<typeof startWorkerUploadServer>>;
const base = () => `${server.url}/internal/jobs/job_1/artifacts`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "multipart-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fresh(partBytes: number) {
  server = await startWorkerUploadServer({ dir: await mkdtemp(path.join(dir, "server-")), token: TOKEN, partBytes });
}
afterEach(async () => {
  await server?.close();
});

async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

const partCalls = () => server.requests.filter((r) => r.method === "PUT" && r.url.includes("partNumber="));

describe("uploads through the Worker in parts", () => {
  it("sends a real video above the threshold in parts of the Worker's size; the joined file is the same video", async () => {
    const clip = await makeSourceClip({ durationSeconds: 6, width: 640, height: 360 });
    const PART = 128 * 1024;
    await fresh(PART);
    const up = new WorkerUploader(base(), TOKEN, fetch, 256 * 1024);
    expect(clip.bytes).toBeGreaterThan(3 * PART);
    await expect(up.put("reel-balanced.mp4", clip.path, "video/mp2t")).resolves.toEqual({ size_bytes: clip.bytes });

    const count = Math.ceil(clip.bytes / PART);
    expect(partCalls().map((r) => [r.status, Number(r.contentLength)])).toEqual(
      Array.from({ length: count }, (_, i) => [200, i < count - 1 ? PART : clip.bytes - (count - 1) * PART]),
    );
    const start = server.requests[0]!;
    expect(start).toMatchObject({ method: "POST", url: "/internal/jobs/job_1/artifacts/reel-balanced.mp4?uploads", status: 201 });
    expect(server.requests.at(-1)).toMatchObject({ method: "POST", status: 201 });
    const stored = server.objects.get("reel-balanced.mp4")!;
    expect(stored.contentType).toBe("video/mp2t");
    expect(await sha256File(stored.file)).toBe(await sha256File(clip.path));
    const probed = await probeMedia(stored.file);
    expect(probed.video?.width).toBe(640);
    expect(probed.durationSeconds).toBeGreaterThan(5.5);
  });

  it("keeps one request for a file up to the threshold", async () => {
    await fresh(5 * 1024 * 1024);
    const file = path.join(dir, "thumb.jpg");
    await writeFile(file, Buffer.alloc(1000, 7));
    await createUploader({ mode: "worker", url: base(), token: TOKEN }).put("short-01.jpg", file, "image/jpeg");
    expect(server.requests.map((r) => [r.method, r.url, r.contentLength])).toEqual([["PUT", "/internal/jobs/job_1/artifacts/short-01.jpg", "1000"]]);
    expect(WORKER_MULTIPART_ABOVE).toBe(64 * 1024 * 1024);
  });

  it("retries a part that failed with a 5xx alone, then completes", async () => {
    await fresh(1024);
    const file = path.join(dir, "retry.bin");
    const data = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 31) % 251));
    await writeFile(file, data);
    let failures = 0;
    server.intercept(({ method, url }) => (method === "PUT" && url.searchParams.get("partNumber") === "3" && failures++ < 2 ? 503 : undefined));
    await new WorkerUploader(base(), TOKEN, fetch, 1024).put("retry.bin", file, "application/octet-stream");
    expect(partCalls().map((r) => `${new URL(r.url, "http://x").searchParams.get("partNumber")}:${r.status}`)).toEqual(["1:200", "2:200", "3:503", "3:503", "3:200", "4:200"]);
    expect((await readFile(server.objects.get("retry.bin")!.file)).equals(data)).toBe(true);
  });

  it("a refused part (4xx) fails the upload at once and aborts it: no parts stay behind", async () => {
    await fresh(1024);
    const file = path.join(dir, "refused.bin");
    await writeFile(file, Buffer.alloc(3000, 1));
    server.intercept(({ method, url }) => (method === "PUT" && url.searchParams.get("partNumber") === "2" ? 409 : undefined));
    await expect(new WorkerUploader(base(), TOKEN, fetch, 1024).put("refused.bin", file, "application/octet-stream")).rejects.toThrow(/part 2.*409/);
    expect(server.requests.map((r) => r.method)).toEqual(["POST", "PUT", "PUT", "DELETE"]);
    expect(server.uploads.size).toBe(0);
    expect(server.objects.has("refused.bin")).toBe(false);
  });

  it("a cancel in the middle of a part stops the upload with the cancel's reason and aborts it", async () => {
    await fresh(64 * 1024);
    const file = path.join(dir, "cancel.bin");
    await writeFile(file, Buffer.alloc(300 * 1024, 2));
    server.intercept(({ method, url }) => (method === "PUT" && url.searchParams.get("partNumber") === "2" ? "hold" : undefined));
    const ac = new AbortController();
    const put = new WorkerUploader(base(), TOKEN, fetch, 64 * 1024).put("cancel.bin", file, "application/octet-stream", ac.signal);
    const deadline = Date.now() + 10_000;
    while (server.held.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(server.held).toHaveLength(1);
    ac.abort(new Error("job cancelled"));
    await expect(put).rejects.toThrow("job cancelled");
    const deadline2 = Date.now() + 5000;
    while (server.uploads.size > 0 && Date.now() < deadline2) await new Promise((r) => setTimeout(r, 20));
    expect(server.requests.map((r) => r.method)).toEqual(["POST", "PUT", "PUT", "DELETE"]);
    expect(server.uploads.size).toBe(0);
    expect(server.objects.has("cancel.bin")).toBe(false);
  });

  it("the Worker decides the part size, whatever the client's threshold", async () => {
    await fresh(1024);
    const file = path.join(dir, "odd.bin");
    await writeFile(file, Buffer.alloc(5000, 3));
    // Multipart above 100 bytes here, in the server's parts of 1 KiB.
    await new WorkerUploader(base(), TOKEN, fetch, 100).put("odd.bin", file, "application/octet-stream");
    expect(partCalls()).toHaveLength(5);
    expect(server.objects.get("odd.bin")!.size).toBe(5000);
  });
});

describe("S3 multipart (R2 API credentials set)", () => {
  const creds = { accessKeyId: "AKTEST", secretAccessKey: "secret", region: "auto" };
  let s3: Awaited<ReturnType<typeof startFakeS3>>;
  beforeAll(async () => {
    s3 = await startFakeS3(creds);
  });
  afterAll(() => s3.close());
  const target = () => ({ mode: "s3" as const, endpoint: s3.url, bucket: "bkt", access_key_id: creds.accessKeyId, secret_access_key: creds.secretAccessKey, region: "auto", prefix: "jobs/job_9/" });
  const s3Parts = (from: number) => s3.requests.slice(from).filter((r) => r.url.includes("partNumber="));

  it("streams every part from disk with its Content-Length, signed as UNSIGNED-PAYLOAD; a 5xx part is retried alone", async () => {
    const file = path.join(dir, "s3-big.bin");
    const data = Buffer.from(Array.from({ length: 2500 }, (_, i) => (i * 7) % 253));
    await writeFile(file, data);
    const from = s3.requests.length;
    let failed = false;
    s3.intercept((r) => (r.url.includes("partNumber=2") && !failed ? ((failed = true), 500) : undefined));
    await new S3Uploader(target(), fetch, 1000, 1000).put("reel-audience.mp4", file, "video/mp4");
    s3.intercept(() => undefined);
    expect(s3.signatureFailures).toEqual([]);
    expect(s3Parts(from).map((r) => [new URL(r.url, "http://x").searchParams.get("partNumber"), r.headers["content-length"], r.headers["x-amz-content-sha256"]])).toEqual([
      ["1", "1000", "UNSIGNED-PAYLOAD"],
      ["2", "1000", "UNSIGNED-PAYLOAD"],
      ["2", "1000", "UNSIGNED-PAYLOAD"],
      ["3", "500", "UNSIGNED-PAYLOAD"],
    ]);
    expect(s3.objects.get("bkt/jobs/job_9/reel-audience.mp4")?.equals(data)).toBe(true);
  });

  it("a refused part aborts the multipart upload (AbortMultipartUpload) and fails the put", async () => {
    const file = path.join(dir, "s3-refused.bin");
    await writeFile(file, Buffer.alloc(2500, 5));
    const from = s3.requests.length;
    s3.intercept((r) => (r.url.includes("partNumber=2") ? 403 : undefined));
    await expect(new S3Uploader(target(), fetch, 1000, 1000).put("reel-x.mp4", file, "video/mp4")).rejects.toThrow(/part 2.*403/);
    s3.intercept(() => undefined);
    expect(s3.requests.slice(from).map((r) => r.method)).toEqual(["POST", "PUT", "PUT", "DELETE"]);
    expect(s3.uploads.size).toBe(0);
    expect(s3.objects.has("bkt/jobs/job_9/reel-x.mp4")).toBe(false);
  });
});

describe.runIf(process.env.UPLOAD_LARGE === "1")("a 2 GiB file through the Worker's routes (UPLOAD_LARGE=1)", () => {
  it("goes up in 32 parts of 64 MiB, streamed from disk, and arrives whole", async () => {
    const size = 2 * 1024 ** 3;
    await fresh(64 * 1024 * 1024);
    const file = path.join(dir, "huge.mp4");
    // Sparse, with a marker in every part so a misplaced part would show in the hash.
    const fh = await open(file, "w");
    await fh.truncate(size);
    for (let n = 0; n < 32; n++) await fh.write(Buffer.from(`part ${n} marker`), 0, undefined, n * 64 * 1024 * 1024 + 12345);
    await fh.write(Buffer.from("end"), 0, undefined, size - 3);
    await fh.close();

    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    await createUploader({ mode: "worker", url: base(), token: TOKEN }).put("reel-long.mp4", file, "video/mp4");
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);

    expect(partCalls().filter((r) => r.status === 200)).toHaveLength(32);
    const stored = server.objects.get("reel-long.mp4")!;
    expect((await stat(stored.file)).size).toBe(size);
    expect(await sha256File(stored.file)).toBe(await sha256File(file));
    const mib = (n: number) => Math.round(n / 2 ** 20);
    console.log(`upload_large: bytes=${size} parts=32 seconds=${seconds.toFixed(1)} MiB_per_s=${(size / 2 ** 20 / seconds).toFixed(0)} rss_before_MiB=${mib(rssBefore)} peak_rss_MiB=${mib(peakRss)} (client and server in one process)`);
    // Streamed: the process never holds the file (2 GiB) nor, by a wide margin, more than a few parts.
    expect(peakRss - rssBefore).toBeLessThan(512 * 1024 * 1024);
  }, 900_000);
});
