import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdtemp, open, readdir, readFile, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RenderJob } from "../../common/contract";
import { startLocalStack, type LocalStack } from "../../dev/stack/local-stack";
import { generateSyntheticVod } from "../../dev/synth-vod";
import { createUploader } from "../../render-container/src/output/uploader";
import { STORED_ANALYSIS_NAME } from "../../common/contract/analysis-reuse";

/**
 * A 2 GiB file through the real Worker under `wrangler dev --local` (Miniflare's R2 on disk), with no R2 API
 * credentials: the renderer's uploader sends it in 64 MiB parts through the multipart routes; the file is read
 * back through GET /internal/jobs/{id}/artifacts/{name} and hashed. The renderer is a stand-in that takes the
 * dispatched job (its analysis task) and does nothing, so the test holds the job's real upload target and token.
 * Runs with UPLOAD_LARGE=1 only (about 4 GiB of disk, minutes of wall time).
 */
const VOD_ID = "900000777";
let stack: LocalStack | undefined;
let tmp: string | undefined;

afterAll(async () => {
  await stack?.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

async function sha256(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk);
  return hash.digest("hex");
}

/** Resident memory (KiB) of a process and each of its descendants by command name, from /proc. */
async function treeRssKiB(rootPid: number): Promise<Map<string, number>> {
  const parents = new Map<number, number>();
  const rss = new Map<number, { name: string; kib: number }>();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(entry), Number(fields[1]));
      const status = await readFile(`/proc/${entry}/status`, "utf8");
      rss.set(Number(entry), { name: /Name:\s+(\S+)/.exec(status)?.[1] ?? "?", kib: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) });
    } catch {
      // The process ended while being read.
    }
  }
  const inTree = (pid: number): boolean => pid === rootPid || (parents.has(pid) && pid > 1 && inTree(parents.get(pid)!));
  const byName = new Map<string, number>();
  for (const [pid, { name, kib }] of rss) if (inTree(pid)) byName.set(name, (byName.get(name) ?? 0) + kib);
  return byName;
}

/** Samples the peak resident memory of a process tree (per command name) until stopped. */
function peakSampler(rootPid: number) {
  const peaks = new Map<string, number>();
  let selfPeak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    selfPeak = Math.max(selfPeak, process.memoryUsage().rss);
    void treeRssKiB(rootPid).then((m) => m.forEach((kib, name) => peaks.set(name, Math.max(peaks.get(name) ?? 0, kib))));
  }, 250);
  return {
    stop() {
      clearInterval(timer);
      const parts = [...peaks].map(([name, kib]) => `${name}=${Math.round(kib / 1024)}`).join(",");
      return `peak_rss_MiB{${parts},uploader=${Math.round(selfPeak / 2 ** 20)}}`;
    },
  };
}

describe.runIf(process.env.UPLOAD_LARGE === "1")("a 2 GiB file through the Worker under wrangler dev (UPLOAD_LARGE=1)", () => {
  it("goes up in 64 MiB parts without R2 credentials and reads back whole", async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "large-upload-"));
    const vodRoot = path.join(tmp, "vods");
    await generateSyntheticVod({ root: vodRoot, vodId: VOD_ID, durationSeconds: 150, seed: 3, width: 320, height: 180, moments: [{ kind: "hype", peak: 60 }] });

    // The stand-in renderer: accepts the dispatched job (or its first task) and keeps what it was given.
    const dispatched: Pick<RenderJob, "job_id" | "upload">[] = [];
    const renderer = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        if (req.method === "POST" && (req.url === "/jobs" || req.url === "/tasks")) dispatched.push(JSON.parse(Buffer.concat(chunks).toString()) as RenderJob);
        res.writeHead(req.method === "POST" ? 202 : 200, { "content-type": "application/json" }).end('{"accepted":true,"ok":true}');
      });
    });
    await new Promise<void>((r) => renderer.listen(0, "127.0.0.1", r));
    const rendererUrl = `http://127.0.0.1:${(renderer.address() as AddressInfo).port}`;

    try {
      stack = await startLocalStack({ vodRoot, stateDir: path.join(tmp, "state"), vars: { RENDER_URL: rendererUrl } });
      const created = await fetch(`${stack.apiUrl}/admin/accounts`, {
        method: "POST",
        headers: { authorization: `Bearer ${stack.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Uploads", plan: "pro", credits: 5000, purchase: true }),
      });
      const account = (await created.json()) as { api_key: string };
      const job = await fetch(`${stack.apiUrl}/jobs`, {
        method: "POST",
        headers: { "x-api-key": account.api_key, "content-type": "application/json" },
        body: JSON.stringify({ vod_url: `https://www.twitch.tv/videos/${VOD_ID}` }),
      });
      expect(job.status, await job.clone().text()).toBe(202);
      const { id } = (await job.json()) as { id: string };
      const deadline = Date.now() + 60_000;
      while (dispatched.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      const render = dispatched[0]!;
      expect(render.job_id).toBe(id);
      // The Worker marks the job running once the renderer has taken it: wait for that before uploading.
      for (let status = ""; status !== "running"; ) {
        expect(Date.now()).toBeLessThan(deadline + 30_000);
        const rec = await fetch(`${stack.apiUrl}/jobs/${id}`, { headers: { "x-api-key": account.api_key } });
        status = ((await rec.json()) as { status: string }).status;
        if (status !== "running") await new Promise((r) => setTimeout(r, 200));
      }
      const target = render.upload;
      if (target.mode !== "worker") throw new Error("expected upload mode worker (no R2 API credentials)");
      // The analysis task's token opens one file, the stored analysis (common/plan/task-files.ts): the big file goes under that name.
      const name = STORED_ANALYSIS_NAME;

      const size = 2 * 1024 ** 3;
      const file = path.join(tmp, "reel-long.mp4");
      const fh = await open(file, "w");
      await fh.truncate(size);
      for (let n = 0; n < 32; n++) await fh.write(Buffer.from(`part ${n} marker`), 0, undefined, n * 64 * 1024 * 1024 + 777);
      await fh.write(Buffer.from("end"), 0, undefined, size - 3);
      await fh.close();

      const workerPid = stack.worker.child.pid!;
      const idle = [...(await treeRssKiB(workerPid))].map(([name, kib]) => `${name}=${Math.round(kib / 1024)}`).join(",");
      const uploading = peakSampler(workerPid);
      const started = performance.now();
      await createUploader(target).put(name, file, "video/mp4");
      const uploadSeconds = (performance.now() - started) / 1000;
      const uploadPeaks = uploading.stop();

      const reading = peakSampler(workerPid);
      const readStarted = performance.now();
      const back = await fetch(`${target.url}/${name}`, { headers: { authorization: `Bearer ${target.token}` } });
      expect(back.status).toBe(200);
      expect(back.headers.get("content-length")).toBe(String(size));
      const readHash = await sha256(back.body as unknown as AsyncIterable<Uint8Array>);
      const readSeconds = (performance.now() - readStarted) / 1000;
      const readPeaks = reading.stop();
      expect(readHash).toBe(await sha256(createReadStream(file)));

      console.log(
        `upload_large_wrangler: bytes=${size} upload_s=${uploadSeconds.toFixed(1)} (${(size / 2 ** 20 / uploadSeconds).toFixed(0)} MiB/s) ${uploadPeaks} ` +
          `read_back_s=${readSeconds.toFixed(1)} ${readPeaks} idle_rss_MiB{${idle}}`,
      );
    } finally {
      await new Promise<void>((r) => renderer.close(() => r()));
    }
  }, 1_800_000);
});
