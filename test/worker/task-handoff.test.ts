import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { RenderTaskRequest, type JobPlan } from "../../common/contract/job-plan";
import { TASK_CONTRACT_VERSION } from "../../common/contract/task-contract";
import { currentAssignment, moveAssignment, onActivityExpiry, onContainerStopped, assign, type AssignmentStorage, type OwnerOf } from "../../worker/src/durable/container-assignment";
import type { TaskRecord } from "../../worker/src/orchestration/task-book";
import { createAccount, minimalJob, type TestAccount } from "./helpers";
import { eventually, jobState, record, startedJob } from "./job-steps";
import { completeRenderTask, FIRST_TASKS, storedFiles, taskEvent, taskStarts, testPlan, waitForStart } from "./task-flow";

/**
 * A re-cut's one short on its analysis task's instance (worker/src/orchestration/task-handoff.ts): the job's
 * object answers the analysis' `completed` event with the short's task request, records the short as running on
 * that instance (its own attempt, callback, storage scope and watchdog), and keeps the instance; a renderer that
 * ignores the answer costs a watchdog retry through the queue. Real routes, queue, Durable Objects, D1 and R2; the
 * renderer's side is played by the test (the renderer double at RENDER_URL is the local pool's one member).
 */

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

const taskOf = async (jobId: string, id: string): Promise<TaskRecord> => (await jobState(jobId).tasks()).find((t) => t.id === id)!;

/** A re-cut's plan as a reusing analysis reports it: one short (a manual highlight), no reel, built from `reusedFrom`'s analysis. */
function recutPlan(jobId: string, reusedFrom: string | null = "job_01EARLIERANALYSIS0000000000"): JobPlan {
  const plan = testPlan(jobId);
  const short = plan.tasks.find((t) => t.kind === "short")!;
  return {
    ...plan,
    moments: plan.moments.filter((m) => m.id === "m3"),
    reels: [],
    tasks: [{ ...short, snap: false }],
    analysis: { reused_from: reusedFrom, stored: null },
  };
}

/** A started re-cut job whose analysis reports its plan; returns the analysis' request and the answer's body. */
async function completedAnalysis(plan: (jobId: string) => JobPlan) {
  const { ack, render } = await startedJob(acct.api_key, minimalJob({ num_shorts: 1, compilation_enabled: false }));
  await taskEvent(render, { type: "started" });
  const answer = await taskEvent(render, { type: "completed", result: { kind: "analyse", plan: plan(ack.id) } });
  return { jobId: ack.id, analysis: render, answer };
}

const WATCHDOG_MS = 600_000;

/** As if the task's renderer had said nothing for longer than WATCHDOG_SECONDS. */
function silence(jobId: string, taskId: string): Promise<void> {
  return runInDurableObject(jobState(jobId), async (_instance, state) => {
    const book = (await state.storage.get<TaskRecord[]>("tasks"))!;
    book.find((t) => t.id === taskId)!.heard_at = Date.now() - WATCHDOG_MS - 1000;
    await state.storage.put("tasks", book);
  });
}

