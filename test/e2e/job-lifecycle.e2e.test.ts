import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalStack, type LocalStack } from "../../dev/stack/local-stack";
import { generateSyntheticVod, synthCacheRoot, type SyntheticVodTruth } from "../../dev/synth-vod";
import { ShortTranscript } from "../../common/handoff/transcript";
import { parseSrt } from "../../render-container/src/captions/srt";
import { probeMedia } from "../../render-container/src/ffmpeg/probe";
import { FACECAM_SAMPLE } from "../../render-container/src/pipeline/stages/decide-facecam";
import { childProcesses, descendantProcesses } from "../support/child-processes";
import { readTimeline } from "../support/otio-reader";
import { startWebhookReceiver } from "./webhook-receiver";
import { jsonLines, type LogLine } from "../../dev/stack/log-lines";
import { removeScratchUnlessFailed } from "../support/scratch-dirs";

/**
 * One system, end to end: the real Worker under `wrangler dev` (local D1/R2/Queues/Durable Objects), the real
 * renderer process and the local Twitch-compatible server on a short synthetic VOD; a real HTTP receiver checks
 * webhook signatures with node:crypto; files are downloaded, probed with ffprobe and unzipped with `unzip`.
 */
const run = promisify(execFile);
const VOD_ID = "900000555";
let stack: LocalStack;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let account: { account_id: string; api_key: string; webhook_signing_secret: string };
let tmp: string;
let truth: SyntheticVodTruth;
/** The stack came up and the account exists: the file's setup did not fail. */
let ready = false;

const api = (p: string, init: RequestInit = {}) =>
  fetch(`${stack.apiUrl}${p}`, { ...init, headers: { "x-api-key": account.api_key, "content-type": "application/json", ...(init.headers ?? {}) } });

async function createJob(body: Record<string, unknown>): Promise<{ id: string; credit_cost: number }> {
  const res = await api("/jobs", { method: "POST", body: JSON.stringify({ vod_url: `https://www.twitch.tv/videos/${VOD_ID}`, ...body }) });
  expect(res.status, await res.clone().text()).toBe(202);
  return (await res.json()) as { id: string; credit_cost: number };
}

async function getJob(id: string) {
  return (await (await api(`/jobs/${id}`)).json()) as { status: string; progress: number; stage: string | null; refunded_credits: number; error: { code: string; message: string } | null; analysis_reused: { from_job_id: string } | null };
}

