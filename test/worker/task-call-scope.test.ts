import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { RenderTaskRequest } from "../../common/contract/job-plan";
import { rendererJobToken, rendererTaskToken } from "../../worker/src/artifacts/links";
import type { TaskRecord } from "../../worker/src/orchestration/task-book";
import { createAccount, expectError, type TestAccount } from "./helpers";
import { callWithEnv, jobState, record, startedJob } from "./job-steps";
import { completeJob, completeRenderTask, plannedJob, postTaskEvent, taskEvent, waitForStart } from "./task-flow";
import { chatOutput, WorkersAiStandIn } from "./workers-ai-standin";

/**
 * A task attempt's token speaks for that attempt only (issue 23, point 6), in the Workers pool with the real Durable
 * Object, queue and routes: its events (a renderer subverted by the media it parses cannot report progress, a result
 * or a failure for another task of its job, nor for another attempt of its own task) and Workers AI (only while its
 * attempt is current and the job runs). The job-wide token of before is served on the job-wide paths only for
 * attempts claimed by the previous Worker version. Files are scoped the same way: task-storage-scope.test.ts.
 */

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

const KEY = () => ({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! });
const jobToken = (jobId: string) => rendererJobToken(KEY(), jobId);
const pathOf = (url: string) => new URL(url).pathname;
const taskOf = async (jobId: string, taskId: string) => (await jobState(jobId).tasks()).find((t) => t.id === taskId)!;