describe("a re-cut's one short handed to its analysis' instance", { timeout: 90_000 }, () => {
  it("the analysis' completion is answered with the short's request; the short runs on that instance to the job's end, never queued", async () => {
    const { jobId, analysis, answer } = await completedAnalysis((id) => recutPlan(id));
    expect(answer).toMatchObject({ accepted: true, status: "running" });
    const next = RenderTaskRequest.parse(answer.next_task);
    // The request the queue consumer would have sent for the short's first attempt: its own callback, storage and token.
    expect(next).toMatchObject({ contract: TASK_CONTRACT_VERSION, job_id: jobId, task: { id: "short-01", kind: "short", attempt: 1 }, reuse: null });
    expect(next.plan).toEqual(recutPlan(jobId));
    expect(next.callback.url).toMatch(new RegExp(`/internal/jobs/${jobId}/tasks/short-01/attempts/1/events$`));
    expect(next.upload).toMatchObject({ mode: "worker", url: expect.stringMatching(new RegExp(`/internal/jobs/${jobId}/tasks/short-01/attempts/1/artifacts$`)) });
    expect(next.upload).not.toMatchObject({ token: (analysis.upload as { token: string }).token });

    // Recorded as dispatched to the analysis' instance: running, attempt 1, heard now (the watchdog measures from it).
    const analysisRecord = await taskOf(jobId, "analyse");
    expect(analysisRecord).toMatchObject({ state: "done", contract: TASK_CONTRACT_VERSION });
    expect(await taskOf(jobId, "short-01")).toMatchObject({ state: "running", attempt: 1, failures: 0, instance: analysisRecord.instance, scoped_storage: true, contract: TASK_CONTRACT_VERSION, seq: 0 });
    expect(analysisRecord.instance).toBe(env.RENDER_URL);
    // The instance's activity check asks about the short now.
    expect(await jobState(jobId).isTaskRunning("short-01", 1)).toBe(true);
    expect(await jobState(jobId).isTaskRunning("analyse", 1)).toBe(false);

    // The renderer runs it with its own callback and upload target: files stored, the job completes.
    await completeRenderTask(next);
    const { files, manifest } = await storedFiles(jobId);
    expect(files.map((f) => f.ref.name).sort()).toEqual(["manifest.json", "metadata.json", "short-01.jpg", "short-01.mp4", "short-01.srt", "short-01.transcript.json"]);
    expect(manifest.shorts_count).toBe(1);
    // Nothing went through the queue but the analysis: the renderer pool was asked to start one task.
    expect((await taskStarts(jobId)).map((s) => s.task.id)).toEqual(["analyse"]);
  });

  it("a renderer that ignores the answer: the watchdog gives the short's attempt up as lost, it runs again through the queue, and the job completes", async () => {
    const { jobId, answer } = await completedAnalysis((id) => recutPlan(id));
    expect(answer.next_task).toBeDefined();
    // Nothing is heard from attempt 1 (an older renderer, a lost answer, a crash right after the analysis).
    await silence(jobId, "short-01");
    expect(await runDurableObjectAlarm(jobState(jobId))).toBe(true);
    const retry = await waitForStart(jobId, "short-01", 2);
    expect(await taskOf(jobId, "short-01")).toMatchObject({ attempt: 2, failures: 1, last_error: { code: "renderer_stalled" } });
    expect(retry.upload).toMatchObject({ url: expect.stringMatching(/\/tasks\/short-01\/attempts\/2\/artifacts$/) });
    // The handed-off attempt's late report is refused: it was superseded.
    const stale = RenderTaskRequest.parse(answer.next_task);
    await taskEvent(stale, { type: "started" }, 409);

    await completeRenderTask(retry);
    expect((await record(acct.api_key, jobId)).status).toBe("completed");
    expect((await taskStarts(jobId)).map((s) => `${s.task.id}#${s.task.attempt}`)).toEqual(["analyse#1", "short-01#2"]);
  });

  it("a repeated completion (the renderer did not get the answer) is a duplicate answered with the same request, until the short has reported", async () => {
    const { analysis, answer } = await completedAnalysis((id) => recutPlan(id));
    const first = RenderTaskRequest.parse(answer.next_task);
    const repeat = () => taskEvent(analysis, { type: "completed", result: { kind: "analyse", plan: recutPlan(analysis.job_id) } });
    const again = await repeat();
    expect(again).toMatchObject({ accepted: false, reason: "duplicate" });
    // The same attempt, callback and storage target: a renderer that got both runs it once (task-registry.ts).
    expect(RenderTaskRequest.parse(again.next_task)).toMatchObject({ task: first.task, callback: first.callback, upload: first.upload });
    expect(await taskOf(analysis.job_id, "short-01")).toMatchObject({ state: "running", attempt: 1 });
    // Once the short was heard from, its renderer had the request: nothing is handed over again.
    await taskEvent(first, { type: "started" });
    const late = await repeat();
    expect(late).toMatchObject({ accepted: false, reason: "duplicate" });
    expect(late.next_task).toBeUndefined();
  });

  describe("every other job is unchanged: its render tasks go through the queue", () => {
    it("a plan of several outputs (a reel and a short)", async () => {
      const { jobId, answer } = await completedAnalysis((id) => ({ ...testPlan(id), analysis: { reused_from: "job_01EARLIERANALYSIS0000000000", stored: null } }));
      expect(answer).toMatchObject({ accepted: true });
      expect(answer.next_task).toBeUndefined();
      for (const id of FIRST_TASKS) expect((await waitForStart(jobId, id)).task.attempt).toBe(1);
    });

    it("one short from an analysis of the whole VOD (no reuse)", async () => {
      const { jobId, answer } = await completedAnalysis((id) => recutPlan(id, null));
      expect(answer.next_task).toBeUndefined();
      await completeRenderTask(await waitForStart(jobId, "short-01"));
      expect((await record(acct.api_key, jobId)).status).toBe("completed");
    });

    it("an analysis attempt sent as an older task contract (its renderer does not read the answer)", async () => {
      const { ack, render } = await startedJob(acct.api_key, minimalJob({ num_shorts: 1, compilation_enabled: false }));
      // As a Worker before contract 3 claimed it (the field did not exist then).
      await runInDurableObject(jobState(ack.id), async (_instance, state) => {
        const book = (await state.storage.get<TaskRecord[]>("tasks"))!;
        delete book.find((t) => t.id === "analyse")!.contract;
        await state.storage.put("tasks", book);
      });
      const answer = await taskEvent(render, { type: "completed", result: { kind: "analyse", plan: recutPlan(ack.id) } });
      expect(answer.next_task).toBeUndefined();
      await completeRenderTask(await waitForStart(ack.id, "short-01"));
      expect((await record(acct.api_key, ack.id)).status).toBe("completed");
    });
  });
});

