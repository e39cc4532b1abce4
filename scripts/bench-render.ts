/**
 * Render benchmark (`npm run bench:render`): builds synthetic VODs of 10, 60 and 180 minutes (override with
 * BENCH_MINUTES=10,60), renders the same outputs from each through the real pipeline against the local
 * Twitch-compatible server (one in-process job, dev/job-runner: the analysis task, the render tasks, the
 * finalising step, as production runs them), and prints per stage wall time and x-realtime, bytes downloaded against the
 * minimum needed, the job's wall time against its encode time, and peak memory of the renderer and its
 * FFmpeg children. Figures, not assertions: targets are printed beside them.
 *
 * BENCH_OUTPUT=small (default) renders a deliberately small output (1-minute reel, two 30 s shorts), the worst
 * case for the wall/encode ratio because the fixed costs (audio download + analysis, captions) weigh most;
 * BENCH_OUTPUT=default sends the request with the API's defaults (the profile's own reel length) plus three
 * shorts, a typical job.
 */
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { generateSyntheticVod, synthCacheRoot } from "../dev/synth-vod";
import { startTwitchServer } from "../dev/twitch-server";
import { loadConfig } from "../render-container/src/config";
import { localRenderJob } from "../dev/render-cli/local-job";
import { silentLogger } from "../render-container/src/log";
import { runJobInProcess } from "../dev/job-runner/in-process";

const minutesList = (process.env.BENCH_MINUTES ?? "10,60,180").split(",").map(Number);
const outputKind = process.env.BENCH_OUTPUT === "default" ? "default" : "small";

/**
 * Resident memory (kB) of this process and all its descendants, and each one's CPU time so far (clock ticks),
 * from /proc/<pid>/stat alone, read synchronously: the async version of this sampler cost the measured process
 * ~9 % of a core, this one under 2 %.
 */
function sampleTree(rootPid: number): { rssKb: number; cpu: Map<number, { name: string; ticks: number }> } {
  const procs = new Map<number, { ppid: number; name: string; ticks: number; rssKb: number }>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
      const close = stat.lastIndexOf(")");
      const f = stat.slice(close + 2).split(" ");
      procs.set(pid, { ppid: Number(f[1]), name: stat.slice(stat.indexOf("(") + 1, close), ticks: Number(f[11]) + Number(f[12]), rssKb: Number(f[21]) * 4 });
    } catch {
      /* exited */
    }
  }
  const inTree = (pid: number): boolean => pid === rootPid || (pid > 1 && procs.has(pid) && inTree(procs.get(pid)!.ppid));
  let rssKb = 0;
  const cpu = new Map<number, { name: string; ticks: number }>();
  for (const [pid, p] of procs) {
    if (!inTree(pid)) continue;
    rssKb += p.rssKb;
    cpu.set(pid, { name: p.name, ticks: p.ticks });
  }
  return { rssKb, cpu };
}

/** CPU seconds per process name (a process's last sample; up to one interval of a short process is missed). */
function cpuByName(lastSeen: Map<number, { name: string; ticks: number }>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { name, ticks } of lastSeen.values()) out[name] = (out[name] ?? 0) + ticks / 100;
  return out;
}

/** Busy and total jiffies of the whole machine (all cores), from /proc/stat. */
function cpuJiffies(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "latin1").split("\n")[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  const total = v.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** Share of the machine's CPU in use during each stage's window, from samples taken every 200 ms. */
function busyPerStage(samples: { t: number; busy: number; total: number }[], windows: Record<string, { start: number; end: number }>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, w] of Object.entries(windows)) {
    if (w.end - w.start < 0.4) continue;
    const inside = samples.filter((s) => s.t >= w.start && s.t <= w.end);
    if (inside.length < 2) continue;
    const a = inside[0]!;
    const b = inside[inside.length - 1]!;
    out[name] = (b.busy - a.busy) / Math.max(1, b.total - a.total);
  }
  return out;
}

