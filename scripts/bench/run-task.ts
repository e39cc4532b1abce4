/**
 * One task of a job in its own process, for the fan-out benchmark (scripts/bench-fanout.ts): reads a
 * RenderTaskRequest, runs it as the renderer's POST /tasks does (dev/job-runner/in-process.ts; files go to a
 * local folder standing in for R2; a join reads its parts back from there), and writes the result and what it cost: wall time, the Node process's own CPU, the
 * CPU of its children (FFmpeg, the recogniser; exact, from /proc/self/stat once they are reaped) and per child
 * process name (sampled every 200 ms), and the bytes it downloaded.
 *
 *   tsx scripts/bench/run-task.ts <request.json> <files-dir> <result.json>
 */
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { RenderTaskRequest } from "../../common/contract/job-plan";
import { loadConfig } from "../../render-container/src/config";
import { silentLogger } from "../../render-container/src/log";
import { inProcessTasks } from "../../dev/job-runner/in-process";

/** Children's CPU seconds per process name, from each one's last sample. */
function sampleChildren(seen: Map<number, { name: string; ticks: number }>): void {
  const me = process.pid;
  const parents = new Map<number, number>();
  const info = new Map<number, { name: string; ticks: number }>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
      const close = stat.lastIndexOf(")");
      const f = stat.slice(close + 2).split(" ");
      parents.set(pid, Number(f[1]));
      info.set(pid, { name: stat.slice(stat.indexOf("(") + 1, close), ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      /* exited */
    }
  }
  const below = (pid: number): boolean => pid !== me && pid > 1 && (parents.get(pid) === me || below(parents.get(pid) ?? 0));
  for (const [pid, p] of info) if (below(pid)) seen.set(pid, p);
}

/** CPU seconds of this process (utime+stime) and of its reaped children (cutime+cstime). */
function ownAndChildrenCpu(): { node: number; children: number } {
  const stat = readFileSync("/proc/self/stat", "latin1");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const hz = 100;
  return { node: (Number(f[11]) + Number(f[12])) / hz, children: (Number(f[13]) + Number(f[14])) / hz };
}

async function main(): Promise<void> {
  const [requestFile, filesDir, resultFile] = process.argv.slice(2);
  if (!requestFile || !filesDir || !resultFile) throw new Error("usage: run-task.ts <request.json> <files-dir> <result.json>");
  const req = RenderTaskRequest.parse(JSON.parse(await readFile(requestFile, "utf8")));
  const config = loadConfig({ ...process.env, RENDERER_DEV_MODE: "1" });
  const workDir = await mkdtemp(path.join(os.tmpdir(), `bench-task-${req.task.id}-`));
  const runTask = inProcessTasks({ settings: config, filesDir, workRoot: workDir, log: silentLogger });
  const seen = new Map<number, { name: string; ticks: number }>();
  const sampler = setInterval(() => sampleChildren(seen), 200);
  const started = performance.now();
  const { result, figures } = await runTask(req, new AbortController().signal);
  const analysis = figures.analysis;
  const bytes = analysis ? { audio: analysis.bytesDownloaded.audio, video: analysis.bytesDownloaded.video + analysis.bytesDownloaded.facecam } : { audio: 0, video: figures.videoBytes };
  const wall = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const cpu = ownAndChildrenCpu();
  const byName: Record<string, number> = {};
  for (const { name, ticks } of seen.values()) byName[name] = (byName[name] ?? 0) + ticks / 100;
  await rm(workDir, { recursive: true, force: true });
  await writeFile(resultFile, JSON.stringify({ result, wall_s: wall, cpu_node_s: cpu.node, cpu_children_s: cpu.children, cpu_by_child: byName, bytes }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
