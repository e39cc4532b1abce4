import { afterEach, describe, expect, it } from "vitest";
import { ANALYSE_TASK_ID, TaskEvent, type RenderTaskRequest, type TaskResult } from "../../../common/contract/job-plan";
import { TASK_CONTRACT_VERSION } from "../../../common/contract/task-contract";
import { createLogger } from "../../../render-container/src/log";
import { runTask } from "../../../render-container/src/pipeline/run-task";
import type { TaskRunner } from "../../../render-container/src/pipeline/types";
import { SMALL_VOD } from "../../dev/fixture-vods";
import { startRecorder } from "../../support/http-recorder";
import { serveVodForTests } from "../../support/twitch-fixture";
import { handMadePlan, planMoment, taskRequest } from "../pipeline/task-fixtures";
import { closeAll, closers, smallVodJob, smallVodShort, startRenderService, TOKEN } from "./service-fixtures";
import { currentAssignment, type Assignment, type AssignmentStorage } from "../../../worker/src/durable/container-assignment";
import { cancelTaskOn, finishTaskOn, handOverTaskOn, startTaskOn, type TaskInstance } from "../../../worker/src/durable/container-tasks";

/**
 * The renderer's side of a task handed over in the Worker's answer to a completion (task contract 3,
 * common/plan/task-handoff.ts): the process that ran a re-cut's analysis runs its one short next, in the slot the
 * analysis frees, as if the request had been POSTed to /tasks (the same checks), reporting on the short's own
 * callback and storing on its own upload target. Real renderer service (registry and HTTP server); the Worker is
 * a local server answering as its task events route does. The analysis' runner only returns a plan (the analysis
 * itself is tested in test/renderer/pipeline/); the handed-over short is rendered by the real task code.
 */

afterEach(closeAll);

const twitchServer = serveVodForTests(SMALL_VOD);
const SHORT = smallVodShort({ end: 38, peak: 34, expected_encode_seconds: 8 });

/**
 * The Worker's side: each task's events at /events/<task> (recorded), the analysis' completion answered with
 * `next` (as TaskEventAnswer), uploads at /upload/<task>/<name> stored. `hold` delays the answer to the completion.
 */
