import { randomBytes } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3Uploader, createUploader } from "../../../render-container/src/output/uploader";
import { startFakeS3 } from "../../support/fake-s3";
import { startRecorder } from "../../support/http-recorder";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "uploader-"));
});

const creds = { accessKeyId: "AKTEST", secretAccessKey: "secret/with+chars", region: "auto" };

describe("S3 uploads to R2", () => {
  let s3: Awaited<ReturnType<typeof startFakeS3>>;
  beforeAll(async () => {
    s3 = await startFakeS3(creds);
  });
  afterAll(() => s3.close());

  const target = () => ({ mode: "s3" as const, endpoint: s3.url, bucket: "bkt", access_key_id: creds.accessKeyId, secret_access_key: creds.secretAccessKey, region: "auto", prefix: "jobs/job_1/" });

  it("puts a small file with a valid SigV4 signature", async () => {
    const file = path.join(dir, "small.srt");
    await writeFile(file, "1\n00:00:00,000 --> 00:00:01,000\nhi\n");
    const up = createUploader(target(), fetch);
    await expect(up.put("short-01.srt", file, "application/x-subrip")).resolves.toEqual({ size_bytes: 35 });
    expect(s3.signatureFailures).toEqual([]);
    expect(s3.objects.get("bkt/jobs/job_1/short-01.srt")?.toString()).toContain("hi");
  });

  it("uploads a large file in parts and reassembles it byte for byte", async () => {
    const file = path.join(dir, "big.mp4");
    const data = randomBytes(2_500_000);
    await writeFile(file, data);
    const up = new S3Uploader(target(), fetch, 1_000_000, 1_000_000);
    await up.put("reel-balanced.mp4", file, "video/mp4");
    expect(s3.signatureFailures).toEqual([]);
    const parts = s3.requests.filter((r) => r.url.includes("partNumber="));
    expect(parts).toHaveLength(3);
    expect(s3.objects.get("bkt/jobs/job_1/reel-balanced.mp4")?.equals(data)).toBe(true);
    expect(s3.uploads.size).toBe(0);
  });

  it("fails on a wrong secret instead of pretending", async () => {
    const file = path.join(dir, "x.json");
    await writeFile(file, "{}");
    const up = createUploader({ ...target(), secret_access_key: "wrong" }, fetch);
    await expect(up.put("x.json", file, "application/json")).rejects.toThrow(/403/);
  });
});

describe("uploads through the Worker route", () => {
  it("streams the file with the job token and content length", async () => {
    const rec = await startRecorder((_q, res) => res.writeHead(201).end());
    const file = path.join(dir, "thumb.jpg");
    const data = randomBytes(300_000);
    await writeFile(file, data);
    const up = createUploader({ mode: "worker", url: `${rec.url}/internal/jobs/job_1/artifacts`, token: "job-token" });
    await up.put("short-01.jpg", file, "image/jpeg");
    await rec.close();
    expect(rec.requests).toHaveLength(1);
    const [q] = rec.requests;
    expect(q.method).toBe("PUT");
    expect(q.url).toBe("/internal/jobs/job_1/artifacts/short-01.jpg");
    expect(q.headers.authorization).toBe("Bearer job-token");
    expect(q.headers["content-length"]).toBe(String(data.length));
    expect(q.body.equals(data)).toBe(true);
  });

  it("does not retry a refused upload (4xx) and reports it", async () => {
    const rec = await startRecorder((_q, res) => res.writeHead(401).end("nope"));
    const file = path.join(dir, "a.txt");
    await writeFile(file, "a");
    const up = createUploader({ mode: "worker", url: rec.url, token: "bad" });
    await expect(up.put("a.txt", file, "text/plain")).rejects.toThrow(/401/);
    await rec.close();
    expect(rec.requests).toHaveLength(1);
  });

  it("retries a 5xx, and a cancel during the backoff stops at once with the cancel's reason", async () => {
    const rec = await startRecorder((_q, res) => res.writeHead(503).end("busy"));
    const file = path.join(dir, "b.txt");
    await writeFile(file, "b");
    const up = createUploader({ mode: "worker", url: rec.url, token: "t" });
    const ac = new AbortController();
    const started = performance.now();
    const put = up.put("b.txt", file, "text/plain", ac.signal);
    // The first attempt fails; the next one would follow a 500 ms backoff, the cancel comes in the middle of it.
    setTimeout(() => ac.abort(new Error("job cancelled")), 150);
    await expect(put).rejects.toThrow("job cancelled");
    expect(performance.now() - started).toBeLessThan(450);
    await rec.close();
    expect(rec.requests).toHaveLength(1);
  });
});