/** POSTs an event body to a URL path with a token, as a renderer holding that token could. */
function postEvent(path: string, token: string, body: Record<string, unknown>): Promise<Response> {
  return callWithEnv({}, path, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
}

/** A chat completion request to an AI base path with a token, through the Worker with the stand-in binding. */
function chat(ai: WorkersAiStandIn, base: string, token: string): Promise<Response> {
  return callWithEnv({ AI: ai.binding }, `${base}/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: "Title this moment." }] }),
  });
}

/** What a renderer's events can change about a task: compared before and after a refused event. */
const footprint = (t: TaskRecord) => ({ state: t.state, attempt: t.attempt, seq: t.seq, fraction: t.fraction, failures: t.failures, last_error: t.last_error });

/** Drops a task's `scoped_calls`, as the previous Worker version's claim wrote the record. */
async function claimedByPreviousWorker(jobId: string, taskId: string): Promise<void> {
  await runInDurableObject(jobState(jobId), async (_instance, state) => {
    const book = (await state.storage.get<TaskRecord[]>("tasks"))!;
    delete book.find((t) => t.id === taskId)!.scoped_calls;
    await state.storage.put("tasks", book);
  });
}

/** A job whose render tasks run: the start requests of short 1 and the first reel moment. */
async function renderingJob() {
  const { ack } = await plannedJob(acct.api_key);
  const [short1, moment1] = await Promise.all(["short-01", "reel-balanced-m01"].map((id) => waitForStart(ack.id, id)));
  return { id: ack.id, short1: short1!, moment1: moment1! };
}

describe("a task attempt's token reports only that attempt's events", () => {
  let job: Awaited<ReturnType<typeof renderingJob>>;
  beforeAll(async () => {
    job = await renderingJob();
  });

  it("each attempt gets its own events URL and token, which are not the job's", async () => {
    expect(pathOf(job.short1.callback.url)).toBe(`/internal/jobs/${job.id}/tasks/short-01/attempts/1/events`);
    expect(job.short1.callback.token).toBe(await rendererTaskToken(KEY(), job.id, "short-01", 1));
    expect(job.short1.callback.token).not.toBe(job.moment1.callback.token);
    expect(job.short1.callback.token).not.toBe(await jobToken(job.id));
  });

  it("short 1's token cannot fail, complete or move the reel moment's task, nor can the job's token on that task's path", async () => {
    const before = footprint(await taskOf(job.id, "reel-balanced-m01"));
    const path = pathOf(job.moment1.callback.url);
    const events = [
      { type: "failed", attempt: 1, seq: 50, retryable: false, error: { code: "vod_deleted", message: "The VOD was deleted." } },
      { type: "progress", attempt: 1, seq: 51, stage: "rendering_reels", fraction: 0.9 },
      { type: "interrupted", attempt: 1, seq: 52, reason: "SIGTERM" },
    ];
    for (const event of events) {
      for (const token of [job.short1.callback.token, await jobToken(job.id)]) {
        const err = await expectError(await postEvent(path, token, event), 401, "unauthorized");
        expect(err.message).toBe("Task calls need Authorization: Bearer <the token of this task attempt>, as given in the task's callback.");
      }
    }
    expect(footprint(await taskOf(job.id, "reel-balanced-m01"))).toEqual(before);
    expect((await record(acct.api_key, job.id)).status).toBe("running");
  });

  it("an event on its own path naming another attempt is refused 403 outside_task_scope", async () => {
    const before = footprint(await taskOf(job.id, "short-01"));
    const err = await expectError(await postEvent(pathOf(job.short1.callback.url), job.short1.callback.token, { type: "started", attempt: 2, seq: 60 }), 403, "outside_task_scope");
    expect(err.message).toBe("This token reports for attempt 1 of task short-01 only; the event says attempt 2.");
    expect(footprint(await taskOf(job.id, "short-01"))).toEqual(before);
  });

  it("its own events are applied", async () => {
    expect(await taskEvent(job.short1, { type: "started" })).toMatchObject({ accepted: true });
    await taskEvent(job.short1, { type: "progress", stage: "rendering_shorts", fraction: 0.5 });
    expect(await taskOf(job.id, "short-01")).toMatchObject({ state: "running", fraction: 0.5 });
  });
});

describe("a superseded attempt", () => {
  it("gets 409 task_superseded for its events and changes nothing; its token opens neither the new attempt's path nor its AI", async () => {
    const job = await renderingJob();
    await taskEvent(job.short1, { type: "started" });
    await taskEvent(job.short1, { type: "failed", retryable: true, error: { code: "render_failed", message: "ffmpeg exited 1" } });
    const second = await waitForStart(job.id, "short-01", 2);
    expect(pathOf(second.callback.url)).toBe(`/internal/jobs/${job.id}/tasks/short-01/attempts/2/events`);
    expect(second.callback.token).not.toBe(job.short1.callback.token);
    await taskEvent(second, { type: "started" });
    const before = footprint(await taskOf(job.id, "short-01"));

    // The old attempt, on its own path: told to stop.
    const stale = await expectError(await postTaskEvent(job.short1, { type: "completed", result: { kind: "short", artifacts: [], moment: { id: "m3", start: 900, end: 930 } } }), 409, "task_superseded");
    expect(stale.message).toBe("Attempt 1 of task short-01 is no longer current; stop it.");
    // On the new attempt's path, as the new attempt: not its token.
    const forged = { type: "failed", attempt: 2, seq: 99, retryable: false, error: { code: "vod_deleted", message: "forged" } };
    await expectError(await postEvent(pathOf(second.callback.url), job.short1.callback.token, forged), 401, "unauthorized");
    // On its own path, claiming to be the new attempt: its token reports for attempt 1 only.
    await expectError(await postEvent(pathOf(job.short1.callback.url), job.short1.callback.token, forged), 403, "outside_task_scope");
    expect(footprint(await taskOf(job.id, "short-01"))).toEqual(before);

    // Workers AI: the old attempt's endpoint is closed, the new one's open.
    const ai = new WorkersAiStandIn().replyNext(chatOutput("A title"));
    const closed = await expectError(await chat(ai, pathOf(job.short1.ai!.url), job.short1.ai!.token), 409, "task_superseded");
    expect(closed.message).toBe("Attempt 1 of task short-01 is no longer current; stop it.");
    await expectError(await chat(ai, pathOf(second.ai!.url), job.short1.ai!.token), 401, "unauthorized");
    expect(ai.calls).toEqual([]);
    expect((await chat(ai, pathOf(second.ai!.url), second.ai!.token)).status).toBe(200);
    expect(ai.calls).toHaveLength(1);
  });
});

describe("Workers AI on a task attempt's path", () => {
  it("answers the current attempt of a running job; refuses another task's token, a task the job does not have, and a finished job", async () => {
    const job = await renderingJob();
    const ai = new WorkersAiStandIn().replyNext(chatOutput("A title"));
    expect(pathOf(job.short1.ai!.url)).toBe(`/internal/jobs/${job.id}/tasks/short-01/attempts/1/ai/v1`);
    expect(job.short1.ai!.token).toBe(job.short1.callback.token);
    expect((await chat(ai, pathOf(job.short1.ai!.url), job.short1.ai!.token)).status).toBe(200);
    expect(ai.calls).toHaveLength(1);

    for (const token of [job.moment1.ai!.token, await jobToken(job.id)]) {
      const err = await expectError(await chat(ai, pathOf(job.short1.ai!.url), token), 401, "unauthorized");
      expect(err.message).toBe("Task calls need Authorization: Bearer <the token of this task attempt>, as given in the task's ai endpoint.");
    }
    const ghost = `/internal/jobs/${job.id}/tasks/short-09/attempts/1/ai/v1`;
    const missing = await expectError(await chat(ai, ghost, await rendererTaskToken(KEY(), job.id, "short-09", 1)), 404, "task_not_found");
    expect(missing.message).toBe("This job has no task short-09.");
    expect(ai.calls).toHaveLength(1);
  });

  it("a completed job's tasks run no model (409 job_not_running with the status)", async () => {
    const { render } = await startedJob(acct.api_key);
    await completeJob(render);
    const short = await waitForStart(render.job_id, "short-01");
    const ai = new WorkersAiStandIn();
    for (const task of [render, short]) {
      const err = await expectError(await chat(ai, pathOf(task.ai!.url), task.ai!.token), 409, "job_not_running");
      expect(err).toMatchObject({ message: "Workers AI is used only while the job is running; it is completed.", status: "completed" });
    }
    expect(ai.calls).toEqual([]);
  });
});

describe("rollout: the job's token on the job-wide paths serves only attempts claimed by the previous Worker", () => {
  it("events: refused for an attempt with its own token; accepted for one claimed before, for its own task; a retried one is told to stop", async () => {
    const job = await renderingJob();
    const token = await jobToken(job.id);
    const legacyPath = (taskId: string) => `/internal/jobs/${job.id}/tasks/${taskId}/events`;
    const before = footprint(await taskOf(job.id, "short-01"));
    const refused = await expectError(await postEvent(legacyPath("short-01"), token, { type: "started", attempt: 1, seq: 70 }), 403, "outside_task_scope");
    expect(refused.message).toBe("Task short-01 reports on its own URL and token (given in its callback), not with the job's token.");
    expect(footprint(await taskOf(job.id, "short-01"))).toEqual(before);

    // short 1's attempt as the previous Worker claimed it: it reports with the job's token, as it was given.
    await claimedByPreviousWorker(job.id, "short-01");
    expect(await (await postEvent(legacyPath("short-01"), token, { type: "started", attempt: 1, seq: 71 })).json()).toMatchObject({ accepted: true });
    expect(await (await postEvent(legacyPath("short-01"), token, { type: "progress", attempt: 1, seq: 72, stage: "rendering_shorts", fraction: 0.4 })).json()).toMatchObject({ accepted: true });
    expect((await taskOf(job.id, "short-01")).fraction).toBe(0.4);
    // ...but not for the reel moment, whose attempt has its own token.
    await expectError(await postEvent(legacyPath("reel-balanced-m01"), token, { type: "failed", attempt: 1, seq: 73, retryable: false, error: { code: "vod_deleted", message: "forged" } }), 403, "outside_task_scope");
    expect((await record(acct.api_key, job.id)).status).toBe("running");

    // The legacy attempt fails and its retry is claimed by this Worker: the old renderer's late report is told to stop,
    // and the job's token cannot speak for the new attempt.
    expect(await (await postEvent(legacyPath("short-01"), token, { type: "failed", attempt: 1, seq: 74, retryable: true, error: { code: "render_failed", message: "ffmpeg exited 1" } })).json()).toMatchObject({ accepted: true });
    const second = await waitForStart(job.id, "short-01", 2);
    await expectError(await postEvent(legacyPath("short-01"), token, { type: "progress", attempt: 1, seq: 75, stage: "rendering_shorts", fraction: 0.9 }), 409, "task_superseded");
    await expectError(await postEvent(legacyPath("short-01"), token, { type: "started", attempt: 2, seq: 76 }), 403, "outside_task_scope");
    await completeRenderTask(second);
  });

  it("Workers AI: refused while every running attempt has its own token; served while one claimed before runs, and not after it ended", async () => {
    const job = await renderingJob();
    const token = await jobToken(job.id);
    const legacyBase = `/internal/jobs/${job.id}/ai/v1`;
    const ai = new WorkersAiStandIn().replyNext(chatOutput("A title"));
    const refused = await expectError(await chat(ai, legacyBase, token), 403, "outside_task_scope");
    expect(refused.message).toBe("No task of this job that still uses the job-wide token is running: each task calls Workers AI on its own URL and token, given in its ai endpoint.");
    expect(ai.calls).toEqual([]);

    await claimedByPreviousWorker(job.id, "short-01");
    expect((await chat(ai, legacyBase, token)).status).toBe(200);
    expect(ai.calls).toHaveLength(1);
    await completeRenderTask(job.short1);
    await expectError(await chat(ai, legacyBase, token), 403, "outside_task_scope");
    expect(ai.calls).toHaveLength(1);
  });
});
