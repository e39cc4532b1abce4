/**
 * Re-cut benchmark (`npm run bench:recut`, docs/BENCHMARKS.md): on the 6-hour synthetic VOD (BENCH_RECUT_MINUTES;
 * the fan-out benchmark's VOD, cached between runs), a re-cut job — one manual highlight, one short, nothing
 * else — run twice through the in-process job runner (dev/job-runner: the analysis task, the render task, the
 * finalising step, each task run by the renderer's own code), against the local Twitch-compatible server:
 *
 *   1. without reuse: its analysis task analyses the whole VOD (and stores the analysis, as every full job does);
 *   2. with reuse, the usual re-cut: the first job's short with its bounds moved (4 s earlier, 2 s earlier), another
 *      layout and caption style; its analysis task is given the first job's stored analysis and its short's heard
 *      words (served by dev/job-runner/stored-analysis-link.ts, as the Worker's signed links would be), so it hears
 *      only the new head (reuse/recut-join.ts);
 *   3. with reuse, a re-cut elsewhere in the VOD (nothing heard there before: the short is heard whole);
 *   4. the same re-cut as the re-cut class runs it (RECUT_HEAR_IN_HALVES=1: heard as two halves side by side,
 *      reuse/hear-in-halves.ts); the re-cut class's prediction for a re-cut elsewhere is this one's.
 *
 * For each it prints dispatch to completed (the job runner's wall time: the analysis task's start to the end of
 * the finalising step), each task's wall and CPU seconds (this process and its reaped children: FFmpeg, the
 * recogniser; the tasks run one after another, so each one's CPU is its own, plus the local Twitch server's
 * serving), the recogniser's CPU per search (each search is one single-threaded process, run through a wrapper
 * that reads its CPU: POCKETSPHINX_BIN), the bytes downloaded, and the predicted wall on the configured instance
 * types — the general class's, and the re-cut class's (RecutContainer in wrangler.toml), where a re-cut's tasks run
 * (worker/src/orchestration/recut-route.ts): each task's CPU over the instance's vCPUs, its recogniser's longest
 * search never shorter than its own CPU (it does not spread over cores), plus a container start allowance per step
 * that starts an instance (the analysis, and the short unless it was handed to the analysis' instance: the job
 * runner then ran it in this process right after the analysis, as that instance runs it,
 * common/plan/task-handoff.ts). The older figure with a wall floor (never below the task's wall here) is printed
 * too, as `bench:fanout` predicts. Figures, not assertions; the target is printed beside them.
 *
 * Last line: `recut: predicted_wall_s=<with reuse> predicted_wall_without_reuse_s=<n> predicted_cpu_only_s=<with>/<without>
 *   predicted_cpu_only_elsewhere_s=<n> recut_class=<type> predicted_recut_class_s=<with>/<elsewhere>
 *   container_starts=<with>/<without> instance_type=<name> local_wall_s=<with>/<without>`.
 */
import { readFileSync } from "node:fs";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { RenderJob } from "../common/contract/render";
import { inProcessTasks, type InProcessFigures } from "../dev/job-runner/in-process";
import { runJob, type JobRun, type TaskExecutor } from "../dev/job-runner/run-job";
import { storedAnalysisLink } from "../dev/job-runner/stored-analysis-link";
import { localRenderJob } from "../dev/render-cli/local-job";
import { generateSyntheticVod, synthCacheRoot } from "../dev/synth-vod";
import { startTwitchServer, type TwitchServer } from "../dev/twitch-server";
import { loadConfig } from "../render-container/src/config";
import { silentLogger } from "../render-container/src/log";
import { configuredInstance, CONTAINER_START_S, secondsOnInstance, VCPU } from "./bench/instance-type";

const MINUTES = Number(process.env.BENCH_RECUT_MINUTES ?? 360);
const INSTANCE = configuredInstance();
// Where a re-cut's tasks start first (worker/src/orchestration/recut-route.ts): the re-cut class's type.
const RECUT_INSTANCE = configuredInstance("RecutContainer");
const TARGET_S = 30;
const fmt = (n: number, d = 1) => n.toFixed(d);

/** CPU seconds of this process and of its reaped children (FFmpeg, the recogniser), from /proc/self/stat. */
function cpuSeconds(): number {
  const f = readFileSync("/proc/self/stat", "latin1");
  const v = f.slice(f.lastIndexOf(")") + 2).split(" ").map(Number);
  return (v[11]! + v[12]! + v[13]! + v[14]!) / 100;
}

interface TaskCost extends InProcessFigures {
  wall_s: number;
  cpu_s: number;
  /** CPU seconds of each recogniser search the task ran (one process each). */
  searches_cpu_s: number[];
}

/**
 * The recogniser's CPU per search: POCKETSPHINX_BIN set to a wrapper that runs the real binary and appends its
 * child's user and system seconds (bash's `times`) to a log, read and emptied after each task.
 */
