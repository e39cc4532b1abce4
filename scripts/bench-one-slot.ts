/**
 * One renderer slot, one job: how long the slot stays idle between a job's tasks (issue 23, point 1). The local
 * stack (the real Worker under `wrangler dev` with its local queue and Durable Objects, one renderer process with
 * MAX_TASKS=1) runs a job on a short synthetic VOD whose plan has several render tasks; they can only run one at a
 * time, so every task after the first starts after a refusal (503 busy). From the renderer's log it prints each
 * task's run, the idle gaps between them, and the job's wall time against the sum of its tasks' times.
 *
 *   npx tsx scripts/bench-one-slot.ts            (BENCH_SLOT_SECONDS: the VOD's length, default 240)
 *
 * Last line: `one-slot: wall_s=<n> tasks_s=<n> idle_s=<n> tasks=<k> longest_gap_s=<n>`. Figures, not assertions.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { jsonLines } from "../dev/stack/log-lines";
import { startLocalStack } from "../dev/stack/local-stack";
import { generateSyntheticVod } from "../dev/synth-vod";

const SECONDS = Number(process.env.BENCH_SLOT_SECONDS ?? 240);
const VOD_ID = "900000777";

type Line = { ts?: string; msg?: string; task_key?: string; job_id?: string; task_id?: string; ms?: number };


async function main(): Promise<void> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), "one-slot-"));
  const vodRoot = path.join(tmp, "vods");
  const peaks = [40, 95, 150, 205].filter((p) => p < SECONDS - 20);
  await generateSyntheticVod({ root: vodRoot, vodId: VOD_ID, durationSeconds: SECONDS, seed: 7, width: 640, height: 360, moments: peaks.map((peak) => ({ kind: "hype" as const, peak })) });
  const stateDir = path.join(tmp, "state");
  const stack = await startLocalStack({ vodRoot, stateDir, renderers: 1, rendererEnv: { MAX_TASKS: "1" }, readyTimeoutMs: 180_000 });
  try {
    const admin = await fetch(`${stack.apiUrl}/admin/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "one-slot", plan: "pro", credits: 5000, purchase: true }),
    });
    const account = (await admin.json()) as { api_key: string };
    const headers = { "x-api-key": account.api_key, "content-type": "application/json" };
    const created = Date.now();
    const res = await fetch(`${stack.apiUrl}/jobs`, {
      method: "POST",
      headers,
      body: JSON.stringify({ vod_url: `https://www.twitch.tv/videos/${VOD_ID}`, num_shorts: 3, final_video_length_minutes: 1, parameters: { max_highlight_duration: 20 } }),
    });
    if (res.status !== 202) throw new Error(`POST /jobs: ${res.status} ${await res.text()}`);
    const { id } = (await res.json()) as { id: string };
    let status = "pending";
    while (status !== "completed" && status !== "failed") {
      if (Date.now() - created > 30 * 60_000) throw new Error(`job ${id} still ${status} after 30 minutes`);
      await new Promise((r) => setTimeout(r, 500));
      status = ((await (await fetch(`${stack.apiUrl}/jobs/${id}`, { headers })).json()) as { status: string }).status;
    }
    const ended = Date.now();
    const lines = ((await jsonLines(path.join(stateDir, "renderer-1.log"))) as Line[]).filter((l) => l.job_id === id || String(l.task_key ?? "").startsWith(`${id}.`));
    const runs: { task: string; start: number; end: number }[] = [];
    for (const l of lines) {
      if (l.msg === "task started" && l.ts) runs.push({ task: String(l.task_id), start: Date.parse(l.ts), end: NaN });
      if (l.msg === "task completed" && l.ts) {
        const r = runs.findLast((x) => x.task === l.task_id && Number.isNaN(x.end));
        if (r) r.end = Date.parse(l.ts);
      }
    }
    const refused = lines.filter((l) => l.msg === "task refused: busy").length;
    const done = runs.filter((r) => !Number.isNaN(r.end)).sort((a, b) => a.start - b.start);
    let idle = 0;
    let longest = 0;
    console.log(`job ${id}: ${status}; ${refused} starts refused as busy`);
    for (const [i, r] of done.entries()) {
      const gap = i === 0 ? 0 : Math.max(0, r.start - done[i - 1]!.end);
      idle += gap;
      longest = Math.max(longest, gap);
      console.log(`  ${r.task.padEnd(24)} ran ${((r.end - r.start) / 1000).toFixed(1).padStart(6)} s   idle before it ${(gap / 1000).toFixed(1).padStart(6)} s`);
    }
    const tasks = done.reduce((s, r) => s + (r.end - r.start), 0);
    const wall = done.length ? done.at(-1)!.end - done[0]!.start : 0;
    console.log(`  POST /jobs to completed: ${((ended - created) / 1000).toFixed(1)} s`);
    console.log(`one-slot: wall_s=${(wall / 1000).toFixed(1)} tasks_s=${(tasks / 1000).toFixed(1)} idle_s=${(idle / 1000).toFixed(1)} tasks=${done.length} longest_gap_s=${(longest / 1000).toFixed(1)}`);
  } finally {
    await stack.stop();
    if (!process.env.BENCH_KEEP) await rm(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