/** Polls the job, recording every distinct status, until it satisfies `done`. */
async function watch(id: string, done: (j: Awaited<ReturnType<typeof getJob>>) => boolean, timeoutMs = 480_000) {
  const statuses: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJob(id);
    if (statuses.at(-1) !== job.status) statuses.push(job.status);
    if (done(job)) return { job, statuses };
    if (Date.now() > deadline) throw new Error(`job ${id} stuck: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** The tasks a renderer of the pool is running (GET /health). */
async function tasksOn(url: string): Promise<{ task_key: string; kind: string }[]> {
  try {
    return ((await (await fetch(`${url}/health`)).json()) as { tasks: { task_key: string; kind: string }[] }).tasks;
  } catch {
    return []; // a renderer this test killed
  }
}

async function runningTasksOf(jobId: string): Promise<string[]> {
  const all = await Promise.all(stack.rendererUrls.map((u) => tasksOn(u)));
  return all.flat().map((t) => t.task_key).filter((k) => k.startsWith(`${jobId}.`));
}

/**
 * Waits until a render task (not the analysis) of the job runs on a renderer of the pool with an FFmpeg process
 * under it, so a test that stops that renderer stops a render, not the analysis. Returns the renderer's index and
 * the task's id.
 */
async function renderTaskRunning(jobId: string): Promise<{ index: number; taskId: string }> {
  const deadline = Date.now() + 240_000;
  for (;;) {
    for (const [index, url] of stack.rendererUrls.entries()) {
      const render = (await tasksOn(url)).find((t) => t.task_key.startsWith(`${jobId}.`) && t.kind !== "analyse");
      const pid = stack.renderers[index]!.child.pid!;
      if (render && descendantProcesses(pid).some((p) => p.name === "ffmpeg")) return { index, taskId: render.task_key.slice(jobId.length + 1) };
    }
    const job = await getJob(jobId);
    if (job.status === "completed" || job.status === "failed") throw new Error(`job ${jobId} ended before a render task was seen running: ${JSON.stringify(job)}`);
    if (Date.now() > deadline) throw new Error(`no render task of ${jobId} was seen running within 240 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** FFmpeg and recogniser processes anywhere under the pool's renderers. */
const mediaProcesses = () =>
  stack.renderers.flatMap((r) => (r.child.exitCode === null && r.child.signalCode === null ? descendantProcesses(r.child.pid!) : [])).filter((p) => p.name === "ffmpeg" || p.name.startsWith("pocketsphinx"));


/** What renderer `i` of the pool logged about one job (every process it ran there, in order). */
async function rendererLog(i: number, jobId: string): Promise<LogLine[]> {
  const lines = await jsonLines(path.join(tmp, "state", `renderer-${i + 1}.log`));
  return lines.filter((l) => l.job_id === jobId || String(l.task_key ?? "").startsWith(`${jobId}.`));
}

/** The Worker's "task retried" lines for one job: why each attempt was run again. */
async function retriesOf(jobId: string): Promise<LogLine[]> {
  return (await jsonLines(path.join(tmp, "state", "worker.log"))).filter((l) => l.msg === "task retried" && l.job_id === jobId);
}

async function credits(): Promise<number> {
  const res = await fetch(`${stack.apiUrl}/admin/accounts/${account.account_id}`, { headers: { authorization: `Bearer ${stack.adminToken}` } });
  return ((await res.json()) as { credits: number }).credits;
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "e2e-"));
  // Generated once and kept in the synthetic VOD cache (same options, same folder), as the other tests' VODs are.
  const vodRoot = path.join(synthCacheRoot(), "e2e-vods");
  ({ truth } = await generateSyntheticVod({ root: vodRoot, vodId: VOD_ID, durationSeconds: 150, seed: 5, width: 640, height: 360, moments: [{ kind: "hype", peak: 60 }, { kind: "hype", peak: 115 }] }));
  receiver = await startWebhookReceiver(() => account.webhook_signing_secret);
  stack = await startLocalStack({
    vodRoot,
    stateDir: path.join(tmp, "state"),
    // Two renderers, as the dev stack runs: a job's tasks really run side by side, and the crash case below kills
    // the one running a task while the other takes it over.
    renderers: 2,
    // The second renderer also stands for the re-cut Container class (RECUT_RENDER_URL): re-cuts try it first.
    recutRenderer: 1,
    // One task at a time per renderer (the default, said here because the capacity case counts on it).
    // The recogniser's accurate search alone (POCKETSPHINX_CROSS_CHECK=0, an operator's setting; the default adds
    // two fast searches, about as much recogniser CPU again): this file proves where tasks run and how jobs end,
    // and of captions only that a short's shown words are its .srt's, which holds with either. The cross-check is
    // proven where it is the subject: test/renderer/captions (pocketsphinx, trusted-words), the pipeline tests that
    // run the default (analyse-task, analysis-reuse, render-task), a cancel stopping a fast search
    // (test/renderer/service/cancel-task.test.ts). Half the recogniser CPU of this file (docs/DEVELOPMENT.md, "Tests").
    rendererEnv: { MAX_TASKS: "1", POCKETSPHINX_CROSS_CHECK: "0" },
    vars: { WEBHOOK_RETRY_BASE_SECONDS: "0.2", WATCHDOG_SECONDS: "20" },
  });
  const res = await fetch(`${stack.apiUrl}/admin/accounts`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "E2E", plan: "pro", credits: 5000, purchase: true }),
  });
  expect(res.status).toBe(201);
  account = (await res.json()) as typeof account;
  ready = true;
}, 600_000);

afterAll(async ({}, suite) => {
  await stack?.stop();
  await receiver?.close();
  // Its state (the Worker's local D1/R2, the renderers' logs and work folders), downloads and unzipped files.
  if (tmp) await removeScratchUnlessFailed(suite, [tmp], ready);
});

/** The first job's id: the later jobs of the same account on the same VOD re-cut it, reusing its analysis. */
let firstJobId = "";

