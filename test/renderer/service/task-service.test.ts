import { readdirSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ANALYSE_TASK_ID, JobPlan, memberResults, TaskEvent, TaskResult, unitTasks, type RenderTaskRequest } from "../../../common/contract/job-plan";
import { Manifest } from "../../../common/contract/render";
import { finaliseJob } from "../../../common/plan/finalise";
import type { RenderJob } from "../../../common/contract/render";
import { localRenderJob } from "../../../dev/render-cli/local-job";
import { silentLogger } from "../../../render-container/src/log";
import { JobError } from "../../../render-container/src/pipeline/job-error";
import { runTask } from "../../../render-container/src/pipeline/run-task";
import type { TaskRunner } from "../../../render-container/src/pipeline/types";
import { createRenderServer } from "../../../render-container/src/service/http-server";
import { TaskRegistry } from "../../../render-container/src/service/task-registry";
import { SMALL_VOD } from "../../dev/fixture-vods";
import { startRecorder } from "../../support/http-recorder";
import { serveVodForTests } from "../../support/twitch-fixture";
import { handMadePlan, planMoment, taskRequest } from "../pipeline/task-fixtures";
import { closeAll, closers, smallVodJob, smallVodShort, TOKEN } from "./service-fixtures";
import { probeMedia } from "../../../render-container/src/ffmpeg/probe";

afterEach(closeAll);

const twitchServer = serveVodForTests(SMALL_VOD);

const SHORT = smallVodShort();

/** A real job for the synthetic VOD, its callbacks and uploads sent to `base`. */
async function jobFor(base: string, jobId: string): Promise<RenderJob> {
  return smallVodJob(twitchServer(), jobId, { events: `${base}/events`, upload: `${base}/upload`, heartbeatSeconds: 0.4 });
}

async function shortRequest(base: string, jobId: string, attempt = 1): Promise<RenderTaskRequest> {
  const plan = handMadePlan(jobId, SMALL_VOD.durationSeconds, [planMoment("m1", 30, 50, 38)], [SHORT]);
  return taskRequest(await jobFor(base, jobId), plan, "short-01", attempt);
}

/** The Worker's side: records task events, accepts uploads (status from `answer`). */
async function startWorkerDouble(answer: (event: TaskEvent) => number = () => 200) {
  const events: TaskEvent[] = [];
  const rec = await startRecorder((q, res) => {
    if (q.url.startsWith("/events")) {
      const event = TaskEvent.parse(JSON.parse(q.body.toString()));
      events.push(event);
      return void res.writeHead(answer(event)).end();
    }
    res.writeHead(200).end();
  });
  closers.push(rec.close);
  return { ...rec, events, types: () => events.map((e) => e.type) };
}

async function startService(runner: TaskRunner, maxTasks = 1) {
  const root = await mkdtemp(path.join(os.tmpdir(), "renderer-tasks-"));
  const tasks = new TaskRegistry(root, runner, silentLogger, { maxTasks });
  const server = createRenderServer(tasks, silentLogger, { token: TOKEN });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  closers.push(() => new Promise((r) => server.close(r)));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = (p: string, body: unknown) => fetch(`${url}${p}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` }, body: JSON.stringify(body) });
  return { url, root, tasks, post };
}

/** A runner that waits for its gate (or its abort), counting its runs. */
function gatedRunner(result: (req: RenderTaskRequest) => TaskResult = () => ({ kind: "short", artifacts: [], moment: { id: "m1", start: 30, end: 50 } })) {
  const gates: (() => void)[] = [];
  const runs: string[] = [];
  const runner: TaskRunner = async (req, ctx) => {
    runs.push(`${req.task.id}#${req.task.attempt}`);
    await writeFile(path.join(ctx.workDir, "scratch.bin"), "x");
    ctx.progress("rendering_shorts", 0.25);
    await new Promise<void>((resolve, reject) => {
      gates.push(resolve);
      ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true });
    });
    return result(req);
  };
  return { runner, runs, release: () => gates.splice(0).forEach((g) => g()) };
}