async function searchMeter(dir: string): Promise<{ take(): Promise<number[]> }> {
  const log = path.join(dir, "searches.log");
  const wrapper = path.join(dir, "pocketsphinx-metered");
  const real = process.env.POCKETSPHINX_BIN ?? "pocketsphinx_continuous";
  // `times` in this shell (not in a pipeline's subshell, whose children are none): its second line is the search's.
  await writeFile(wrapper, `#!/usr/bin/env bash\n${JSON.stringify(real)} "$@"\nrc=$?\ntimes > "${log}.$$"\ntail -n 1 "${log}.$$" >> ${JSON.stringify(log)}\nrm -f "${log}.$$"\nexit $rc\n`);
  await chmod(wrapper, 0o755);
  await writeFile(log, "");
  process.env.POCKETSPHINX_BIN = wrapper;
  const secondsOf = (t: string) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t);
    return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
  };
  return {
    async take() {
      const lines = (await readFile(log, "utf8")).split("\n").filter(Boolean);
      await writeFile(log, "");
      return lines.map((l) => l.trim().split(/\s+/).reduce((sum, t) => sum + secondsOf(t), 0));
    },
  };
}

/** The renderer's task code in this process, one task at a time, each one's wall and CPU measured around it. */
function measuredTasks(filesDir: string, workRoot: string, searches: { take(): Promise<number[]> }): TaskExecutor<TaskCost> {
  const run = inProcessTasks({ settings: loadConfig({ ...process.env, RENDERER_DEV_MODE: "1" }, { service: false }), filesDir, workRoot, log: silentLogger });
  return async (req, signal) => {
    await searches.take();
    const cpu0 = cpuSeconds();
    const t0 = performance.now();
    const { result, figures } = await run(req, signal);
    return { result, figures: { ...figures, wall_s: (performance.now() - t0) / 1000, cpu_s: cpuSeconds() - cpu0, searches_cpu_s: await searches.take() } };
  };
}

interface Measured {
  label: string;
  run: JobRun<TaskCost>;
  filesDir: string;
  bytes: number;
}

async function runRecut(label: string, job: RenderJob, twitch: TwitchServer, searches: { take(): Promise<number[]> }): Promise<Measured> {
  const filesDir = await mkdtemp(path.join(os.tmpdir(), "bench-recut-files-"));
  const workRoot = await mkdtemp(path.join(os.tmpdir(), "bench-recut-work-"));
  twitch.stats.reset();
  const run = await runJob(job, {
    runTask: measuredTasks(filesDir, workRoot, searches),
    // Every task in this process, one after another: a handed-off short runs where its analysis ran.
    oneProcess: true,
    concurrency: 1,
    writeDocument: async (name, text) => {
      await writeFile(path.join(filesDir, name), text);
      return { size_bytes: Buffer.byteLength(text) };
    },
  });
  await rm(workRoot, { recursive: true, force: true });
  return { label, run, filesDir, bytes: twitch.stats.bytes.segment };
}

/**
 * Container starts on the job's critical path: the analysis', and the render step's unless its one task was
 * handed to the analysis' instance (the Worker answers the analysis' completion with it: no start of its own).
 */
function starts(m: Measured): number {
  return 1 + (m.run.tasks.length > 0 && !m.run.tasks.every((t) => t.handed_off) ? 1 : 0);
}

/** Predicted dispatch-to-completed on `vcpu`: the analysis, then the slowest render task, plus their container starts. */
function predicted(m: Measured, vcpu: number): number {
  const render = Math.max(0, ...m.run.tasks.map((t) => secondsOnInstance(t.figures, vcpu)));
  return secondsOnInstance(m.run.analysis.figures, vcpu) + render + CONTAINER_START_S * starts(m);
}

/**
 * A task's seconds on `vcpu` vCPUs from its CPU: spread over them, except that its recogniser's searches (run side
 * by side, one process each) take at least as long as the longest one's own CPU. What a quiet machine would show;
 * FFmpeg's own serial part (its filter thread) is not separated here.
 */
function cpuBoundSeconds(t: TaskCost, vcpu: number): number {
  const recogniser = t.searches_cpu_s.reduce((a, b) => a + b, 0);
  const longest = Math.max(0, ...t.searches_cpu_s);
  return Math.max(t.cpu_s / vcpu, (t.cpu_s - recogniser) / vcpu + Math.max(longest, recogniser / Math.min(vcpu, Math.max(1, t.searches_cpu_s.length))));
}

/** Predicted dispatch-to-completed from CPU alone on `vcpu` vCPUs: analysis, then the slowest render task, plus the starts. */
function predictedFromCpu(m: Measured, vcpu: number): number {
  return cpuBoundSeconds(m.run.analysis.figures, vcpu) + Math.max(0, ...m.run.tasks.map((t) => cpuBoundSeconds(t.figures, vcpu))) + CONTAINER_START_S * starts(m);
}