describe("a job from POST /jobs to files on disk", () => {
  let jobId: string;
  let statuses: string[];
  beforeAll(async () => {
    const job = await createJob({
      num_shorts: 2,
      final_video_length_minutes: 1,
      webhook_url: `${receiver.url}/ok`,
      parameters: { max_highlight_duration: 25, shorts_crop_mode: "split", shorts_facecam_frame_enabled: true },
    });
    jobId = job.id;
    firstJobId = job.id;
    ({ statuses } = await watch(jobId, (j) => j.status === "completed" || j.status === "failed"));
  }, 600_000);

  it("moves pending → running → completed", async () => {
    const job = await getJob(jobId);
    expect(job.error).toBeNull();
    expect(job.status).toBe("completed");
    expect(job.progress).toBe(100);
    expect(statuses.filter((s) => s !== "pending")).toEqual(["running", "completed"].slice(statuses.includes("running") ? 0 : 1));
  });

  it("sends job.running then job.completed, each correctly signed", async () => {
    await expect.poll(() => receiver.forPath("/ok").filter((w) => w.payload.job_id === jobId).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    const hooks = receiver.forPath("/ok").filter((w) => w.payload.job_id === jobId);
    expect(hooks.map((h) => h.event)).toEqual(["job.running", "job.completed"]);
    expect(hooks.every((h) => h.signatureValid)).toBe(true);
    const completed = hooks[1].payload as { deliverables: { url: string; type: string }[]; zip_url: string; links_expire_at: string; manifest: { shorts_count: number; artifacts: { assets: Record<string, { url?: string }[]> } } };
    expect(completed.manifest.shorts_count).toBe(completed.deliverables.filter((d) => d.type === "short").length);
    const manifestUrls = Object.values(completed.manifest.artifacts.assets).flat().map((a) => a.url);
    for (const u of manifestUrls) expect(completed.deliverables.map((d) => d.url)).toContain(u);
    // The editor hand-off files are deliverables like any other: in the webhook too.
    expect(completed.deliverables.filter((d) => ["timeline", "edl", "transcript"].includes(d.type)).map((d) => d.type).sort()).toEqual(["edl", "timeline", "transcript", "transcript"]);
  });

  it("finds its split shorts' facecam by looking across the VOD, whose still scenes show too few distinct keyframes around the moments", async () => {
    // The synthetic gameplay changes only at its scene cuts: the segments around the two moments cannot tell an
    // overlay from the gameplay, so the analysis samples as many again across the VOD. The facecam (top-left,
    // 160x120 at 10,10 of 640x360) reaches below the default region's quarter, which would cut the face off.
    const lines = [...(await rendererLog(0, jobId)), ...(await rendererLog(1, jobId))].filter((l) => l.msg === "facecam region");
    expect(lines).toHaveLength(1);
    const decided = lines[0] as LogLine & { region: { x: number; y: number; w: number; h: number }; segments: number };
    const cam = truth.facecam;
    expect(decided, JSON.stringify(decided)).toMatchObject({ found: "detected", widened: true });
    expect(decided.region.x).toBeCloseTo(cam.x / truth.video.width, 1);
    expect(decided.region.y).toBeCloseTo(cam.y / truth.video.height, 1);
    expect(decided.region.y + decided.region.h).toBeCloseTo((cam.y + cam.height) / truth.video.height, 1);
    // A first look around the moments, then a second as large across the rest of the VOD.
    expect(decided.segments).toBeGreaterThan(FACECAM_SAMPLE.segments);
    expect(decided.segments).toBeLessThanOrEqual(2 * FACECAM_SAMPLE.segments);
  });

  it("hands editors the reel's cuts (.otio read by OpenTimelineIO, equal to the manifest's highlights; .edl adding up to the reel) and each short's transcript", async () => {
    type Results = { deliverables: { type: string; url: string; name: string; run_name?: string; index?: number }[]; manifest: { highlights: { run_name: string; start: number; end: number }[]; artifacts: { assets: Record<string, { name: string }[]> } } };
    const results = (await (await api(`/jobs/${jobId}/results`)).json()) as Results;
    const dir = path.join(tmp, "handoff");
    const { mkdir } = await import("node:fs/promises");
    await mkdir(dir, { recursive: true });
    const download = async (d: { url: string; name: string }) => {
      const file = path.join(dir, d.name);
      await writeFile(file, Buffer.from(await (await fetch(d.url)).arrayBuffer()));
      return file;
    };
    const reel = results.deliverables.find((d) => d.type === "reel")!;
    const byType = (type: string) => results.deliverables.filter((d) => d.type === type);
    expect(byType("timeline").map((d) => [d.name, d.run_name])).toEqual([[`reel-${reel.run_name}.otio`, reel.run_name]]);
    expect(byType("edl").map((d) => [d.name, d.run_name])).toEqual([[`reel-${reel.run_name}.edl`, reel.run_name]]);
    expect(results.manifest.artifacts.assets.timelines!.map((a) => a.name)).toEqual([`reel-${reel.run_name}.otio`]);

    // The .otio, read by OpenTimelineIO: its moment clips are the manifest's highlights of this reel, in order.
    const otio = await readTimeline("otio", await download(byType("timeline")[0]!));
    const rate = otio.global_start_time!.rate;
    expect(rate).toBe(30); // the synthetic VOD's FRAME-RATE
    const highlights = results.manifest.highlights.filter((h) => h.run_name === reel.run_name);
    const moments = otio.tracks[0]!.items.filter((c) => (c.metadata.highlights as { kind: string }).kind === "moment");
    expect(moments.map((c) => c.metadata.highlights)).toEqual(highlights.map((h) => expect.objectContaining({ vod_start: h.start, vod_end: h.end })));
    moments.forEach((c, i) => expect(Math.abs(c.source_range!.start.seconds - highlights[i]!.start)).toBeLessThanOrEqual(0.5 / rate + 1e-9));
    expect(otio.tracks[0]!.items[0]!.media_reference!.target_url).toBe(`https://www.twitch.tv/videos/${VOD_ID}`);

    // The .edl, read by OpenTimelineIO's EDL reader: its record lengths add up to the reel file's length.
    const reelInfo = await probeMedia(await download(reel));
    const edl = await readTimeline("edl", await download(byType("edl")[0]!), rate);
    expect(edl.tracks[0]!.items.map((c) => c.source_range!.start.value)).toEqual(otio.tracks[0]!.items.map((c) => c.source_range!.start.value));
    expect(edl.tracks[0]!.duration.value).toBe(Math.round(reelInfo.durationSeconds * rate));

    // Each short's transcript: its shown words are exactly its .srt's words.
    const transcripts = byType("transcript");
    expect(transcripts.map((d) => d.index)).toEqual(byType("short").map((d) => d.index));
    for (const t of transcripts) {
      const transcript = ShortTranscript.parse(JSON.parse(await readFile(await download(t), "utf8")));
      const srt = results.deliverables.find((d) => d.type === "captions" && d.index === t.index)!;
      const srtWords = parseSrt(await readFile(await download(srt), "utf8")).flatMap((c) => c.text.split(/\s+/).filter(Boolean));
      expect(transcript.words.filter((w) => w.shown).map((w) => w.word)).toEqual(srtWords);
      expect(transcript.short).toBe(`short-${String(t.index).padStart(2, "0")}.mp4`);
    }
  });

  it("serves every deliverable behind its link, and shorts are 1080x1920", async () => {
    const res = await api(`/jobs/${jobId}/results`);
    expect(res.status).toBe(200);
    const results = (await res.json()) as { deliverables: { type: string; url: string; name: string; size_bytes: number }[]; zip_url: string };
    expect(results.deliverables.filter((d) => d.type === "short")).toHaveLength(2);
    const dir = path.join(tmp, "download");
    const { mkdir } = await import("node:fs/promises");
    await mkdir(dir, { recursive: true });
    for (const d of results.deliverables) {
      const file = await fetch(d.url);
      expect(file.status, d.url).toBe(200);
      const bytes = Buffer.from(await file.arrayBuffer());
      expect(bytes.length).toBe(d.size_bytes);
      await writeFile(path.join(dir, d.name), bytes);
    }
    for (const d of results.deliverables.filter((x) => x.type === "short")) {
      const info = await probeMedia(path.join(dir, d.name));
      expect(info.video).toMatchObject({ width: 1080, height: 1920 });
      expect(info.audio).toBeTruthy();
    }
  });

  it("zip_url streams a ZIP that unzip opens, holding every file", async () => {
    const results = (await (await api(`/jobs/${jobId}/results`)).json()) as { deliverables: { name: string; size_bytes: number }[]; zip_url: string };
    const res = await fetch(results.zip_url); // no API key: the token is enough
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("zip");
    const zipPath = path.join(tmp, "all.zip");
    const zipBytes = Buffer.from(await res.arrayBuffer());
    await writeFile(zipPath, zipBytes);
    // On the wire, not only in the Worker's Response: a length and ranges, so a cut download resumes (issue 23, 5).
    expect([res.headers.get("content-length"), res.headers.get("accept-ranges")]).toEqual([String(zipBytes.byteLength), "bytes"]);
    const cut = path.join(tmp, "resumed.zip");
    await writeFile(cut, zipBytes.subarray(0, Math.floor(zipBytes.byteLength / 3)));
    await run("curl", ["-sS", "-f", "-C", "-", "-o", cut, results.zip_url]);
    expect((await readFile(cut)).equals(zipBytes)).toBe(true);
    const out = path.join(tmp, "unzipped");
    await run("unzip", ["-o", "-q", zipPath, "-d", out]);
    const files = (await readdir(out)).sort();
    expect(files).toEqual(results.deliverables.map((d) => d.name).sort());
    expect(files.filter((f) => /\.(otio|edl)$|\.transcript\.json$/.test(f))).toHaveLength(4);
    for (const d of results.deliverables) expect((await stat(path.join(out, d.name))).size).toBe(d.size_bytes);

    const tampered = results.zip_url.replace(/token=([^&]+)/, (_m, t: string) => `token=${t.slice(0, -2)}xx`);
    expect([401, 403]).toContain((await fetch(tampered)).status);
  });
});

describe("re-cuts with chat on screen (parameters.chat_overlay, a reused analysis)", () => {
  /**
   * Two shorts-only jobs alike but for the chat overlay: the same short, once without chat and once with it. Both
   * are re-cuts of the first job's VOD by the same account, so both reuse its analysis (issue 21, point 2): no
   * processing credits, no acquisition of the VOD, only their short rendered.
   */
  it("renders the chat replay into a short: drawn in the gameplay panel, emotes fetched from the CDN, captions and facecam untouched", async () => {
    const emoteRequests = stack.twitch.stats.requests.emote;
    const body = (chat_overlay: string) => ({ num_shorts: 1, compilation_enabled: false, final_video_length_minutes: 0, parameters: { max_highlight_duration: 25, shorts_crop_mode: "split", chat_overlay } });
    const off = await createJob(body("off"));
    // The first re-cut's analysis starts on the re-cut renderer (free: nothing else runs now) before the second is
    // posted; the second finds it busy or free, and either way runs.
    await expect.poll(async () => (await rendererLog(1, off.id)).some((l) => l.msg === "task accepted" && l.task_key === `${off.id}.analyse`), { timeout: 60_000 }).toBe(true);
    const on = await createJob(body("panel"));
    for (const id of [off.id, on.id]) {
      const { job } = await watch(id, (j) => j.status === "completed" || j.status === "failed");
      expect(job.error).toBeNull();
    }
    // The estimate is the same with chat on screen; as re-cuts, each pays for its one short only.
    expect(on.credit_cost).toBe(off.credit_cost);
    expect(on.credit_cost).toBe(10);
    for (const id of [off.id, on.id]) {
      expect((await getJob(id)).analysis_reused).toMatchObject({ from_job_id: firstJobId });
      const lines = [...(await rendererLog(0, id)), ...(await rendererLog(1, id))];
      const planned = lines.find((l) => l.msg === "job planned");
      expect(planned, `job planned line of ${id}`).toMatchObject({ reused_from: firstJobId });
      expect(Object.keys(planned!.timings as Record<string, number>)).not.toContain("acquire_analyse");
      expect(lines.some((l) => l.msg === "source acquired")).toBe(false);
      // One container start: the renderer process that ran the analysis was handed the short in the Worker's
      // answer to the analysis' completion, and ran it (task contract 3, orchestration/task-handoff.ts).
      const byRenderer = await Promise.all([0, 1].map((i) => rendererLog(i, id)));
      const analysedOn = byRenderer.findIndex((l) => l.some((x) => x.msg === "task accepted" && x.task_key === `${id}.analyse`));
      expect(byRenderer[analysedOn]!.find((x) => x.msg === "handed-over task accepted"), `hand-off of ${id}`).toMatchObject({ task_key: `${id}.short-01`, handed_over_by: `${id}.analyse` });
      expect(byRenderer.flat().filter((x) => x.msg === "task accepted").map((x) => x.task_key)).toEqual([`${id}.analyse`]);
    }
    const files: string[] = [];
    for (const id of [off.id, on.id]) {
      const results = (await (await api(`/jobs/${id}/results`)).json()) as { deliverables: { type: string; url: string; name: string }[] };
      const short = results.deliverables.find((d) => d.type === "short")!;
      const file = path.join(tmp, `chat-${id}-${short.name}`);
      await writeFile(file, Buffer.from(await (await fetch(short.url)).arrayBuffer()));
      files.push(file);
    }
    const frame = async (file: string, at: number) => {
      const { stdout } = await run("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-ss", String(at), "-i", file, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "pipe:1"], { encoding: "buffer", maxBuffer: 1 << 24 });
      return stdout;
    };
    const diff = (a: Buffer, b: Buffer, y0: number, y1: number) => {
      let sum = 0;
      for (let i = y0 * 1080; i < y1 * 1080; i++) sum += Math.abs(a[i]! - b[i]!);
      return sum / ((y1 - y0) * 1080);
    };
    // Split at 0.5: facecam 0-960, chat from under it down to above the captions (which start near y 1262).
    let chatChange = 0;
    for (const at of [4, 8, 12]) {
      const [a, b] = [await frame(files[0]!, at), await frame(files[1]!, at)];
      expect(diff(a, b, 0, 950), `facecam panel at ${at} s`).toBeLessThan(2);
      expect(diff(a, b, 1270, 1600), `captions at ${at} s`).toBeLessThan(2);
      chatChange = Math.max(chatChange, diff(a, b, 980, 1240));
    }
    expect(chatChange).toBeGreaterThan(8);
    // The renderer says what it drew; every emote image it drew was fetched from the local CDN (the short's
    // stretch is the selection's choice, so whether its chat holds emotes is too: the pixel tests in
    // test/renderer/chat-overlay draw emotes on purpose).
    const drawn = [...(await rendererLog(0, on.id)), ...(await rendererLog(1, on.id))].filter((l) => l.msg === "chat overlay drawn");
    expect(drawn).toHaveLength(1);
    expect(drawn[0]).toMatchObject({ style: "panel" });
    expect(Number(drawn[0]!.messages)).toBeGreaterThan(0);
    expect(stack.twitch.stats.requests.emote - emoteRequests).toBeGreaterThanOrEqual(Number(drawn[0]!.emoteImages));
  }, 600_000);
});