/** CPU seconds per process name spent inside each stage's window (stages that overlap share their seconds). */
function cpuPerStage(timeline: { t: number; byName: Record<string, number> }[], windows: Record<string, { start: number; end: number }>): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  const at = (t: number) => timeline.filter((x) => x.t <= t).at(-1)?.byName ?? {};
  for (const [stage, w] of Object.entries(windows)) {
    if (w.end - w.start < 0.4) continue;
    const a = at(w.start);
    const b = at(w.end);
    out[stage] = Object.fromEntries(Object.keys(b).map((k) => [k, Math.round(((b[k] ?? 0) - (a[k] ?? 0)) * 10) / 10]).filter(([, v]) => (v as number) > 0.1));
  }
  return out;
}

function fmtBytes(n: number) {
  return `${(n / 1e6).toFixed(1)} MB`;
}

async function benchOne(minutes: number) {
  const root = path.join(synthCacheRoot(), "bench");
  const vodId = String(910000000 + minutes);
  const genStart = performance.now();
  const { truth } = await generateSyntheticVod({ root, vodId, durationSeconds: minutes * 60, seed: 42 });
  const genSeconds = (performance.now() - genStart) / 1000;
  const twitch = await startTwitchServer({ root });
  const common = { vod_url: `https://www.twitch.tv/videos/${vodId}`, streamer_name: "BenchStreamer", game_name: "Bench Game" };
  const body =
    outputKind === "small"
      ? { ...common, num_shorts: 2, final_video_length_minutes: 1, parameters: { max_highlight_duration: 30, shorts_crop_mode: "crop" } }
      : { ...common, num_shorts: 3 };
  const job = await localRenderJob(body, { twitch, jobId: `bench_${minutes}` });
  const workDir = await mkdtemp(path.join(os.tmpdir(), "bench-work-"));
  const outDir = await mkdtemp(path.join(os.tmpdir(), "bench-out-"));
  twitch.stats.reset();
  let peakKb = 0;
  const cpuSamples: { t: number; busy: number; total: number }[] = [];
  const lastSeen = new Map<number, { name: string; ticks: number }>();
  const cpuTimeline: { t: number; byName: Record<string, number> }[] = [];
  const before = sampleTree(process.pid).cpu;
  const nodeTicksBefore = before.get(process.pid)?.ticks ?? 0;
  // CPU this process spent before the job (generating the VOD) is not the job's: the timeline starts from here.
  cpuTimeline.push({ t: 0, byName: cpuByName(before) });
  const t0 = performance.now();
  const sampler = setInterval(() => {
    const t = (performance.now() - t0) / 1000;
    const { rssKb, cpu } = sampleTree(process.pid);
    peakKb = Math.max(peakKb, rssKb);
    for (const [pid, v] of cpu) lastSeen.set(pid, v);
    cpuTimeline.push({ t, byName: cpuByName(lastSeen) });
    cpuSamples.push({ t, ...cpuJiffies() });
  }, 200);
  const result = await runJobInProcess(job, { settings: loadConfig(process.env, { service: false }), outDir, workDir, log: silentLogger });
  const stageSeconds: Record<string, number> = { ...result.analysis.figures.analysis!.stageSeconds, ...result.phaseSeconds };
  const stats = { bytesDownloaded: result.bytesDownloaded, stageSeconds, stageWindows: result.phaseWindows };
  const wall = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  await twitch.close();

  // The least a job can download: the whole audio rendition plus the video segments covering what it renders.
  const audioRendition = truth.renditions.audio_only.reduce((s, x) => s + x.bytes, 0);
  const served = new Set(twitch.stats.segmentsServed.filter((p) => p.includes("/chunked/")).map((p) => p.split("/").pop()!));
  const coveringVideo = truth.renditions.chunked.filter((s) => served.has(s.file)).reduce((s, x) => s + x.bytes, 0);
  const wholeVideo = truth.renditions.chunked.reduce((s, x) => s + x.bytes, 0);
  const downloaded = twitch.stats.bytes.segment;
  const encodeSeconds = stats.stageSeconds.render ?? 0;
  const vodSeconds = minutes * 60;
  const outputs = result.artifacts.filter((a) => a.kind === "reel" || a.kind === "short");
  await rm(workDir, { recursive: true, force: true });
  await rm(outDir, { recursive: true, force: true });
  return {
    minutes,
    generate_seconds: genSeconds,
    stages: stats.stageSeconds,
    // Machine-wide, so only meaningful on a quiet machine: how much of the 2 cores each stage kept busy.
    cpu_busy: busyPerStage(cpuSamples, stats.stageWindows ?? {}),
    cpu_seconds_per_stage: cpuPerStage(cpuTimeline, stats.stageWindows ?? {}),
    // The bench's own Node process also runs the local Twitch server (serving every byte downloaded).
    cpu_seconds: (() => {
      const byName = cpuByName(lastSeen);
      const node = lastSeen.get(process.pid);
      if (node) byName[node.name] = (byName[node.name] ?? 0) - nodeTicksBefore / 100;
      return byName;
    })(),
    // The analysis runs while the audio downloads, so its figure includes the download: a lower bound.
    analysis_x_realtime: vodSeconds / ((stats.stageSeconds.acquire_analyse ?? Infinity) + (stats.stageSeconds.select ?? 0)),
    bytes: { downloaded, audio_rendition: audioRendition, covering_video: coveringVideo, whole_video: wholeVideo, ratio_to_minimum: downloaded / (audioRendition + coveringVideo) },
    wall_seconds: wall,
    encode_seconds: encodeSeconds,
    wall_over_encode: wall / encodeSeconds,
    peak_rss_mb: peakKb / 1024,
    outputs: outputs.map((o) => `${o.name} ${o.duration_seconds?.toFixed(1)}s`),
  };
}

