/**
 * The driver of `npm run test:containers` (scripts/test-containers.sh prepares Docker and the images first):
 * one job through the real Cloudflare Container path. `wrangler dev --enable-containers` builds
 * render-container/Dockerfile and the Worker has no RENDER_URL, so the job goes Queue -> dispatch ->
 * RenderContainer Durable Object -> a Docker container of the renderer image, which calls back and uploads to
 * the Worker and reads the VOD from the local Twitch-compatible server. Then every deliverable is downloaded
 * and checked (sizes, ffprobe), and a PASS/FAIL summary with timings is printed.
 *
 * The container reaches the Worker and the Twitch server at Docker's bridge gateway (both listen there, and
 * PUBLIC_BASE_URL names it); docs/CONTAINERS.md ("The Container path, run locally") says why and what else it needs.
 */
import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs, promisify } from "node:util";
import { createClient } from "../../common/client";
import type { Deliverable, JobRecord } from "../../common/contract";
import { startLocalStack, type LocalStack } from "../stack/local-stack";
import { generateSyntheticVod } from "../synth-vod";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const VOD_ID = "900000077";

const { values } = parseArgs({
  options: {
    state: { type: "string", default: path.join(ROOT, ".local/containers") },
    "egress-image": { type: "string", default: process.env.MINIFLARE_CONTAINER_EGRESS_IMAGE ?? "" },
    "timeout-minutes": { type: "string", default: "30" },
    verbose: { type: "boolean", default: false },
  },
});
const stateDir = path.resolve(values.state!);
const timeoutMs = Number(values["timeout-minutes"]) * 60_000;

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}
const checks: Check[] = [];
const timings: [string, number][] = [];
const check = (name: string, ok: boolean, detail: string) => {
  checks.push({ name, ok, detail });
  console.log(`  ${ok ? "ok  " : "FAIL"} ${name}: ${detail}`);
};
async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  process.stdout.write(`\n▸ ${label}\n`);
  try {
    return await fn();
  } finally {
    timings.push([label, (performance.now() - t0) / 1000]);
  }
}

async function docker(...args: string[]): Promise<string> {
  return (await run("docker", args, { maxBuffer: 64 * 1024 * 1024 })).stdout.trim();
}

/** Containers that `wrangler dev` (workerd) started from an image it built (`cloudflare-dev/<class>`), not the sidecars. */
async function renderContainers(): Promise<{ id: string; name: string; image: string; status: string }[]> {
  const out = await docker("ps", "-a", "--no-trunc", "--format", "{{.ID}}\t{{.Names}}\t{{.Image}}\t{{.Status}}");
  return out
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [id, name, image, status] = line.split("\t") as [string, string, string, string];
      return { id, name, image, status };
    })
    .filter((c) => c.image.startsWith("cloudflare-dev/"));
}

async function containerLog(id: string): Promise<string> {
  const { stdout, stderr } = await run("docker", ["logs", id], { maxBuffer: 64 * 1024 * 1024 });
  return stdout + stderr;
}

/**
 * Samples the renderer containers every 2 s while the job runs: every one that appeared, the most running at
 * once, and each one's log as last seen (an instance is stopped when its work ends and may be removed later).
 */
function watchContainers(before: Set<string>) {
  const seen = new Map<string, { name: string; image: string; status: string; log: string }>();
  let most = 0;
  let stopped = false;
  const tick = async () => {
    const current = (await renderContainers()).filter((c) => !before.has(c.id));
    most = Math.max(most, current.filter((c) => c.status.startsWith("Up")).length);
    for (const c of current) seen.set(c.id, { ...c, log: await containerLog(c.id).catch(() => seen.get(c.id)?.log ?? "") });
  };
  const loop = (async () => {
    while (!stopped) {
      await tick().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 2000));
    }
  })();
  return {
    seen,
    most: () => most,
    stop: async () => {
      stopped = true;
      await loop;
      await tick().catch(() => undefined);
    },
  };
}