/**
 * The moments of the jobs below that must complete (a renderer killed or stopped under them, one slot for the
 * pool): what they prove is where tasks run and how they end, not the picture, so each moment is at most 15 s
 * and each short the 15 s a short is at least, where 25 s moments made 20-25 s ones (the default, 20-60 s).
 */
const BRIEF_MOMENTS = { min_highlight_duration: 10, max_highlight_duration: 15 };

describe("failure paths", () => {
  it("cancel while running: tiered refund, renderer stopped, job.failed sent", async () => {
    const before = await credits();
    const job = await createJob({ num_shorts: 2, webhook_url: `${receiver.url}/cancel`, parameters: { max_highlight_duration: 25 } });
    // Cancelled while its render tasks run (past the analysis), an FFmpeg process under their renderer.
    await renderTaskRunning(job.id);
    const res = await api(`/jobs/${job.id}/cancel`, { method: "POST" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string; status: string; refund_credits: number };
    expect(body.status).toBe("failed");
    expect(body.refund_credits).toBeLessThan(job.credit_cost);
    expect(body.refund_credits).toBeGreaterThan(0);
    // Every task of the job is stopped on every renderer of the pool.
    await expect.poll(async () => (await runningTasksOf(job.id)).length, { timeout: 20_000 }).toBe(0);
    // A stopped task's processes are gone by then: no FFmpeg or recogniser is left under any renderer.
    expect(mediaProcesses()).toEqual([]);
    await expect.poll(() => receiver.forPath("/cancel").find((w) => w.event === "job.failed" && w.payload.job_id === job.id), { timeout: 20_000 }).toBeTruthy();
    const failed = receiver.forPath("/cancel").find((w) => w.event === "job.failed")!;
    expect(failed.signatureValid).toBe(true);
    expect(failed.payload.refunded_credits).toBe(body.refund_credits);
    expect(String(failed.payload.error)).toMatch(/cancel/i);
    expect(await credits()).toBe(before - job.credit_cost + body.refund_credits);
    expect((await api(`/jobs/${job.id}/cancel`, { method: "POST" })).status).toBe(400);
  }, 300_000);

  it("a webhook receiver answering 500 gets 1 + 3 attempts, then the delivery is failed", async () => {
    receiver.setStatus("/broken", 500);
    const job = await createJob({ num_shorts: 1, webhook_url: `${receiver.url}/broken` });
    await api(`/jobs/${job.id}/cancel`, { method: "POST" });
    await expect.poll(() => receiver.forPath("/broken").filter((w) => w.event === "job.failed").length, { timeout: 30_000 }).toBe(4);
    await expect
      .poll(async () => {
        const res = await api(`/jobs/${job.id}/webhooks`);
        const { deliveries: items } = (await res.json()) as { deliveries: { event: string; status: string; attempts: unknown[] }[] };
        const failed = items.find((d) => d.event === "job.failed");
        return failed ? `${failed.status}/${failed.attempts.length}` : undefined;
      }, { timeout: 10_000 })
      .toBe("failed/4");
  }, 120_000);

  it("a renderer killed mid-task: the task is retried on the other renderer and the job completes with every output", async () => {
    const before = await credits();
    const job = await createJob({ num_shorts: 2, webhook_url: `${receiver.url}/crash`, parameters: BRIEF_MOMENTS });
    // Killed while it renders: the analysis is not the task under test.
    const { index: victim, taskId } = await renderTaskRunning(job.id);
    // SIGKILL, no goodbye: the Worker finds the task lost after WATCHDOG_SECONDS (20 s here) and runs it again.
    process.kill(-stack.renderers[victim]!.child.pid!, "SIGKILL");
    // The retry waits for the other renderer's own task (one slot each), then renders: minutes on a busy machine.
    const { job: done } = await watch(job.id, (j) => j.status === "completed" || j.status === "failed", 540_000);
    expect(done.error).toBeNull();
    expect(done.status).toBe("completed");
    const results = (await (await api(`/jobs/${job.id}/results`)).json()) as { deliverables: { type: string }[] };
    expect(results.deliverables.filter((d) => d.type === "short")).toHaveLength(2);
    expect(results.deliverables.filter((d) => d.type === "reel")).toHaveLength(1);
    await expect.poll(() => receiver.forPath("/crash").find((w) => w.event === "job.completed"), { timeout: 20_000 }).toBeTruthy();
    expect(await credits()).toBe(before - job.credit_cost + done.refunded_credits);
    // Only the watchdog could know: the killed task was found lost and run again.
    expect(await retriesOf(job.id)).toEqual([expect.objectContaining({ task_id: taskId, why: "lost", ended_attempt: 1 })]);
    // The next test gets a whole pool again.
    await stack.restartRenderer(victim);
  }, 900_000);

  it("a renderer told to stop (SIGTERM) mid-render reports the task interrupted: it runs again at once on the other renderer and the job completes", async () => {
    // Two shorts, no reel: two render tasks, one per renderer, and a lighter job than the crash case's.
    const job = await createJob({ num_shorts: 2, compilation_enabled: false, final_video_length_minutes: 0, webhook_url: `${receiver.url}/sigterm`, parameters: { ...BRIEF_MOMENTS, shorts_crop_mode: "fit" } });
    const { index: victim, taskId } = await renderTaskRunning(job.id);
    const tsx = stack.renderers[victim]!.child;
    // The renderer itself (tsx's one child), not its process group: its FFmpeg must be stopped by the renderer,
    // after it has told the Worker, as on a rollout or an eviction.
    const renderer = childProcesses(tsx.pid!);
    expect(renderer).toHaveLength(1);
    const exited = new Promise<number | null>((r) => (tsx.exitCode !== null ? r(tsx.exitCode) : tsx.once("exit", (code) => r(code))));
    process.kill(renderer[0]!.pid, "SIGTERM");
    expect(await exited).toBe(0);

    const { job: done } = await watch(job.id, (j) => j.status === "completed" || j.status === "failed", 540_000);
    expect(done.error).toBeNull();
    expect(done.status).toBe("completed");
    const results = (await (await api(`/jobs/${job.id}/results`)).json()) as { deliverables: { type: string }[] };
    expect(results.deliverables.filter((d) => d.type === "short")).toHaveLength(2);
    // The renderer said so before it exited ...
    expect((await rendererLog(victim, job.id)).filter((l) => l.msg === "task interrupted").map((l) => l.task_id)).toEqual([taskId]);
    // ... so the Worker ran the task again on that report, not when its watchdog (WATCHDOG_SECONDS) found it lost ...
    expect(await retriesOf(job.id)).toEqual([expect.objectContaining({ task_id: taskId, why: "interrupted", ended_attempt: 1 })]);
    // ... and the second attempt ran, to the end, on the other renderer.
    const other = await rendererLog(1 - victim, job.id);
    expect(other.filter((l) => l.msg === "task completed" && l.task_id === taskId).map((l) => l.attempt)).toEqual([2]);
    await stack.restartRenderer(victim);
  }, 900_000);
});

describe("capacity", () => {
  it("a job with more tasks than renderer slots (one renderer, MAX_TASKS=1) waits for a slot, never runs two at once, and completes", async () => {
    // One slot in the whole pool: the second renderer is stopped, so the Worker finds it unreachable and the first
    // one busy (503), and a task waits in the queue with backoff.
    await stack.renderers[1]!.stop();
    const job = await createJob({ num_shorts: 2, compilation_enabled: false, final_video_length_minutes: 0, webhook_url: `${receiver.url}/capacity`, parameters: { ...BRIEF_MOMENTS, shorts_crop_mode: "fit" } });
    const { job: done } = await watch(job.id, (j) => j.status === "completed" || j.status === "failed", 480_000);
    expect(done.error).toBeNull();
    expect(done.status).toBe("completed");
    const results = (await (await api(`/jobs/${job.id}/results`)).json()) as { deliverables: { type: string }[] };
    expect(results.deliverables.filter((d) => d.type === "short")).toHaveLength(2);

    // A task logs "task completed" once the Worker has answered its completion, so the last task's line can come
    // just after the job reads completed: wait until every task started here has logged its end.
    const ended = (lines: LogLine[]) => lines.filter((l) => /^task (completed|failed|cancelled|interrupted)$/.test(String(l.msg))).length;
    await expect.poll(async () => {
      const lines = await rendererLog(0, job.id);
      return ended(lines) >= lines.filter((l) => l.msg === "task started").length;
    }, { timeout: 10_000 }).toBe(true);
    const log = await rendererLog(0, job.id);
    const started = log.filter((l) => l.msg === "task started").map((l) => String(l.task_id));
    // The analysis and at least two render tasks ran here, each once, each to completion.
    expect(started).toContain("analyse");
    expect(started.filter((id) => id !== "analyse").length).toBeGreaterThanOrEqual(2);
    expect(new Set(started).size).toBe(started.length);
    expect(log.filter((l) => l.msg === "task completed").map((l) => String(l.task_id)).sort()).toEqual([...started].sort());
    // At least one task was refused (503 busy) while another ran ...
    expect(log.filter((l) => l.msg === "task refused: busy").length).toBeGreaterThan(0);
    // ... and never did two run at once (one process's log: its lines are in the order things happened).
    let running = 0;
    let most = 0;
    for (const l of log) {
      if (l.msg === "task started") most = Math.max(most, ++running);
      else if (/^task (completed|failed|cancelled|interrupted)$/.test(String(l.msg))) running -= 1;
    }
    expect(most).toBe(1);
    expect(await retriesOf(job.id)).toEqual([]);
  }, 600_000);
});
