/**
 * Fan-out benchmark (the last part of `npm run bench:render`, or alone: `npm run bench:fanout`). A full job on a
 * long synthetic VOD (default 6 hours: BENCH_FANOUT_MINUTES) — three profiles with 5-minute reels and 10 shorts —
 * run as the Worker runs it on Cloudflare: the analysis task, then one process per render task (each reel
 * moment, each short; each reel's join after its moments), then the finalising step, against the local
 * Twitch-compatible server. The job runner (dev/job-runner) schedules the tasks; each task runs in its own
 * process (scripts/bench/run-task.ts), so its CPU (Node, FFmpeg, the recogniser) and bytes are
 * its own. The render tasks run twice: with one renderer process at a time and with two (a local pool), and the
 * job's wall time is compared. Then the job's wall time on Cloudflare is predicted for the chosen instance type
 * with enough instances: the critical path (analysis, then the longest render chain) in CPU seconds divided by
 * the instance's vCPUs (a task's CPU cannot go faster than its measured wall on 2 cores either), plus a
 * container start allowance per step of that path. Figures, not assertions.
 *
 * Last line: `fanout: predicted_wall_s=<n> instance_type=<name> tasks=<k> local_2proc_vs_1proc=<ratio>`.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { unitTasks, type RenderTaskRequest, type TaskResult } from "../common/contract/job-plan";
import { runJob, type TaskExecutor } from "../dev/job-runner/run-job";
import { localRenderJob } from "../dev/render-cli/local-job";
import { generateSyntheticVod, synthCacheRoot } from "../dev/synth-vod";
import { startTwitchServer } from "../dev/twitch-server";
import { configuredInstance, CONTAINER_START_S, secondsOnInstance, VCPU } from "./bench/instance-type";

const run = promisify(execFile);
const MINUTES = Number(process.env.BENCH_FANOUT_MINUTES ?? 360);
const TSX = path.join(import.meta.dirname, "..", "node_modules", ".bin", "tsx");
const RUN_TASK = path.join(import.meta.dirname, "bench", "run-task.ts");

const INSTANCE = configuredInstance();

interface TaskRun {
  id: string;
  kind: string;
  wall_s: number;
  cpu_node_s: number;
  cpu_children_s: number;
  cpu_by_child: Record<string, number>;
  bytes: { audio: number; video: number };
  result: TaskResult;
}

/** Each task in a process of its own (scripts/bench/run-task.ts), its figures measured there. */
function processTasks(filesDir: string, scratch: string): TaskExecutor<TaskRun> {
  return async (req: RenderTaskRequest) => {
    const reqFile = path.join(scratch, `${req.task.id}.request.json`);
    const outFile = path.join(scratch, `${req.task.id}.result.json`);
    await writeFile(reqFile, JSON.stringify(req));
    await run(TSX, [RUN_TASK, reqFile, filesDir, outFile], { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, RENDERER_DEV_MODE: "1" } });
    const figures: TaskRun = { id: req.task.id, kind: req.task.kind, ...(JSON.parse(await readFile(outFile, "utf8")) as Omit<TaskRun, "id" | "kind">) };
    return { result: figures.result, figures };
  };
}

const cpuOf = (r: TaskRun) => r.cpu_node_s + r.cpu_children_s;
const fmt = (n: number, d = 1) => n.toFixed(d);

/**
 * Seconds a task takes on an instance of `vcpu` vCPUs: its CPU over the vCPUs; with 2 or more, never below its
 * wall time on the 2 local cores (what does not spread over cores, e.g. the recogniser, does not get faster).
 */
const onInstance = (r: TaskRun, vcpu = INSTANCE.vcpu) => secondsOnInstance({ cpu_s: cpuOf(r), wall_s: r.wall_s }, vcpu);