const results: Awaited<ReturnType<typeof benchOne>>[] = [];
for (const minutes of minutesList) {
  process.stderr.write(`bench: ${minutes}-minute VOD...\n`);
  const r = await benchOne(minutes);
  results.push(r);
  const st = Object.entries(r.stages).map(([k, v]) => `${k} ${v.toFixed(1)}s`).join(", ");
  console.log(`\n== ${minutes}-minute VOD, ${outputKind} output (generated in ${r.generate_seconds.toFixed(0)} s, not counted)`);
  console.log(`stages: ${st}`);
  console.log(`CPU seconds by process: ${Object.entries(r.cpu_seconds).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(", ")}`);
  for (const [stage, byName] of Object.entries(r.cpu_seconds_per_stage)) console.log(`  CPU s in ${stage}: ${Object.entries(byName).map(([k, v]) => `${k} ${v}`).join(", ")}`);
  console.log(`machine CPU busy per stage: ${Object.entries(r.cpu_busy).map(([k, v]) => `${k} ${(v * 100).toFixed(0)}%`).join(", ")}`);
  console.log(`analysis (resolve + audio download and analysis side by side + chat + selection): ${r.analysis_x_realtime.toFixed(0)}x realtime   [target >= 300x]`);
  console.log(`downloaded ${fmtBytes(r.bytes.downloaded)} = ${r.bytes.ratio_to_minimum.toFixed(3)} x (audio rendition ${fmtBytes(r.bytes.audio_rendition)} + covering video ${fmtBytes(r.bytes.covering_video)})   [target <= 1.10]; whole video would be ${fmtBytes(r.bytes.whole_video)}`);
  console.log(`job wall ${r.wall_seconds.toFixed(1)} s / encode ${r.encode_seconds.toFixed(1)} s = ${r.wall_over_encode.toFixed(2)}   [target <= 1.3]`);
  console.log(`peak memory (renderer + ffmpeg children): ${r.peak_rss_mb.toFixed(0)} MB   [target < 1024]`);
  console.log(`outputs: ${r.outputs.join(", ")}`);
}
if (results.length > 1) {
  const first = results[0];
  const last = results[results.length - 1];
  console.log(`\nwall time ${last.minutes} min vs ${first.minutes} min VOD: ${(last.wall_seconds / first.wall_seconds).toFixed(2)}x for outputs of the same lengths`);
  // The encodes differ with the content of the moments chosen (the synthetic scenes differ a lot in how hard they
  // are to encode), so what the VOD's length itself costs is the time outside the encodes.
  const outside = (r: (typeof results)[number]) => r.wall_seconds - r.encode_seconds;
  console.log(`time outside the encodes: ${results.map((r) => `${r.minutes} min ${outside(r).toFixed(1)} s`).join(", ")} (encodes: ${results.map((r) => `${r.encode_seconds.toFixed(1)} s`).join(", ")})`);
}
console.log(JSON.stringify({ bench: results }));