describe("POST /tasks", () => {
  it("accepts a task at once, runs it once however often it is delivered, and reports started, progress and completed", async () => {
    const worker = await startWorkerDouble();
    const gated = gatedRunner();
    const svc = await startService(gated.runner);
    const req = await shortRequest(worker.url, "job_once");
    const first = await svc.post("/tasks", req);
    expect(first.status).toBe(202);
    expect(await first.json()).toEqual({ accepted: true, task_key: "job_once.short-01", status: "running" });
    // A redelivered message (same task, same attempt) starts nothing, while it runs and after it finished.
    const again = await svc.post("/tasks", req);
    expect(again.status).toBe(202);
    expect(await again.json()).toMatchObject({ accepted: false, status: "running" });
    await expect.poll(() => worker.types()).toContain("progress");
    gated.release();
    await expect.poll(() => svc.tasks.status("job_once.short-01")).toBe("completed");
    expect(await (await svc.post("/tasks", req)).json()).toMatchObject({ accepted: false, status: "completed" });
    expect(gated.runs).toEqual(["short-01#1"]);
    expect(worker.types()).toEqual(["started", "progress", "completed"]);
    expect(worker.events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(worker.events.every((e) => e.attempt === 1)).toBe(true);
    expect(worker.events[1]).toMatchObject({ stage: "rendering_shorts", fraction: 0.25 });
    expect(worker.requests.every((q) => q.headers.authorization === "Bearer cb")).toBe(true);
    expect(readdirSync(svc.root)).toEqual([]);
  });

  it("answers 503 busy when MAX_TASKS tasks already run, and takes the task once a slot is free", async () => {
    const worker = await startWorkerDouble();
    const gated = gatedRunner();
    const svc = await startService(gated.runner, 1);
    expect((await svc.post("/tasks", await shortRequest(worker.url, "job_a"))).status).toBe(202);
    await expect.poll(() => gated.runs.length).toBe(1);
    const busy = await svc.post("/tasks", await shortRequest(worker.url, "job_b"));
    expect(busy.status).toBe(503);
    expect(busy.headers.get("retry-after")).toBe("10");
    expect(await busy.json()).toMatchObject({ error: { code: "busy" } });
    const health = (await (await fetch(`${svc.url}/health`)).json()) as { running_tasks: number; max_tasks: number; tasks: { task_key: string; stage: string }[] };
    expect(health).toMatchObject({ ok: true, running_tasks: 1, max_tasks: 1, tasks: [{ task_key: "job_a.short-01", kind: "short", attempt: 1 }] });
    gated.release();
    await expect.poll(() => svc.tasks.runningCount).toBe(0);
    expect((await svc.post("/tasks", await shortRequest(worker.url, "job_b"))).status).toBe(202);
    await expect.poll(() => gated.runs.length).toBe(2);
    gated.release();
    await expect.poll(() => svc.tasks.status("job_b.short-01")).toBe("completed");
    expect(gated.runs).toEqual(["short-01#1", "short-01#1"]);
  });

  it("a newer attempt of a task running here replaces the older one, which reports nothing more", async () => {
    const worker = await startWorkerDouble();
    const gated = gatedRunner();
    const svc = await startService(gated.runner, 1);
    await svc.post("/tasks", await shortRequest(worker.url, "job_r", 1));
    await expect.poll(() => gated.runs.length).toBe(1);
    const second = await svc.post("/tasks", await shortRequest(worker.url, "job_r", 2));
    expect(await second.json()).toMatchObject({ accepted: true });
    await expect.poll(() => gated.runs).toEqual(["short-01#1", "short-01#2"]);
    gated.release();
    await expect.poll(() => svc.tasks.status("job_r.short-01")).toBe("completed");
    expect(worker.events.map((e) => `${e.type}#${e.attempt}`)).toEqual(["started#1", "progress#1", "started#2", "progress#2", "completed#2"]);
    // The older attempt is now a duplicate.
    expect(await (await svc.post("/tasks", await shortRequest(worker.url, "job_r", 1))).json()).toMatchObject({ accepted: false });
  });

  it("rejects a malformed request (422) with the fields, and a plan that lacks the task it names", async () => {
    const svc = await startService(gatedRunner().runner);
    const bad = await svc.post("/tasks", { job_id: "j", task: { id: "Bad Id", kind: "short", attempt: 0 } });
    expect(bad.status).toBe(422);
    const fields = ((await bad.json()) as { error: { code: string; detail: { field: string }[] } }).error;
    expect(fields.code).toBe("invalid_task");
    expect(fields.detail.map((d) => d.field)).toEqual(expect.arrayContaining(["task.id", "task.attempt", "plan", "request"]));
    const req = await shortRequest("http://127.0.0.1:9", "job_x");
    const missing = await svc.post("/tasks", { ...req, task: { ...req.task, id: "short-02" } });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toMatchObject({ error: { detail: [{ field: "task.id", message: 'The plan has no short task "short-02".' }] } });
    const wrongKind = await svc.post("/tasks", { ...req, task: { ...req.task, kind: "reel_join" } });
    expect(await wrongKind.json()).toMatchObject({ error: { detail: [{ field: "task.id" }] } });
    const noPlan = await svc.post("/tasks", { ...req, plan: null });
    expect(await noPlan.json()).toMatchObject({ error: { detail: [{ field: "plan" }] } });
    expect((await fetch(`${svc.url}/tasks`, { method: "POST", body: JSON.stringify(req) })).status).toBe(401);
    expect(svc.tasks.runningCount).toBe(0);
  });

  it("says whether a failure is worth retrying: not for the input's own problems, yes for render errors", async () => {
    const worker = await startWorkerDouble();
    const svc = await startService(async (req) => {
      if (req.job_id === "job_gone") throw new JobError("vod_deleted", "The VOD no longer exists on Twitch (deleted or expired).");
      throw new Error("ffmpeg exited with code 1");
    }, 2);
    await svc.post("/tasks", await shortRequest(worker.url, "job_gone"));
    await svc.post("/tasks", await shortRequest(worker.url, "job_broken"));
    await expect.poll(() => worker.events.filter((e) => e.type === "failed").length).toBe(2);
    const failed = worker.events.filter((e): e is Extract<TaskEvent, { type: "failed" }> => e.type === "failed");
    const byCode = Object.fromEntries(failed.map((e) => [e.error.code, e.retryable]));
    expect(byCode).toEqual({ vod_deleted: false, render_failed: true });
  });

  it("stops a task when the Worker answers 409 (settled there), sending nothing more", async () => {
    const worker = await startWorkerDouble((e) => (e.type === "progress" ? 409 : 200));
    const gated = gatedRunner();
    const svc = await startService(gated.runner);
    await svc.post("/tasks", await shortRequest(worker.url, "job_s"));
    await expect.poll(() => svc.tasks.status("job_s.short-01")).toBe("cancelled");
    expect(worker.types()).toEqual(["started", "progress"]);
  });

  it("repeats the last progress as a heartbeat while the task is quiet", async () => {
    const worker = await startWorkerDouble();
    const gated = gatedRunner();
    const svc = await startService(gated.runner);
    await svc.post("/tasks", await shortRequest(worker.url, "job_h"));
    // heartbeat_seconds is 0.4 in these requests.
    await expect.poll(() => worker.events.filter((e) => e.type === "progress").length, { timeout: 5000 }).toBeGreaterThanOrEqual(3);
    const beats = worker.events.filter((e) => e.type === "progress");
    expect(beats.every((e) => e.type === "progress" && e.fraction === 0.25 && e.stage === "rendering_shorts")).toBe(true);
    gated.release();
    await expect.poll(() => worker.types().at(-1)).toBe("completed");
  });
});

describe("POST /tasks/:key/cancel", () => {
  it("stops the task: its folder is gone when it answers, and it reports nothing more (a real task's processes: cancel-task.test.ts)", async () => {
    const worker = await startWorkerDouble();
    const gated = gatedRunner();
    const svc = await startService(gated.runner);
    expect((await svc.post("/tasks", await shortRequest(worker.url, "job_cancel"))).status).toBe(202);
    await expect.poll(() => worker.events.some((e) => e.type === "progress")).toBe(true);
    expect(readdirSync(svc.root)).toHaveLength(1);
    const res = await svc.post("/tasks/job_cancel.short-01/cancel", {});
    expect(await res.json()).toEqual({ task_key: "job_cancel.short-01", cancelled: true });
    expect(readdirSync(svc.root)).toEqual([]);
    expect(svc.tasks.status("job_cancel.short-01")).toBe("cancelled");
    const sent = worker.events.length;
    await new Promise((r) => setTimeout(r, 500));
    expect(worker.events.length).toBe(sent);
    expect(worker.types()).not.toContain("failed");
    expect(worker.types()).not.toContain("completed");
    // A task that is not running here: nothing to cancel.
    expect(await (await svc.post("/tasks/job_other.short-01/cancel", {})).json()).toEqual({ task_key: "job_other.short-01", cancelled: false });
  });
});

describe("a whole job as tasks through the service", () => {
  it("analysis -> plan -> every render task (two at a time, joins after their parts, read back over HTTP) -> finalise", async () => {
    // The Worker's side: task events per task, and storage (PUT stores, GET reads back: the join's parts).
    const stored = new Map<string, Buffer>();
    const events = new Map<string, TaskEvent[]>();
    const worker = await startRecorder((q, res) => {
      const m = /^\/events\/([^/]+)$/.exec(q.url);
      if (m) {
        events.set(m[1]!, [...(events.get(m[1]!) ?? []), TaskEvent.parse(JSON.parse(q.body.toString()))]);
        return void res.writeHead(200).end();
      }
      const name = decodeURIComponent(q.url.replace(/^\/upload\//, ""));
      if (q.headers.authorization !== "Bearer up") return void res.writeHead(401).end();
      if (q.method === "PUT") {
        stored.set(name, q.body);
        return void res.writeHead(201).end();
      }
      const body = stored.get(name);
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { "content-length": String(body.length) }).end(body);
    });
    closers.push(worker.close);
    // The recogniser's accurate search alone (POCKETSPHINX_CROSS_CHECK=0, an operator's setting), half the
    // recogniser CPU of the default: this proves how a job's tasks go through the service, not which words are
    // heard (the default's cross-check: test/renderer/captions, analyse-task, render-task).
    const svc = await startService((req, ctx) => runTask(req, ctx, { downloadConcurrency: 4, maxVideoBytesPerJob: 1e9, encodeConcurrency: 1, env: { POCKETSPHINX_CROSS_CHECK: "0" } }), 2);
    const job = await localRenderJob(
      { vod_url: `https://www.twitch.tv/videos/${SMALL_VOD.vodId}`, num_shorts: 1, final_video_length_minutes: 1, parameters: { min_highlight_duration: 12, max_highlight_duration: 18, cold_open_enabled: true, cold_open_max_clips: 1, shorts_crop_mode: "fit" } },
      { twitch: twitchServer(), jobId: "job_fanout", upload: { mode: "worker", url: `${worker.url}/upload`, token: "up" }, callback: { url: "unused", token: "cb" } },
    );
    const send = async (taskId: string, kind: RenderTaskRequest["task"]["kind"], plan: JobPlan | null) => {
      const res = await svc.post("/tasks", { ...job, callback: { url: `${worker.url}/events/${taskId}`, token: "cb" }, task: { id: taskId, kind, attempt: 1 }, plan });
      expect(res.status, await res.clone().text()).toBe(202);
    };
    const result = async (taskId: string): Promise<TaskResult> => {
      await expect.poll(() => events.get(taskId)?.some((e) => e.type === "completed" || e.type === "failed"), { timeout: 240_000 }).toBe(true);
      const end = events.get(taskId)!.at(-1)!;
      if (end.type !== "completed") throw new Error(`${taskId}: ${JSON.stringify(end)}`);
      return end.result;
    };

    await send(ANALYSE_TASK_ID, "analyse", null);
    const analysed = await result(ANALYSE_TASK_ID);
    if (analysed.kind !== "analyse") throw new Error(analysed.kind);
    const plan = JobPlan.parse(analysed.plan);
    // Grouped or alone, the plan holds reel moments, a short and the join.
    expect(unitTasks(plan.tasks).map((t) => t.kind).sort()).toEqual(expect.arrayContaining(["reel_join", "reel_moment", "short"]));

    const first = plan.tasks.filter((t) => t.kind !== "reel_join");
    const results: TaskResult[] = [];
    // Two processes' worth of slots: send while a slot is free, as the queue would retry a 503.
    for (const t of first) {
      await expect.poll(() => svc.tasks.runningCount, { timeout: 240_000 }).toBeLessThan(2);
      await send(t.id, t.kind, plan);
    }
    for (const t of first) results.push(await result(t.id));
    for (const t of plan.tasks.filter((x) => x.kind === "reel_join")) {
      await send(t.id, t.kind, plan);
      results.push(await result(t.id));
    }

    const final = await finaliseJob(plan, results, async (name, body) => {
      stored.set(name, Buffer.from(body));
      return { size_bytes: Buffer.byteLength(body) };
    });
    const manifest = Manifest.parse(final.manifest);
    expect(manifest.summary).toMatchObject({ total_shorts: 1, total_videos: 2 });
    // Every deliverable is in storage, as large as reported; the parts are there too (the Worker deletes them).
    for (const a of final.artifacts) expect(stored.get(a.name)?.length, a.name).toBe(a.size_bytes);
    const pieces = plan.tasks.reduce((n, t) => n + (t.kind === "reel_join" ? t.pieces : 0), 0);
    expect([...stored.keys()].filter((n) => n.startsWith("part-"))).toHaveLength(pieces);
    // The reel is the sum of its parts.
    const dir = await mkdtemp(path.join(os.tmpdir(), "fanout-"));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    await writeFile(path.join(dir, "reel.mp4"), stored.get("reel-balanced.mp4")!);
    const parts = memberResults(results).flatMap((r) => (r.kind === "reel_moment" ? r.parts : []));
    expect((await probeMedia(path.join(dir, "reel.mp4"))).durationSeconds).toBeCloseTo(parts.reduce((s, p) => s + p.duration_seconds, 0), 1);
    // Every task reported started ... completed, each with its own fraction ending at 1.
    for (const t of plan.tasks) {
      const evs = events.get(t.id)!;
      expect(evs[0]!.type).toBe("started");
      const fractions = evs.flatMap((e) => (e.type === "progress" ? [e.fraction] : []));
      expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    }
    expect(readdirSync(svc.root)).toEqual([]);
  }, 600_000);
});