async function main(): Promise<void> {
  const root = path.join(synthCacheRoot(), "bench-fanout");
  const vodId = String(930000000 + MINUTES);
  const genStart = performance.now();
  const { truth } = await generateSyntheticVod({ root, vodId, durationSeconds: MINUTES * 60, seed: 42, width: 1280, height: 720 });
  console.log(`VOD: ${MINUTES} min synthetic, generated/cached in ${fmt((performance.now() - genStart) / 1000)} s`);
  const twitch = await startTwitchServer({ root });
  const body = {
    vod_url: `https://www.twitch.tv/videos/${vodId}`,
    streamer_name: "BenchStreamer",
    game_name: "Bench Game",
    run_profiles: ["balanced", "audience", "streamer"],
    run_overrides: { balanced: { target_duration_seconds: 300 }, audience: { target_duration_seconds: 300 }, streamer: { target_duration_seconds: 300 } },
    num_shorts: 10,
  };
  const job = await localRenderJob(body, { twitch, jobId: `fanout_${MINUTES}` });
  const scratch = await mkdtemp(path.join(os.tmpdir(), "bench-fanout-"));
  let minimum = { audio: 0, video: 0, downloaded: 0 };

  try {
    const wallRuns: { processes: number; wall_s: number; analysis: TaskRun; runs: TaskRun[] }[] = [];
    for (const processes of [1, 2]) {
      const filesDir = path.join(scratch, `files-${processes}`);
      await mkdir(filesDir, { recursive: true });
      twitch.stats.reset();
      const t0 = performance.now();
      const ran = await runJob(job, {
        runTask: processTasks(filesDir, scratch),
        // A process per task: nothing runs where the analysis ran (its jobs are never a re-cut's one short anyway).
        oneProcess: false,
        concurrency: processes,
        writeDocument: async (name, text) => {
          await writeFile(path.join(filesDir, name), text);
          return { size_bytes: Buffer.byteLength(text) };
        },
      });
      const analysis = ran.analysis.figures;
      const { render, join } = ran.phaseWindows;
      const rendered = { wall_s: Math.max(render.end, join.end) - render.start, runs: ran.tasks.map((t) => t.figures) };
      wallRuns.push({ processes, wall_s: (performance.now() - t0) / 1000, analysis, runs: rendered.runs });
      if (processes === 1) {
        // The least a job can download: the whole audio rendition plus the video segments covering what it renders.
        const served = new Set(twitch.stats.segmentsServed.filter((p) => p.includes("/chunked/")).map((p) => p.split("/").pop()!));
        minimum = {
          audio: truth.renditions.audio_only.reduce((s, x) => s + x.bytes, 0),
          video: truth.renditions.chunked.filter((x) => served.has(x.file)).reduce((s, x) => s + x.bytes, 0),
          downloaded: twitch.stats.bytes.segment,
        };
      }
      console.log(`local run, ${processes} renderer process(es): job wall ${fmt((performance.now() - t0) / 1000)} s (analysis ${fmt(analysis.wall_s)} s, render tasks ${fmt(rendered.wall_s)} s)`);
    }

    const { analysis, runs } = wallRuns[0]!;
    const plan = (analysis.result as Extract<TaskResult, { kind: "analyse" }>).plan;
    const all = [analysis, ...runs];
    console.log("");
    console.log(`per task (1-process run; CPU s = Node + children; children by name sampled every 200 ms):`);
    console.log(`task                      kind          wall s   CPU s   node   ffmpeg  recogniser  audio MB  video MB`);
    for (const r of all) {
      const rec = Object.entries(r.cpu_by_child).filter(([n]) => /sphinx/.test(n)).reduce((s, [, v]) => s + v, 0);
      const ff = r.cpu_by_child.ffmpeg ?? 0;
      console.log(
        `${r.id.padEnd(25)} ${r.kind.padEnd(12)} ${fmt(r.wall_s).padStart(7)} ${fmt(cpuOf(r)).padStart(7)} ${fmt(r.cpu_node_s).padStart(6)} ${fmt(ff).padStart(7)} ${fmt(rec).padStart(11)} ${fmt(r.bytes.audio / 1e6).padStart(9)} ${fmt(r.bytes.video / 1e6).padStart(9)}`,
      );
    }
    const sumCpu = all.reduce((s, r) => s + cpuOf(r), 0);
    const sumWall = all.reduce((s, r) => s + r.wall_s, 0);
    // Critical path: analysis, then the longest chain (a short, or a reel's slowest moment then its join).
    const byId = new Map(runs.map((r) => [r.id, r]));
    // Chains: each join after its slowest dependency (a reel moment or a clip group), and every task no join waits for.
    const awaited = new Set(plan.tasks.flatMap((t) => (t.kind === "reel_join" ? t.depends_on : [])));
    const chains = plan.tasks
      .filter((t) => !awaited.has(t.id))
      .map((t) => (t.kind === "reel_join" ? [t.depends_on.map((d) => byId.get(d)!).sort((a, b) => onInstance(b) - onInstance(a))[0]!, byId.get(t.id)!] : [byId.get(t.id)!]));
    const longest = chains.sort((a, b) => b.reduce((s, r) => s + onInstance(r), 0) - a.reduce((s, r) => s + onInstance(r), 0))[0] ?? [];
    const path_ = [analysis, ...longest];
    const criticalOn = (vcpu: number) => {
      // The longest chain may differ per instance type; take the worst chain for each.
      const worst = Math.max(...chains.map((c) => c.reduce((s, r) => s + onInstance(r, vcpu), 0)), 0);
      return onInstance(analysis, vcpu) + worst + CONTAINER_START_S * (1 + (longest.length || 1));
    };
    const critical = criticalOn(INSTANCE.vcpu);
    const bytes = all.reduce((s, r) => s + r.bytes.audio + r.bytes.video, 0);
    console.log("");
    const count = (kind: string) => plan.tasks.filter((t) => t.kind === kind).length;
    const grouped = plan.tasks.flatMap((t) => (t.kind === "clip_group" ? [t.members.length] : []));
    console.log(`tasks: ${all.length} (1 analysis + ${runs.length} render: ${count("clip_group")} clip groups of ${grouped.join("/")} pieces, ${count("reel_moment")} lone reel moments, ${count("short")} lone shorts, ${count("reel_join")} joins; ${unitTasks(plan.tasks).length - count("reel_join")} pieces in all); CPU sum ${fmt(sumCpu)} s, wall sum ${fmt(sumWall)} s`);
    console.log(`critical path: ${path_.map((r) => r.id).join(" -> ")}: ${fmt(path_.reduce((s, r) => s + cpuOf(r), 0))} CPU s`);
    console.log(`bytes downloaded over all tasks: ${fmt(bytes / 1e6)} MB as the tasks counted them; served by the Twitch stand-in: ${fmt(minimum.downloaded / 1e6)} MB = ${(minimum.downloaded / (minimum.audio + minimum.video)).toFixed(3)} x (audio rendition ${fmt(minimum.audio / 1e6)} MB + covering video ${fmt(minimum.video / 1e6)} MB)   [target <= 1.10]`);
    for (const [name, vcpu] of Object.entries(VCPU).filter(([, v]) => v >= 0.5)) console.log(`predicted on ${name} (${vcpu} vCPU), enough instances, ${CONTAINER_START_S} s start allowance per step: ${fmt(criticalOn(vcpu))} s`);
    console.log(`configured (wrangler.toml): ${INSTANCE.name} -> ${fmt(critical)} s`);
    console.log(`today's path (one job on one standard-1, 1/2 vCPU, serially): ${fmt(sumCpu / 0.5)} s`);
    const ratio = wallRuns[1]!.wall_s / wallRuns[0]!.wall_s;
    // What bounds the local ratio: one process alone already keeps this many of the machine's cores busy (x264
    // encodes on every core), so a second process can at best fill the rest.
    const cores = os.availableParallelism();
    const busy = sumCpu / wallRuns[0]!.wall_s;
    console.log(`local, 1 process kept ${fmt(busy, 2)} of ${cores} cores busy on average: 2 processes cannot go below ${fmt(Math.min(1, busy / cores), 2)} x its wall time here; measured ${ratio.toFixed(2)}`);
    console.log(`fanout: predicted_wall_s=${Math.round(critical)} instance_type=${INSTANCE.name} tasks=${all.length} local_2proc_vs_1proc=${ratio.toFixed(2)}`);
  } finally {
    await twitch.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