const searchesText = (t: TaskCost) => (t.searches_cpu_s.length ? `; recogniser ${fmt(t.searches_cpu_s.reduce((a, b) => a + b, 0))} CPU s in ${t.searches_cpu_s.length} searches (${t.searches_cpu_s.map((x) => fmt(x)).join(" + ")})` : "");

function report(m: Measured): number {
  const a = m.run.analysis.figures;
  const stages = Object.entries(a.analysis?.stageSeconds ?? {}).map(([k, v]) => `${k} ${fmt(v)}`).join(", ");
  console.log(`\n== ${m.label}`);
  console.log(`dispatch to completed (local, one task at a time): ${fmt(m.run.wallSeconds)} s`);
  console.log(`  analysis task: ${fmt(a.wall_s)} s wall, ${fmt(a.cpu_s)} CPU s (${stages})${searchesText(a)}`);
  for (const t of m.run.tasks) {
    const spec = m.run.plan.tasks.find((s) => s.id === t.id);
    // A re-cut's one short takes the words its analysis heard over it (reuse/recut-captions.ts): no recogniser of its own.
    const captions = spec?.kind === "short" ? (spec.speech ? `, captions from the analysis' ${spec.speech.words.length} words` : ", captions transcribed in the task") : "";
    const recut = a.analysis?.recutWords;
    if (recut) console.log(`  the short's words: ${recut.kept} kept from the earlier short ${recut.keptFrom ? `${fmt(recut.keptFrom.start)}-${fmt(recut.keptFrom.end)} s` : "(none)"}, ${fmt(recut.heardSeconds)} s heard`);
    const where = t.handed_off ? ", handed to the analysis' instance (no start of its own)" : ", on an instance of its own";
    console.log(`  ${t.id} (${t.kind}): ${fmt(t.figures.wall_s)} s wall, ${fmt(t.figures.cpu_s)} CPU s${captions}${where}${searchesText(t.figures)}`);
  }
  console.log(`  finalise: ${fmt(m.run.phaseSeconds.finalise, 2)} s; downloaded ${fmt(m.bytes / 1e6)} MB; plan analysis ${JSON.stringify(m.run.plan.analysis)}`);
  for (const [name, vcpu] of Object.entries(VCPU).filter(([, v]) => v >= 0.5)) console.log(`  predicted on ${name} (${vcpu} vCPU), ${starts(m)} x ${CONTAINER_START_S} s container start: ${fmt(predicted(m, vcpu))} s`);
  console.log(`  predicted on the configured ${INSTANCE.name} (${INSTANCE.vcpu} vCPU): ${fmt(predicted(m, INSTANCE.vcpu))} s`);
  // On a loaded machine a task's wall here exceeds what its CPU would take on an instance of its own: this is the
  // CPU-bound figure (each task's CPU over the vCPUs, the recogniser's longest search as its floor), what a quiet
  // machine's run would predict.
  const cpuBound = predictedFromCpu(m, INSTANCE.vcpu);
  console.log(`  the same from CPU alone (no wall floor; the recogniser's longest search as its floor): ${fmt(cpuBound)} s on ${INSTANCE.name}, ${fmt(predictedFromCpu(m, RECUT_INSTANCE.vcpu))} s on the re-cut class's ${RECUT_INSTANCE.name} (${RECUT_INSTANCE.vcpu} vCPU)`);
  return cpuBound;
}