async function startWorkerDouble(next: (base: string) => Promise<unknown>, hold: Promise<void> = Promise.resolve()) {
  const events = new Map<string, TaskEvent[]>();
  const stored = new Map<string, number>();
  let base = "";
  const rec = await startRecorder(async (q, res) => {
    const m = /^\/events\/([^/]+)$/.exec(q.url);
    if (m) {
      const event = TaskEvent.parse(JSON.parse(q.body.toString()));
      events.set(m[1]!, [...(events.get(m[1]!) ?? []), event]);
      const answer: Record<string, unknown> = { accepted: true, status: "running", progress: 20 };
      if (m[1] === ANALYSE_TASK_ID && event.type === "completed") {
        await hold;
        answer.next_task = await next(base);
      }
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    }
    if (q.method === "PUT") stored.set(decodeURIComponent(q.url.replace(/^\/upload\//, "")), q.body.length);
    res.writeHead(201).end();
  });
  base = rec.url;
  closers.push(rec.close);
  const typesOf = (task: string) => (events.get(task) ?? []).map((e) => e.type);
  return { url: rec.url, events, stored, typesOf };
}

/** The re-cut's two requests as the Worker sends them: each task with its own callback and upload target. */
async function requests(base: string, jobId: string): Promise<{ analysis: RenderTaskRequest; short: RenderTaskRequest }> {
  const job = await smallVodJob(twitchServer(), jobId, { events: `${base}/events/${ANALYSE_TASK_ID}`, upload: `${base}/upload/${ANALYSE_TASK_ID}` });
  const plan = handMadePlan(jobId, SMALL_VOD.durationSeconds, [planMoment("m1", 30, 38, 34, { source: "manual" })], [SHORT], { analysis: { reused_from: "job_earlier", stored: null } });
  const short = { ...taskRequest(job, plan, "short-01"), contract: TASK_CONTRACT_VERSION, callback: { url: `${base}/events/short-01`, token: "cb", heartbeat_seconds: 30 }, upload: { mode: "worker" as const, url: `${base}/upload/short-01`, token: "up" } };
  return { analysis: { ...job, contract: TASK_CONTRACT_VERSION, task: { id: ANALYSE_TASK_ID, kind: "analyse", attempt: 1 }, plan: null }, short };
}

/** A renderer service of one slot; `lines` collects its log. */
async function startService(runner: TaskRunner) {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({}, (l) => void lines.push(JSON.parse(l) as Record<string, unknown>));
  const { tasks, post, url } = await startRenderService(runner, { log, prefix: "renderer-handoff-" });
  return { tasks, post, lines, url };
}

/** The analysis' stand-in result: the plan the handed-over short belongs to. */
const planResult = (short: RenderTaskRequest): TaskResult => ({ kind: "analyse", plan: short.plan! });

/** A runner whose tasks wait until released (or aborted), recording which ran. */
function heldRunner(result: (req: RenderTaskRequest) => TaskResult) {
  const runs: string[] = [];
  const gates: (() => void)[] = [];
  const runner: TaskRunner = (req, ctx) => {
    runs.push(`${req.task.id}#${req.task.attempt}`);
    return new Promise((resolve, reject) => {
      gates.push(() => resolve(result(req)));
      ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true });
    });
  };
  return { runner, runs, release: () => gates.shift()?.() };
}

describe("a task handed over in the answer to a completion", () => {
  it("runs right after the analysis, in this process, as POST /tasks would: the short rendered, stored on its own target, reported on its own callback", async () => {
    let pair: { analysis: RenderTaskRequest; short: RenderTaskRequest } | null = null;
    const worker = await startWorkerDouble(async () => pair!.short);
    pair = await requests(worker.url, "job_handoff");
    const ran: string[] = [];
    const svc = await startService((req, ctx) => {
      ran.push(req.task.id);
      // The short is the real task code (real FFmpeg, real recogniser); the analysis only returns its plan.
      return req.task.kind === "analyse" ? Promise.resolve(planResult(pair!.short)) : runTask(req, ctx, { downloadConcurrency: 4, maxVideoBytesPerJob: 1e9, encodeConcurrency: 1, env: {} });
    });
    expect((await svc.post(pair.analysis)).status).toBe(202);
    await expect.poll(() => worker.typesOf("short-01").at(-1), { timeout: 240_000 }).toMatch(/completed|failed/);

    expect(ran).toEqual([ANALYSE_TASK_ID, "short-01"]);
    expect(worker.typesOf(ANALYSE_TASK_ID)).toEqual(["started", "completed"]);
    const shortEvents = worker.events.get("short-01")!;
    expect(shortEvents[0]).toMatchObject({ type: "started", attempt: 1 });
    const done = shortEvents.at(-1)!;
    if (done.type !== "completed" || done.result.kind !== "short") throw new Error(JSON.stringify(done));
    // Its files went to its own upload target, as large as it reported them.
    for (const a of done.result.artifacts) expect(worker.stored.get(`short-01/${a.name}`), a.name).toBe(a.size_bytes);
    expect(done.result.artifacts.map((a) => a.name).sort()).toEqual(["short-01.jpg", "short-01.mp4", "short-01.srt", "short-01.transcript.json"]);
    expect([...worker.stored.keys()].some((k) => k.startsWith(`${ANALYSE_TASK_ID}/`))).toBe(false);
    expect(svc.lines.find((l) => l.msg === "handed-over task accepted")).toMatchObject({ task_key: "job_handoff.short-01", handed_over_by: "job_handoff.analyse", attempt: 1 });
    await expect.poll(() => svc.tasks.status("job_handoff.short-01")).toBe("completed");
  }, 300_000);

  it("takes the slot the analysis frees: a task POSTed meanwhile is refused as busy, as with any running task", async () => {
    let pair: { analysis: RenderTaskRequest; short: RenderTaskRequest } | null = null;
    const worker = await startWorkerDouble(async () => pair!.short);
    pair = await requests(worker.url, "job_slot");
    const held = heldRunner((req) => (req.task.kind === "analyse" ? planResult(pair!.short) : { kind: "short", artifacts: [], moment: { id: "m1", start: 30, end: 38 } }));
    const svc = await startService(held.runner);
    expect((await svc.post(pair.analysis)).status).toBe(202);
    await expect.poll(() => held.runs.length).toBe(1);
    held.release();
    await expect.poll(() => held.runs).toEqual([`${ANALYSE_TASK_ID}#1`, "short-01#1"]);
    expect(svc.tasks.list().map((t) => t.task_key)).toEqual(["job_slot.short-01"]);
    const other = await requests(worker.url, "job_other");
    expect((await svc.post(other.short)).status).toBe(503);
    held.release();
    await expect.poll(() => worker.typesOf("short-01").at(-1)).toBe("completed");
  });

  it("what it cannot run is not started, only logged, and leaves the slot free: another contract version, a request whose plan lacks its task", async () => {
    for (const [name, broken] of [
      ["contract_unsupported", (r: RenderTaskRequest) => ({ ...r, contract: TASK_CONTRACT_VERSION + 1 })],
      ["invalid_task", (r: RenderTaskRequest) => ({ ...r, task: { ...r.task, id: "short-09" } })],
    ] as const) {
      let pair: { analysis: RenderTaskRequest; short: RenderTaskRequest } | null = null;
      const worker = await startWorkerDouble(async () => broken(pair!.short));
      pair = await requests(worker.url, `job_${name}`);
      const held = heldRunner((req) => (req.task.kind === "analyse" ? planResult(pair!.short) : { kind: "short", artifacts: [], moment: { id: "m1", start: 30, end: 38 } }));
      const svc = await startService(held.runner);
      expect((await svc.post(pair.analysis)).status).toBe(202);
      await expect.poll(() => held.runs.length).toBe(1);
      held.release();
      await expect.poll(() => svc.lines.find((l) => l.msg === "handed-over task refused"), { timeout: 10_000 }).toMatchObject({ code: name });
      expect(held.runs).toEqual([`${ANALYSE_TASK_ID}#1`]);
      expect(worker.events.get("short-01")).toBeUndefined();
      // The Worker's watchdog retries the short elsewhere; this slot is free for whatever comes.
      expect(svc.tasks.runningCount).toBe(0);
      expect((await svc.post(pair.short)).status).toBe(202);
      await expect.poll(() => held.runs.length).toBe(2);
      held.release();
      await expect.poll(() => worker.typesOf("short-01").at(-1)).toBe("completed");
    }
  });

  it("handed over while the process is stopping (SIGTERM): reported interrupted on its own callback, not started", async () => {
    let answer!: () => void;
    const hold = new Promise<void>((r) => (answer = r));
    let pair: { analysis: RenderTaskRequest; short: RenderTaskRequest } | null = null;
    const worker = await startWorkerDouble(async () => pair!.short, hold);
    pair = await requests(worker.url, "job_stop");
    const held = heldRunner((req) => planResult(pair!.short));
    const svc = await startService(held.runner);
    expect((await svc.post(pair.analysis)).status).toBe(202);
    await expect.poll(() => held.runs.length).toBe(1);
    held.release();
    // The completion is on its way; the stop comes before the Worker's answer does.
    await expect.poll(() => worker.typesOf(ANALYSE_TASK_ID).at(-1)).toBe("completed");
    const stopped = svc.tasks.interruptAll("renderer shutting down (SIGTERM)");
    answer();
    await stopped;
    expect(held.runs).toEqual([`${ANALYSE_TASK_ID}#1`]);
    expect(worker.events.get("short-01")).toEqual([expect.objectContaining({ type: "interrupted", attempt: 1, reason: "renderer shutting down (SIGTERM)" })]);
  });
});

/**
 * The Worker's side of the same hand-over on Cloudflare Containers: the calls its Container class makes
 * (worker/src/durable/container-tasks.ts: start a task, move the instance to the handed-over task, cancel, finish),
 * made here against the real renderer service over HTTP, as the class's `containerFetch` would reach it. The
 * Container class itself cannot be constructed without a container runtime; its storage here is a map (the same
 * assignment calls run on real Durable Object storage in test/worker/task-handoff.test.ts), and `running` is whether
 * this "container" was stopped.
 */
function containerOver(url: string) {
  const stored = new Map<string, unknown>();
  const storage: AssignmentStorage = {
    get: async <T>(key: string) => stored.get(key) as T | undefined,
    put: async (key: string, value: unknown) => void stored.set(key, value),
    delete: async (key: string) => stored.delete(key),
  };
  const state = { up: true, stops: 0, requests: [] as string[] };
  const instance: TaskInstance = {
    storage,
    running: () => state.up,
    // containerFetch's request is addressed to the container (http://container/...): the same path on the service.
    fetch: async (req) => {
      const target = new URL(req.url);
      state.requests.push(`${req.method} ${target.pathname} ${req.headers.get("authorization") ?? "-"}`);
      return fetch(`${url}${target.pathname}`, { method: req.method, headers: req.headers, body: req.method === "GET" ? undefined : await req.text() });
    },
    stop: async () => {
      state.up = false;
      state.stops += 1;
    },
  };
  return { instance, storage, state };
}

describe("the Worker's Container calls, against the renderer service (container-tasks.ts)", () => {
  const assignment = (jobId: string, task: string): Assignment => ({ job_id: jobId, task_id: task, attempt: 1 });

  it("starts the analysis on the instance, moves the instance to the short it hands over, and stops it once the short ended", async () => {
    let pair: { analysis: RenderTaskRequest; short: RenderTaskRequest } | null = null;
    let c: ReturnType<typeof containerOver> | null = null;
    const moves: boolean[] = [];
    // As handOffToAnalysisInstance does: the short goes in the answer only when the instance took it over.
    const worker = await startWorkerDouble(async () => {
      const moved = await handOverTaskOn(c!.instance, assignment("job_cont", ANALYSE_TASK_ID), assignment("job_cont", "short-01"));
      moves.push(moved);
      return moved ? pair!.short : undefined;
    });
    pair = await requests(worker.url, "job_cont");
    const held = heldRunner((req) => (req.task.kind === "analyse" ? planResult(pair!.short) : { kind: "short", artifacts: [], moment: { id: "m1", start: 30, end: 38 } }));
    const svc = await startService(held.runner);
    c = containerOver(svc.url);

    const answer = await startTaskOn(c.instance, assignment("job_cont", ANALYSE_TASK_ID), JSON.stringify(pair.analysis), TOKEN);
    expect(answer.status).toBe(202);
    expect(c.state.requests).toEqual([`POST /tasks Bearer ${TOKEN}`]);
    expect(await currentAssignment(c.storage)).toEqual(assignment("job_cont", ANALYSE_TASK_ID));
    await expect.poll(() => held.runs.length).toBe(1);
    held.release();
    await expect.poll(() => held.runs).toEqual([`${ANALYSE_TASK_ID}#1`, "short-01#1"]);
    expect(moves).toEqual([true]);
    // The instance now runs the short: the activity check and a lost-task notice name it.
    expect(await currentAssignment(c.storage)).toEqual(assignment("job_cont", "short-01"));
    held.release();
    await expect.poll(() => worker.typesOf("short-01").at(-1)).toBe("completed");
    // The job's object ends the task: the instance forgets it and stops.
    await finishTaskOn(c.instance);
    expect(await currentAssignment(c.storage)).toBeNull();
    expect(c.state.stops).toBe(1);
  });

  it("a stopped container takes nothing over: the answer carries no task, the renderer runs nothing more, and the short is left to the queue", async () => {
    let pair: { analysis: RenderTaskRequest; short: RenderTaskRequest } | null = null;
    let c: ReturnType<typeof containerOver> | null = null;
    const worker = await startWorkerDouble(async () => ((await handOverTaskOn(c!.instance, assignment("job_gone", ANALYSE_TASK_ID), assignment("job_gone", "short-01"))) ? pair!.short : undefined));
    pair = await requests(worker.url, "job_gone");
    const held = heldRunner(() => planResult(pair!.short));
    const svc = await startService(held.runner);
    c = containerOver(svc.url);
    expect((await startTaskOn(c.instance, assignment("job_gone", ANALYSE_TASK_ID), JSON.stringify(pair.analysis), TOKEN)).status).toBe(202);
    await expect.poll(() => held.runs.length).toBe(1);
    c.state.up = false;
    held.release();
    await expect.poll(() => worker.typesOf(ANALYSE_TASK_ID).at(-1)).toBe("completed");
    await expect.poll(() => svc.tasks.runningCount).toBe(0);
    expect(held.runs).toEqual([`${ANALYSE_TASK_ID}#1`]);
    expect(worker.events.get("short-01")).toBeUndefined();
    expect(await currentAssignment(c.storage)).toEqual(assignment("job_gone", ANALYSE_TASK_ID));
  });

  it("cancels the running task through the renderer, then forgets it and stops the instance", async () => {
    const worker = await startWorkerDouble(async () => undefined);
    const pair = await requests(worker.url, "job_cancel");
    const held = heldRunner(() => planResult(pair.short));
    const svc = await startService(held.runner);
    const c = containerOver(svc.url);
    expect((await startTaskOn(c.instance, assignment("job_cancel", ANALYSE_TASK_ID), JSON.stringify(pair.analysis), TOKEN)).status).toBe(202);
    await expect.poll(() => held.runs.length).toBe(1);
    expect(await cancelTaskOn(c.instance, `job_cancel.${ANALYSE_TASK_ID}`, TOKEN)).toBe(true);
    expect(c.state.requests.at(-1)).toBe(`POST /tasks/job_cancel.${ANALYSE_TASK_ID}/cancel Bearer ${TOKEN}`);
    expect(await currentAssignment(c.storage)).toBeNull();
    expect(c.state.stops).toBe(1);
    // A stopped instance is not asked again.
    expect(await cancelTaskOn(c.instance, `job_cancel.${ANALYSE_TASK_ID}`, TOKEN)).toBe(false);
  });
});