/** Runs `fn` on a fresh object's storage, standing in for one container instance's own storage (container-lifecycle.test.ts). */
async function withInstanceStorage<T>(fn: (storage: AssignmentStorage) => Promise<T>): Promise<T> {
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`container-${crypto.randomUUID()}`));
  return runInDurableObject(stub, (_instance, state) => fn(state.storage));
}
const jobs: OwnerOf = (jobId) => jobState(jobId);

describe("the analysis' container instance handed the short (container-assignment.ts)", { timeout: 90_000 }, () => {
  it("its assignment moves to the short: the activity check keeps it for the short, and its stop reports the short lost, which runs again", async () => {
    const { jobId } = await completedAnalysis((id) => recutPlan(id));
    const analysis = { job_id: jobId, task_id: "analyse", attempt: 1 };
    const short = { job_id: jobId, task_id: "short-01", attempt: 1 };
    await withInstanceStorage(async (storage) => {
      // Left on the analysis (done), the instance would be stopped under the short at its next activity check:
      // why the job's object moves the assignment when it hands the short over.
      await assign(storage, analysis);
      expect(await onActivityExpiry(storage, jobs)).toBe("stop");
    });
    await withInstanceStorage(async (storage) => {
      await assign(storage, analysis);
      expect(await moveAssignment(storage, analysis, short)).toBe(true);
      expect(await currentAssignment(storage)).toEqual(short);
      // The short runs there: the instance is kept.
      expect(await onActivityExpiry(storage, jobs)).toBe("renew");
      // A move from an assignment the instance no longer holds takes nothing over.
      expect(await moveAssignment(storage, analysis, { ...short, attempt: 9 })).toBe(false);
      expect(await currentAssignment(storage)).toEqual(short);
      // The container dies under the short: the notice names the short, which runs again on an instance of its own.
      expect(await onContainerStopped(storage, jobs)).toBe("told");
    });
    await waitForStart(jobId, "short-01", 2);
    await eventually(async () => (await taskOf(jobId, "short-01")).state === "running", 15_000, "the short's attempt 2 to run");
    expect((await taskOf(jobId, "short-01")).last_error?.code).toBe("renderer_stalled");
    await withInstanceStorage(async (storage) => {
      // An instance whose task was already forgotten (stopped, reported) takes nothing over.
      expect(await moveAssignment(storage, analysis, short)).toBe(false);
      expect(await currentAssignment(storage)).toBeNull();
    });
  });
});
