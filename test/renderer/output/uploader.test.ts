import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalDirUploader, S3Uploader, createUploader } from "../../../render-container/src/output/uploader";
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

  it("reads a stored file back (a reel's parts, for the join) with a signed GET", async () => {
    const file = path.join(dir, "part.mp4");
    const data = randomBytes(1_200_000);
    await writeFile(file, data);
    const up = createUploader(target(), fetch);
    await up.put("part-balanced-000.mp4", file, "video/mp4");
    const back = path.join(dir, "back", "part.mp4");
    await expect(up.fetchTo("part-balanced-000.mp4", back)).resolves.toEqual({ size_bytes: data.length });
    expect((await readFile(back)).equals(data)).toBe(true);
    expect(s3.signatureFailures).toEqual([]);
    expect(s3.requests.at(-1)).toMatchObject({ method: "GET", url: "/bkt/jobs/job_1/part-balanced-000.mp4" });
    await expect(up.fetchTo("part-balanced-009.mp4", path.join(dir, "missing.mp4"))).rejects.toThrow(/404/);
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

  it("reads a stored file back with the job token, and a missing one fails at once (no retry)", async () => {
    const data = randomBytes(400_000);
    const rec = await startRecorder((q, res) => {
      if (q.headers.authorization !== "Bearer job-token") return void res.writeHead(401).end();
      if (q.url.endsWith("/part-balanced-001.mp4")) return void res.writeHead(200, { "content-length": String(data.length) }).end(data);
      res.writeHead(404).end("no such file");
    });
    const up = createUploader({ mode: "worker", url: `${rec.url}/internal/jobs/job_1/artifacts`, token: "job-token" });
    const out = path.join(dir, "fetched", "p1.mp4");
    await expect(up.fetchTo("part-balanced-001.mp4", out)).resolves.toEqual({ size_bytes: data.length });
    expect((await readFile(out)).equals(data)).toBe(true);
    expect(rec.requests[0]).toMatchObject({ method: "GET", url: "/internal/jobs/job_1/artifacts/part-balanced-001.mp4" });
    await expect(up.fetchTo("part-balanced-002.mp4", path.join(dir, "fetched", "p2.mp4"))).rejects.toThrow(/404/);
    expect(rec.requests).toHaveLength(2);
    await rec.close();
  });
});

describe("the folder uploader (CLI, benchmark)", () => {
  it("stores and reads back files", async () => {
    const store = path.join(dir, "store");
    const up = new LocalDirUploader(store);
    const file = path.join(dir, "c.bin");
    await writeFile(file, "content");
    await up.put("c.bin", file);
    await expect(up.fetchTo("c.bin", path.join(dir, "c-back.bin"))).resolves.toEqual({ size_bytes: 7 });
    expect(await readFile(path.join(dir, "c-back.bin"), "utf8")).toBe("content");
    await expect(up.fetchTo("nothing.bin", path.join(dir, "n.bin"))).rejects.toThrow(/ENOENT/);
  });
});
