import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CostEstimate, JobAck, JobRecord } from "../../common/contract";
import { startLocalStack, type LocalStack } from "../../dev/stack/local-stack";
import { generateSyntheticVod } from "../../dev/synth-vod";
import { probeMedia } from "../../render-container/src/ffmpeg/probe";

/**
 * Re-cut in seconds (issue 21), end to end: the real Worker under `wrangler dev` (local D1/R2/Queues/Durable
 * Objects), one renderer process and the local Twitch-compatible server. A first job analyses a synthetic VOD and
 * completes; a second job of the same account on the same VOD — one manual highlight, one short, another layout —
 * is accepted with the analysis reused and its processing credits waived, its analysis task reads the stored
 * analysis instead of the VOD (the renderer's log shows no whole-VOD acquisition for it), and its short is
 * downloaded and probed.
 */
const VOD_ID = "900000556";
let stack: LocalStack;
let account: { account_id: string; api_key: string };
let tmp: string;

const api = (p: string, init: RequestInit = {}) =>
  fetch(`${stack.apiUrl}${p}`, { ...init, headers: { "x-api-key": account.api_key, "content-type": "application/json", ...(init.headers ?? {}) } });

const body = (extra: Record<string, unknown>) => JSON.stringify({ vod_url: `https://www.twitch.tv/videos/${VOD_ID}`, ...extra });

async function createJob(extra: Record<string, unknown>): Promise<JobAck> {
  const res = await api("/jobs", { method: "POST", body: body(extra) });
  expect(res.status, await res.clone().text()).toBe(202);
  return (await res.json()) as JobAck;
}

async function finished(id: string, timeoutMs = 600_000): Promise<JobRecord> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await (await api(`/jobs/${id}`)).json()) as JobRecord;
    if (job.status === "completed" || job.status === "failed") return job;
    if (Date.now() > deadline) throw new Error(`job ${id} stuck: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The renderer's JSON log lines about one job. */
async function rendererLines(jobId: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path.join(tmp, "state", "renderer-1.log"), "utf8").catch(() => "");
  return text.split("\n").flatMap((l) => {
    const at = l.indexOf("{");
    if (at < 0) return [];
    try {
      const line = JSON.parse(l.slice(at)) as Record<string, unknown>;
      return line.job_id === jobId || String(line.task_key ?? "").startsWith(`${jobId}.`) ? [line] : [];
    } catch {
      return [];
    }
  });
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "e2e-recut-"));
  const vodRoot = path.join(tmp, "vods");
  await generateSyntheticVod({ root: vodRoot, vodId: VOD_ID, durationSeconds: 150, seed: 9, width: 640, height: 360, moments: [{ kind: "hype", peak: 60 }, { kind: "hype", peak: 115 }] });
  stack = await startLocalStack({ vodRoot, stateDir: path.join(tmp, "state"), renderers: 1 });
  const res = await fetch(`${stack.apiUrl}/admin/accounts`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "E2E recut", plan: "pro", credits: 1000, purchase: true }),
  });
  expect(res.status).toBe(201);
  account = (await res.json()) as typeof account;
}, 600_000);

afterAll(async () => {
  await stack?.stop();
});

describe("a re-cut through POST /jobs reuses the first job's analysis", () => {
  let first: JobAck;
  let second: JobAck;
  let secondRecord: JobRecord;
  beforeAll(async () => {
    first = await createJob({ num_shorts: 1, final_video_length_minutes: 1, parameters: { max_highlight_duration: 25, shorts_crop_mode: "crop" } });
    expect((await finished(first.id)).status).toBe("completed");
    second = await createJob({ num_shorts: 1, compilation_enabled: false, manual_highlights: [{ start_seconds: 20, end_seconds: 40, label: "the setup" }], parameters: { shorts_crop_mode: "fit" } });
    secondRecord = await finished(second.id);
  }, 1_200_000);

  it("the first job analysed the VOD and was charged for it; the re-cut is charged its short only", async () => {
    expect(first.analysis_reused).toBeNull();
    // 150 s on auto_balance: ceil(0.0417 h x 40) = 2 processing credits, one reel 25, one short 10.
    expect(first.credit_cost).toBe(2 + 25 + 10);
    expect(second.analysis_reused).toMatchObject({ from_job_id: first.id });
    expect(second.credit_cost).toBe(10);
    expect(secondRecord).toMatchObject({ status: "completed", error: null, credit_cost: 10, refunded_credits: 0, analysis_reused: { from_job_id: first.id } });
    const quote = (await (await api("/jobs/estimate", { method: "POST", body: body({ num_shorts: 1, compilation_enabled: false }) })).json()) as CostEstimate;
    expect(quote.breakdown).toMatchObject({ processing_credits: 0, processing_waived: { credits: 2, from_job_id: first.id } });
  });

  it("its analysis task read the stored analysis instead of the VOD's audio rendition", async () => {
    const lines = await rendererLines(second.id);
    const planned = lines.find((l) => l.msg === "job planned");
    expect(planned).toMatchObject({ reused_from: first.id, stored_bytes: null });
    expect(Object.keys(planned!.timings as Record<string, number>)).toContain("load_analysis");
    expect(Object.keys(planned!.timings as Record<string, number>)).not.toContain("acquire_analyse");
    expect(lines.some((l) => l.msg === "source acquired")).toBe(false);
    // The first job's analysis did acquire the whole VOD, and stored what it found.
    const firstPlanned = (await rendererLines(first.id)).find((l) => l.msg === "job planned");
    expect(firstPlanned).toMatchObject({ reused_from: null });
    expect(firstPlanned!.stored_bytes).toBeGreaterThan(1000);
  });

  it("produces the re-cut's short from the manual highlight, in the new layout", async () => {
    const results = (await (await api(`/jobs/${second.id}/results`)).json()) as { deliverables: { type: string; url: string; name: string }[] };
    const short = results.deliverables.find((d) => d.type === "short");
    expect(short).toBeDefined();
    expect(results.deliverables.some((d) => d.name.includes("analysis"))).toBe(false);
    const file = path.join(tmp, short!.name);
    const res = await fetch(short!.url);
    expect(res.status).toBe(200);
    await writeFile(file, Buffer.from(await res.arrayBuffer()));
    const info = await probeMedia(file);
    expect(info.video).toMatchObject({ width: 1080, height: 1920 });
    expect(info.durationSeconds).toBeGreaterThan(19);
    expect(info.durationSeconds).toBeLessThan(21.5);
  });
});
