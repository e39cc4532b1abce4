import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../common/contract";
import type { TaskRecord } from "../../worker/src/orchestration/task-book";
import { accountCredits, createAccount, get, minimalJob, post, type TestAccount } from "./helpers";
import { deliver, eventually, jobState, record, rendererAnswers, rendererLog, startedJob, webhookBox } from "./job-steps";
import { completeRenderTask, plannedJob as plannedTaskJob, r2Keys, renderTaskOutputs, taskEvent, taskStarts, testPlan, waitForStart } from "./task-flow";

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

const RENDER_TASKS = ["reel-balanced-m01", "reel-balanced-m02", "short-01"];

/** A started job whose analysis returned the test plan; the render tasks are on their way through the queue. */
const plannedJob = (body: Record<string, unknown> = {}) => plannedTaskJob(acct.api_key, body);

const book = (jobId: string): Promise<TaskRecord[]> => jobState(jobId).tasks();
const taskOf = async (jobId: string, id: string) => (await book(jobId)).find((t) => t.id === id)!;

// Render tasks travel through the real queue (about a second per hop, longer on a busy machine).
describe("a job fanned out over tasks", { timeout: 60_000 }, () => {
  it("runs the analysis, one task per output piece, the join after its parts, and finalises in the Worker", async () => {
    const box = await webhookBox({ secret: acct.webhook_signing_secret });
    const { ack } = await plannedJob({ webhook_url: box.url });
    expect((await record(acct.api_key, ack.id)).progress).toBe(20);

    // One message per ready task; the join waits for its moments.
    const starts = await Promise.all(RENDER_TASKS.map((id) => waitForStart(ack.id, id)));
    expect((await taskOf(ack.id, "reel-balanced-join")).state).toBe("waiting");
    for (const s of starts) {
      expect(s.plan?.job_id).toBe(ack.id);
      expect(s.callback.url).toBe(`https://api.test/internal/jobs/${ack.id}/tasks/${s.task.id}/attempts/1/events`);
    }

    // Progress is weighted by expected encode seconds: the short (75 of 153 s) half done moves the bar ~19 points.
    const short = starts.find((s) => s.task.id === "short-01")!;
    await taskEvent(short, { type: "started" });
    await taskEvent(short, { type: "progress", stage: "rendering_shorts", fraction: 0.5 });
    const mid = await record(acct.api_key, ack.id);
    expect(mid.progress).toBeGreaterThanOrEqual(38);
    expect(mid.progress).toBeLessThanOrEqual(41);
    expect(mid.stage).toBe("rendering_shorts");

    for (const s of starts) await completeRenderTask(s);
    const join = await waitForStart(ack.id, "reel-balanced-join");
    expect((await r2Keys(ack.id)).filter((k) => k.startsWith("part-"))).toEqual(["part-balanced-000.mp4", "part-balanced-001.mp4", "part-balanced-002.mp4"]);
    await completeRenderTask(join);

    const rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({ status: "completed", progress: 100, refunded_credits: 0 });
    // The parts are gone; the deliverables, metadata.json, the reel's editor timelines and manifest.json are stored.
    expect(await r2Keys(ack.id)).toEqual(["manifest.json", "metadata.json", "reel-balanced.edl", "reel-balanced.jpg", "reel-balanced.mp4", "reel-balanced.otio", "short-01.jpg", "short-01.mp4", "short-01.srt", "short-01.transcript.json"]);
    const stored = JSON.parse(await (await env.ARTIFACTS.get(`jobs/${ack.id}/manifest.json`))!.text()) as Manifest;
    // Highlights are the profile's moments at the edges their render tasks settled on (snapped by 0.5 s here).
    expect(stored.highlights.map((h) => [h.start, h.end, h.title])).toEqual([
      [99.5, 130.5, "The clutch"],
      [399.5, 440.5, "The fall"],
    ]);
    expect(stored.summary).toMatchObject({ total_videos: 2, total_shorts: 1, source_vod_duration_seconds: 3600 });
    expect(stored.warnings).toEqual(testPlan(ack.id).warnings);

    const results = await get(acct.api_key, `/jobs/${ack.id}/results`);
    expect(results.status).toBe(200);
    const names = ((await results.json()) as { deliverables: { name: string }[] }).deliverables.map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining(["reel-balanced.mp4", "short-01.mp4", "metadata.json"]));
    expect(names.some((n) => n.startsWith("part-"))).toBe(false);

    // job.running once, job.completed once.
    const events = await eventually(async () => {
      const d = await box.received();
      return d.some((x) => x.body.includes('"job.completed"')) && d;
    });
    const kinds = events.map((d) => JSON.parse(d.body).event);
    expect(kinds.filter((k) => k === "job.running")).toHaveLength(1);
    expect(kinds.filter((k) => k === "job.completed")).toHaveLength(1);
  });

  it("runs a clip group (a moment and a short sharing their video) as one task, the join after it, and finalises its members", async () => {
    const started = await startedJob(acct.api_key, minimalJob({ num_shorts: 1 }));
    const plan = testPlan(started.ack.id);
    const [m01, m02, join, short] = plan.tasks;
    if (m02?.kind !== "reel_moment" || short?.kind !== "short" || join?.kind !== "reel_join") throw new Error("test plan");
    const shortInM02 = { ...short, start: 405, end: 435, peak: 420 };
    plan.tasks = [m01!, { kind: "clip_group", id: "clips-01", members: [m02, shortInM02], expected_encode_seconds: 40 + 75 }, { ...join, depends_on: ["reel-balanced-m01", "clips-01"] }];
    await taskEvent(started.render, { type: "completed", result: { kind: "analyse", plan } });

    const [first, group] = await Promise.all([waitForStart(started.ack.id, "reel-balanced-m01"), waitForStart(started.ack.id, "clips-01")]);
    expect(group.task.kind).toBe("clip_group");
    expect((await taskOf(started.ack.id, "clips-01")).label).toBe("the balanced reel (moment 2) and short 1");
    await completeRenderTask(first);
    // The join waits for the group, which makes one of its parts.
    expect((await taskOf(started.ack.id, "reel-balanced-join")).state).toBe("waiting");
    await completeRenderTask(group);
    await completeRenderTask(await waitForStart(started.ack.id, "reel-balanced-join"));

    expect(await record(acct.api_key, started.ack.id)).toMatchObject({ status: "completed", refunded_credits: 0 });
    expect(await r2Keys(started.ack.id)).toEqual(["manifest.json", "metadata.json", "reel-balanced.edl", "reel-balanced.jpg", "reel-balanced.mp4", "reel-balanced.otio", "short-01.jpg", "short-01.mp4", "short-01.srt", "short-01.transcript.json"]);
    const stored = JSON.parse(await (await env.ARTIFACTS.get(`jobs/${started.ack.id}/manifest.json`))!.text()) as Manifest;
    // The group's reel moment reports its snapped edges like a lone one.
    expect(stored.highlights.map((h) => [h.start, h.end])).toEqual([
      [99.5, 130.5],
      [399.5, 440.5],
    ]);
    expect(stored.summary).toMatchObject({ total_videos: 2, total_shorts: 1 });
  });

  it("retries a failed render task alone, and the job completes with every output", async () => {
    const { ack } = await plannedJob();
    const starts = await Promise.all(RENDER_TASKS.map((id) => waitForStart(ack.id, id)));
    const short = starts.find((s) => s.task.id === "short-01")!;
    await taskEvent(short, { type: "started" });
    // Killed mid-encode: the renderer reports a retryable failure.
    await taskEvent(short, { type: "failed", error: { code: "render_failed", message: "ffmpeg was killed (SIGKILL)" }, retryable: true });
    const retry = await waitForStart(ack.id, "short-01", 2);
    expect((await taskOf(ack.id, "short-01")).failures).toBe(1);
    // The other tasks were started once.
    expect((await taskStarts(ack.id)).filter((s) => s.task.id === "reel-balanced-m01")).toHaveLength(1);
    // A late report of the first attempt is refused: it was superseded.
    await taskEvent(short, { type: "progress", stage: "rendering_shorts", fraction: 0.9 }, 409);

    for (const s of starts.filter((s) => s !== short)) await completeRenderTask(s);
    await completeRenderTask(retry);
    await completeRenderTask(await waitForStart(ack.id, "reel-balanced-join"));
    expect((await record(acct.api_key, ack.id)).status).toBe("completed");
  });

  it("fails the job with a full refund and a job.failed naming the output when a task fails on every attempt", async () => {
    const before = await accountCredits(acct.account_id);
    const box = await webhookBox({ secret: acct.webhook_signing_secret });
    const { ack } = await plannedJob({ webhook_url: box.url });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const s = await waitForStart(ack.id, "short-01", attempt);
      await taskEvent(s, { type: "failed", error: { code: "render_failed", message: "FFmpeg exited with code 1" }, retryable: true });
    }
    const rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({ status: "failed", refunded_credits: ack.credit_cost, error: { code: "render_failed" } });
    expect(rec.error!.message).toMatch(/^Rendering short 1 failed 3 times \(last: FFmpeg exited with code 1\)/);
    expect(await accountCredits(acct.account_id)).toBe(before);
    const failed = await eventually(async () => (await box.received()).find((d) => d.body.includes('"job.failed"')));
    expect(JSON.parse(failed.body).payload).toMatchObject({ error_code: "render_failed", error: expect.stringMatching(/short 1/) });
    // The other running tasks are told to stop.
    await eventually(async () => (await rendererLog(ack.id)).cancelledTasks.length >= 2, 5000, "the other tasks to be stopped");
    expect((await rendererLog(ack.id)).cancelledTasks).toEqual(expect.arrayContaining(["reel-balanced-m01", "reel-balanced-m02"]));
  });

  it("a failure about the input (not retryable) fails the job at once with its own code", async () => {
    const { ack, render } = await startedJob(acct.api_key);
    await taskEvent(render, { type: "failed", error: { code: "no_highlights_found", message: "No moment of this VOD scored above highlight_min_score." }, retryable: false });
    expect(await record(acct.api_key, ack.id)).toMatchObject({ status: "failed", refunded_credits: ack.credit_cost, error: { code: "no_highlights_found" } });
  });

  it("runs an interrupted task (SIGTERM on a rollout) again at once, elsewhere", async () => {
    const { ack } = await plannedJob();
    const first = await waitForStart(ack.id, "reel-balanced-m02");
    await taskEvent(first, { type: "started" });
    await taskEvent(first, { type: "interrupted", reason: "renderer shutting down (SIGTERM)" });
    const again = await waitForStart(ack.id, "reel-balanced-m02", 2);
    expect(again.task.attempt).toBe(2);
    const t = await taskOf(ack.id, "reel-balanced-m02");
    expect({ interruptions: t.interruptions, failures: t.failures }).toEqual({ interruptions: 1, failures: 0 });
    expect((await record(acct.api_key, ack.id)).status).toBe("running");
  });

  it("starts nothing twice when a task's queue message is delivered again", async () => {
    const { ack } = await plannedJob();
    await waitForStart(ack.id, "short-01");
    const again = await deliver({ job_id: ack.id, task_id: "short-01" }, { attempts: 2 });
    expect(again.explicitAcks).toHaveLength(1);
    expect((await taskStarts(ack.id)).filter((s) => s.task.id === "short-01")).toHaveLength(1);
  });

  it("cancel stops every running task", async () => {
    const { ack } = await plannedJob();
    await Promise.all(RENDER_TASKS.map((id) => waitForStart(ack.id, id)));
    expect((await post(acct.api_key, `/jobs/${ack.id}/cancel`)).status).toBe(200);
    await eventually(async () => (await rendererLog(ack.id)).cancelledTasks.length === 3, 5000, "every task to be stopped");
    expect([...(await rendererLog(ack.id)).cancelledTasks].sort()).toEqual([...RENDER_TASKS].sort());
  });

  it("a task whose renderer went silent is lost and retried; the job keeps running", async () => {
    const { ack } = await plannedJob();
    const s = await waitForStart(ack.id, "short-01");
    await taskEvent(s, { type: "started" });
    await runInDurableObject(jobState(ack.id), async (_i, state) => {
      const tasks = (await state.storage.get<TaskRecord[]>("tasks"))!;
      tasks.find((t) => t.id === "short-01")!.heard_at = Date.now() - 601_000;
      await state.storage.put("tasks", tasks);
      await state.storage.put("watchdog_at", Date.now() - 1);
    });
    await runDurableObjectAlarm(jobState(ack.id));
    await waitForStart(ack.id, "short-01", 2);
    expect((await taskOf(ack.id, "short-01")).last_error?.code).toBe("renderer_stalled");
    expect((await record(acct.api_key, ack.id)).status).toBe("running");
  });

  it("a job with more tasks than free renderers waits for capacity and completes", async () => {
    const { ack } = await startedJob(acct.api_key, minimalJob({ num_shorts: 1 }));
    const analysis = (await taskStarts(ack.id))[0]!;
    // Every renderer busy from now on: the render tasks wait in the queue (503 -> retry with backoff).
    await rendererAnswers(ack.id, 503);
    await taskEvent(analysis, { type: "completed", result: { kind: "analyse", plan: testPlan(ack.id) } });
    await eventually(async () => (await rendererLog(ack.id)).answers.filter((a) => a === 503).length >= 3, 15_000, "busy answers");
    // None runs or failed: each waits in the queue (or is, this instant, being offered to a renderer again).
    expect((await book(ack.id)).filter((t) => t.kind !== "analyse").map((t) => t.state).filter((s) => !["queued", "waiting", "dispatching"].includes(s))).toEqual([]);
    expect((await record(acct.api_key, ack.id)).status).toBe("running");
    // Capacity comes back: the queue's next deliveries start them (delivered here at once instead of after 5 s).
    await rendererAnswers(ack.id, 202);
    for (const id of RENDER_TASKS) await deliver({ job_id: ack.id, task_id: id }, { attempts: 2 });
    for (const id of RENDER_TASKS) await completeRenderTask(await waitForStart(ack.id, id));
    await completeRenderTask(await waitForStart(ack.id, "reel-balanced-join"));
    expect((await record(acct.api_key, ack.id)).status).toBe("completed");
  });

  it("a render result naming a file storage does not hold is a failed attempt (retried), not a completed task", async () => {
    const { ack } = await plannedJob();
    const s = await waitForStart(ack.id, "short-01");
    const result = await renderTaskOutputs(s);
    if (result.kind !== "short") throw new Error("expected a short");
    result.artifacts[0]!.size_bytes += 1;
    await taskEvent(s, { type: "completed", result });
    expect((await taskOf(ack.id, "short-01")).last_error?.code).toBe("artifacts_missing");
    await waitForStart(ack.id, "short-01", 2);
  });
});
