/**
 * Renders one job into a local folder, without the Worker, the way production runs it (dev/job-runner: the
 * analysis task, the plan's render tasks, the finalising step): for debugging and benchmarks.
 *
 *   npx tsx dev/render-cli/cli.ts --request job.json --out ./out/debug \
 *     [--gql http://127.0.0.1:8790/gql] [--usher http://127.0.0.1:8790] [--plan pro] [--stats stats.json]
 *
 * job.json is the body of POST /jobs; it is validated and normalised by the same code as the API.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Plan } from "../../common/contract/enums";
import { DEFAULT_GQL_URL, DEFAULT_USHER_URL } from "../../common/twitch";
import { loadConfig } from "../../render-container/src/config";
import { localRenderJob } from "./local-job";
import { createLogger } from "../../render-container/src/log";
import { runJobInProcess } from "../job-runner/in-process";

async function main() {
  const { values } = parseArgs({
    options: {
      request: { type: "string" },
      out: { type: "string" },
      gql: { type: "string", default: process.env.TWITCH_GQL_URL ?? DEFAULT_GQL_URL },
      usher: { type: "string", default: process.env.TWITCH_USHER_URL ?? DEFAULT_USHER_URL },
      plan: { type: "string", default: "pro" },
      stats: { type: "string" },
      quiet: { type: "boolean", default: false },
    },
  });
  if (!values.request || !values.out) {
    console.error("usage: cli.ts --request job.json --out <folder> [--gql URL] [--usher URL] [--plan free|starter|pro|studio] [--stats file]");
    process.exit(2);
  }
  const body = JSON.parse(await readFile(values.request, "utf8"));
  const twitch = { gqlUrl: values.gql!, usherUrl: values.usher! };
  const job = await localRenderJob(body, { twitch, jobId: `cli_${Date.now()}`, plan: values.plan as Plan });
  const workDir = await mkdtemp(path.join(os.tmpdir(), "render-cli-"));
  const log = values.quiet ? createLogger({}, () => {}) : createLogger({ job_id: job.job_id }, (l) => process.stderr.write(l + "\n"));
  let last = "";
  const started = performance.now();
  try {
    const run = await runJobInProcess(job, {
      settings: loadConfig(process.env, { service: false }),
      outDir: values.out,
      workDir,
      log,
      signal: AbortSignal.timeout(6 * 3600 * 1000),
      onProgress(taskId, stage, fraction) {
        const line = `${taskId}: ${stage} ${(fraction * 100).toFixed(0)}%`;
        if (line !== last && !values.quiet) process.stderr.write(`\r${line.padEnd(60)}`);
        last = line;
      },
    });
    if (!values.quiet) process.stderr.write("\n");
    const analysis = run.analysis.figures.analysis!;
    const summary = {
      wall_seconds: (performance.now() - started) / 1000,
      bytesDownloaded: run.bytesDownloaded,
      stageSeconds: { ...analysis.stageSeconds, ...run.phaseSeconds },
      stageWindows: run.phaseWindows,
      tasks: run.tasks.map((t) => ({ id: t.id, kind: t.kind, seconds: t.seconds, video_bytes: t.figures.videoBytes })),
      artifacts: run.artifacts.map((a) => ({ name: a.name, kind: a.kind, size_bytes: a.size_bytes, duration_seconds: a.duration_seconds, title: a.title })),
    };
    if (values.stats) await writeFile(values.stats, JSON.stringify(summary, null, 2));
    console.log(JSON.stringify(summary, null, 2));
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : JSON.stringify(err));
  process.exit(1);
});