async function main(): Promise<void> {
  const root = path.join(synthCacheRoot(), "bench-fanout");
  const vodId = String(930000000 + MINUTES);
  const genStart = performance.now();
  await generateSyntheticVod({ root, vodId, durationSeconds: MINUTES * 60, seed: 42, width: 1280, height: 720 });
  console.log(`VOD: ${MINUTES} min synthetic, generated/cached in ${fmt((performance.now() - genStart) / 1000)} s (not counted)`);
  console.log(`load average at start: ${os.loadavg().map((l) => l.toFixed(2)).join(" ")} on ${os.cpus().length} cores`);
  const twitch = await startTwitchServer({ root });
  const meterDir = await mkdtemp(path.join(os.tmpdir(), "bench-recut-meter-"));
  const searches = await searchMeter(meterDir);
  const vod = MINUTES * 60;
  // One manual highlight made the job's one short; a shorts-only job renders no reel.
  const recut = (start: number, extra: Record<string, unknown>) => ({
    vod_url: `https://www.twitch.tv/videos/${vodId}`,
    streamer_name: "BenchStreamer",
    game_name: "Bench Game",
    compilation_enabled: false,
    num_shorts: 1,
    manual_highlights: [{ start_seconds: start, end_seconds: start + 30, label: "re-cut" }],
    ...extra,
  });
  try {
    const first = await runRecut(
      "re-cut without reuse (the whole VOD analysed)",
      await localRenderJob(recut(Math.round(vod * 0.4), { parameters: { shorts_crop_mode: "crop" } }), { twitch, jobId: "recut_full" }),
      twitch,
      searches,
    );
    const firstCpu = report(first);
    const link = await storedAnalysisLink(first.filesDir, { jobId: "recut_full", plan: first.run.plan });
    let second: Measured;
    let third: Measured;
    let fourth: Measured;
    try {
      // The usual re-cut: the first job's short, its bounds moved (4 s earlier, 2 s earlier), another layout and captions.
      const moved = Math.round(vod * 0.4) - 4;
      const job = await localRenderJob({ ...recut(moved, { parameters: { shorts_crop_mode: "fit", caption_style: "word_highlight" } }), manual_highlights: [{ start_seconds: moved, end_seconds: moved + 32, label: "re-cut" }] }, { twitch, jobId: "recut_reused" });
      second = await runRecut("re-cut with reuse (the first short's bounds moved, another layout)", { ...job, reuse: link.reuse }, twitch, searches);
      const elsewhere = await localRenderJob(recut(Math.round(vod * 0.7), { parameters: { shorts_crop_mode: "fit", caption_style: "word_highlight" } }), { twitch, jobId: "recut_elsewhere" });
      process.env.RECUT_HEAR_IN_HALVES = "0";
      third = await runRecut("re-cut with reuse elsewhere in the VOD (nothing heard there before)", { ...elsewhere, reuse: link.reuse }, twitch, searches);
      // As the re-cut class's instances run it (they set RECUT_HEAR_IN_HALVES=1: worker/src/durable/recut-container.ts).
      process.env.RECUT_HEAR_IN_HALVES = "1";
      fourth = await runRecut("the same re-cut elsewhere, heard in halves as on the re-cut class", { ...(await localRenderJob(recut(Math.round(vod * 0.7), { parameters: { shorts_crop_mode: "fit", caption_style: "word_highlight" } }), { twitch, jobId: "recut_halves" })), reuse: link.reuse }, twitch, searches);
      delete process.env.RECUT_HEAR_IN_HALVES;
    } finally {
      await link.close();
    }
    const secondCpu = report(second);
    const thirdCpu = report(third);
    report(fourth);
    const withReuse = predicted(second, INSTANCE.vcpu);
    const without = predicted(first, INSTANCE.vcpu);
    console.log(`\npredicted dispatch to completed on ${INSTANCE.name}: with reuse ${fmt(withReuse)} s [target <= ${TARGET_S} s: ${withReuse <= TARGET_S ? "met" : "missed"}], without ${fmt(without)} s`);
    console.log(`from CPU alone on ${INSTANCE.name}: with reuse ${fmt(secondCpu)} s [target <= ${TARGET_S} s: ${secondCpu <= TARGET_S ? "met" : "missed"}] (elsewhere in the VOD ${fmt(thirdCpu)} s), without ${fmt(firstCpu)} s`);
    // Where a re-cut runs: the re-cut class (the general one only when that class has no instance free).
    const recutUsual = predictedFromCpu(second, RECUT_INSTANCE.vcpu);
    const recutElsewhere = predictedFromCpu(fourth, RECUT_INSTANCE.vcpu);
    const verdict = (x: number) => (x <= TARGET_S ? "met" : "missed");
    console.log(`from CPU alone on the re-cut class's ${RECUT_INSTANCE.name} (where re-cuts run): with reuse ${fmt(recutUsual)} s [target <= ${TARGET_S} s: ${verdict(recutUsual)}], elsewhere in the VOD ${fmt(recutElsewhere)} s [${verdict(recutElsewhere)}]`);
    console.log(`load average at end: ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
    console.log(`recut: predicted_wall_s=${Math.round(withReuse)} predicted_wall_without_reuse_s=${Math.round(without)} predicted_cpu_only_s=${fmt(secondCpu)}/${fmt(firstCpu)} predicted_cpu_only_elsewhere_s=${fmt(thirdCpu)} recut_class=${RECUT_INSTANCE.name} predicted_recut_class_s=${fmt(recutUsual)}/${fmt(recutElsewhere)} container_starts=${starts(second)}/${starts(first)} instance_type=${INSTANCE.name} local_wall_s=${fmt(second.run.wallSeconds)}/${fmt(first.run.wallSeconds)}`);
    await rm(first.filesDir, { recursive: true, force: true });
    await rm(second.filesDir, { recursive: true, force: true });
    await rm(third.filesDir, { recursive: true, force: true });
    await rm(fourth.filesDir, { recursive: true, force: true });
  } finally {
    await twitch.close();
    await rm(meterDir, { recursive: true, force: true });
  }
}

await main();