/** Whether a container still runs and when it exited (epoch ms; null while running or when Docker has no date). */
async function exitOf(id: string): Promise<{ running: boolean; finishedAt: number | null }> {
  const [running, finished] = (await docker("inspect", "--format", "{{.State.Running}} {{.State.FinishedAt}}", id)).split(" ");
  const at = Date.parse(finished ?? "");
  // Docker reports 0001-01-01T00:00:00Z for a container that never exited.
  return { running: running === "true", finishedAt: running !== "true" && Number.isFinite(at) && at > 0 ? at : null };
}

/** Waits until none of the watched containers runs any more (or the time is up; the check then says which do). */
async function exitedWithin(watcher: ReturnType<typeof watchContainers>, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const states = await Promise.all([...watcher.seen.keys()].map((id) => exitOf(id).catch(() => ({ running: false }))));
    if (states.every((s) => !s.running)) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** The task attempts the Worker started for a job, from its "dispatch" log lines (one container instance each). */
async function startedAttempts(workerLog: string, jobId: string): Promise<{ task_id: string; attempt: number }[]> {
  const attempts: { task_id: string; attempt: number }[] = [];
  for (const line of (await readFile(workerLog, "utf8")).split("\n")) {
    const json = line.slice(line.indexOf("{"));
    if (!json.includes('"msg":"dispatch"') || !json.includes(jobId)) continue;
    try {
      const entry = JSON.parse(json) as { job_id?: string; outcome?: string; task_id?: string; attempt?: number };
      if (entry.job_id === jobId && entry.outcome === "started" && entry.task_id) attempts.push({ task_id: entry.task_id, attempt: entry.attempt ?? 0 });
    } catch {
      // Not one of the Worker's JSON lines.
    }
  }
  return attempts;
}

interface Probe {
  format: { duration?: string; format_name?: string };
  streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
}
async function ffprobe(file: string): Promise<Probe> {
  const { stdout } = await run("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file]);
  return JSON.parse(stdout) as Probe;
}

/** Downloads one deliverable and checks it is what its entry says. */
async function verifyDeliverable(d: Deliverable, dir: string): Promise<void> {
  const file = path.join(dir, d.name);
  const res = await fetch(d.url);
  if (!res.ok || !res.body) return check(`download ${d.name}`, false, `HTTP ${res.status}`);
  await pipeline(Readable.fromWeb(res.body as never), createWriteStream(file));
  const size = (await stat(file)).size;
  if (size !== d.size_bytes) return check(`download ${d.name}`, false, `${size} bytes on disk, ${d.size_bytes} listed`);
  if (d.type === "reel" || d.type === "short") {
    const p = await ffprobe(file);
    const v = p.streams.find((s) => s.codec_type === "video");
    const a = p.streams.find((s) => s.codec_type === "audio");
    const duration = Number(p.format.duration);
    const shapeOk = v?.width && v.height ? (d.type === "short" ? v.height > v.width : v.width > v.height) : false;
    const ok = v?.codec_name === "h264" && a !== undefined && Math.abs(duration - d.duration_seconds) < 1.5 && shapeOk;
    return check(`${d.type} ${d.name}`, ok, `${v?.codec_name ?? "no video"} ${v?.width}x${v?.height}, ${a?.codec_name ?? "no audio"}, ${duration.toFixed(1)} s (listed ${d.duration_seconds.toFixed(1)} s), ${size} bytes`);
  }
  if (d.type === "thumbnail") {
    const p = await ffprobe(file);
    const v = p.streams.find((s) => s.codec_type === "video");
    return check(`thumbnail ${d.name}`, Boolean(v?.width && v.height), `${v?.codec_name} ${v?.width}x${v?.height}`);
  }
  const text = await readFile(file, "utf8");
  if (d.type === "captions") return check(`captions ${d.name}`, /^\d+\r?\n\d\d:\d\d:\d\d,\d{3} --> /m.test(text), `${text.split(/\r?\n\r?\n/).filter(Boolean).length} cues`);
  try {
    JSON.parse(text);
    check(`${d.type} ${d.name}`, true, `valid JSON, ${size} bytes`);
  } catch {
    check(`${d.type} ${d.name}`, false, "not valid JSON");
  }
}

let stack: LocalStack | undefined;
const starting = new AbortController();
const stop = async () => {
  await stack?.stop();
  stack = undefined;
};
for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  process.on(signal, () => {
    starting.abort();
    // A stack still starting stops itself on the abort; give it the time its processes need to exit.
    void stop().then(() => setTimeout(() => process.exit(code), 6000));
  });
}

let job: JobRecord | undefined;
const t0 = performance.now();
try {
  await mkdir(stateDir, { recursive: true });
  // A fresh Worker state each run: the job, its files and the Durable Objects of earlier runs would only confuse.
  await rm(path.join(stateDir, "wrangler"), { recursive: true, force: true });

  const gateway = await timed("Docker bridge gateway (where the container reaches the host)", async () => {
    // workerd binds its container egress listener to this address and reads it from IPAM. Docker 20.10 leaves
    // it empty on the default bridge unless dockerd was started with --bip (then workerd fails every container
    // start with "DNS lookup failed; params.host = "): scripts/test-containers.sh starts dockerd with --bip.
    const gw = (await docker("network", "inspect", "bridge", "--format", "{{range .IPAM.Config}}{{.Gateway}} {{end}}")).split(" ").find(Boolean);
    if (!gw) throw new Error('Docker\'s bridge network lists no gateway; restart dockerd with --bip 172.17.0.1/16 (or "bip" in /etc/docker/daemon.json)');
    console.log(`  ${gw}`);
    return gw;
  });

  const vodRoot = path.join(stateDir, "vods");
  await timed("Synthetic VOD (150 s, 640x360, two hype moments; cached)", () =>
    generateSyntheticVod({ root: vodRoot, vodId: VOD_ID, durationSeconds: 150, seed: 5, width: 640, height: 360, moments: [{ kind: "hype", peak: 60 }, { kind: "hype", peak: 115 }] }),
  );

  const before = new Set((await renderContainers()).map((c) => c.id));
  stack = await timed("wrangler dev --enable-containers (builds render-container/Dockerfile), no RENDER_URL", () =>
    startLocalStack({
      vodRoot,
      stateDir,
      host: gateway,
      containers: {
        env: {
          WRANGLER_DOCKER_BIN: path.join(ROOT, "dev/containers/docker-shim.sh"),
          ...(values["egress-image"] ? { MINIFLARE_CONTAINER_EGRESS_IMAGE: values["egress-image"] } : {}),
        },
      },
      readyTimeoutMs: 20 * 60_000,
      signal: starting.signal,
      echo: values.verbose,
    }),
  );
  const s = stack;
  check("no renderer process, no RENDER_URL", s.rendererUrls.length === 0, `Worker at ${s.apiUrl}, Twitch at ${s.twitch.url}`);

  const apiKey = await timed("Account (admin API)", async () => {
    const res = await fetch(`${s.apiUrl}/admin/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${s.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Container run", plan: "pro", credits: 5000, purchase: true }),
    });
    if (res.status !== 201) throw new Error(`creating the account failed: HTTP ${res.status} ${await res.text()}`);
    return ((await res.json()) as { api_key: string }).api_key;
  });
  const client = createClient({ baseUrl: s.apiUrl, apiKey });

  const ack = await timed("Submit the job", () =>
    client.createJob({ vod_url: `https://www.twitch.tv/videos/${VOD_ID}`, num_shorts: 2, final_video_length_minutes: 1, parameters: { max_highlight_duration: 25 } }),
  );
  console.log(`  job ${ack.id}, ${ack.credit_cost} credits`);

  const watcher = watchContainers(before);
  const submitted = performance.now();
  let runningAt: number | undefined;
  job = await timed("Wait for the job (queue -> RenderContainer DO -> container -> callbacks)", () =>
    client.waitForJob(ack.id, {
      intervalMs: 1000,
      maxIntervalMs: 2000,
      timeoutMs,
      onProgress: (j) => {
        if (j.status === "running" && runningAt === undefined) runningAt = performance.now();
        console.log(`  ${((performance.now() - submitted) / 1000).toFixed(1).padStart(6)} s  ${j.status.padEnd(9)} ${String(j.progress).padStart(3)} %  ${j.stage ?? ""}`);
      },
    }),
  );
  if (runningAt !== undefined) timings.push(["  of which: submit -> running (queue, container start, job accepted)", (runningAt - submitted) / 1000]);
  check("job completed", job.status === "completed", job.status === "completed" ? `progress ${job.progress} %` : `${job.status}: ${JSON.stringify(job.error)}`);

  await timed("Evidence that containers rendered it, one per task, each gone once its task ended", async () => {
    // The last task's instance is stopped right after the report that completes the job: give it time to exit.
    await exitedWithin(watcher, 60_000);
    await watcher.stop();
    const created = [...watcher.seen.entries()].map(([id, c]) => ({ id, ...c }));
    const logs = created.map((c) => c.log).join("\n");
    const started = await startedAttempts(path.join(stateDir, "worker.log"), ack.id);
    const tasks = new Set(started.map((a) => a.task_id));
    check(
      "one container per task: as many created as the Worker started task attempts, one attempt per task",
      created.length === started.length && started.length === tasks.size && tasks.size > 1,
      `${created.length} created (at most ${watcher.most()} running at once), ${started.length} attempts started for ${tasks.size} tasks (${[...tasks].join(", ")})`,
    );
    const finishedAt = job?.finished_at ? Date.parse(job.finished_at) : NaN;
    // A container already removed has no exit date left to compare (it did exit).
    const exits = await Promise.all(created.map(async (c) => ({ name: c.name, ...(await exitOf(c.id).catch(() => ({ running: false, finishedAt: null }))) })));
    const running = exits.filter((e) => e.running);
    // The job completes with its last task's report, and that task's instance stops right after it: every other
    // instance must have exited before the job completed, the last one within seconds after.
    const late = exits
      .filter((e) => e.finishedAt !== null)
      .sort((a, b) => a.finishedAt! - b.finishedAt!)
      .slice(0, -1)
      .filter((e) => !(e.finishedAt! <= finishedAt));
    const last = Math.max(...exits.map((e) => e.finishedAt ?? -Infinity));
    check(
      "every container exited when its task ended, before the job completed (the last one right after)",
      running.length === 0 && late.length === 0 && Number.isFinite(finishedAt) && last - finishedAt < 30_000,
      `${running.length} still running, ${late.length} exited after the job completed besides the last; the last exited ${((last - finishedAt) / 1000).toFixed(1)} s after completion`,
    );
    const lines = logs.split("\n").filter((l) => l.includes(ack.id)).length;
    check("the containers' logs show the job", lines > 0, lines > 0 ? `${lines} log lines name ${ack.id}` : "job id not in any container's log");
  });

  if (job.status === "completed") {
    await timed("Download and check every deliverable", async () => {
      const results = await client.getResults(ack.id);
      const dir = path.join(stateDir, "out", ack.id);
      await mkdir(dir, { recursive: true });
      const kinds = results.deliverables.map((d) => d.type);
      check("deliverables", kinds.includes("reel") && kinds.filter((k) => k === "short").length === 2, kinds.join(", "));
      for (const d of results.deliverables) await verifyDeliverable(d, dir);
    });
  }
} catch (err) {
  check("run", false, err instanceof Error ? err.message : String(err));
} finally {
  await timed("Stop the stack", stop);
}

const total = (performance.now() - t0) / 1000;
const failed = checks.filter((c) => !c.ok);
console.log("\n== test:containers summary");
for (const [label, s] of timings) console.log(`  ${s.toFixed(1).padStart(7)} s  ${label}`);
console.log(`  ${total.toFixed(1).padStart(7)} s  total (driver)`);
console.log(`  checks: ${checks.length - failed.length} passed, ${failed.length} failed`);
for (const f of failed) console.log(`  FAILED ${f.name}: ${f.detail}`);
console.log(`  logs: ${path.join(stateDir, "worker.log")}${job ? `, job ${job.id}` : ""}`);
console.log(failed.length === 0 && checks.length > 0 ? "RESULT: PASS" : "RESULT: FAIL");
process.exit(failed.length === 0 && checks.length > 0 ? 0 : 1);
