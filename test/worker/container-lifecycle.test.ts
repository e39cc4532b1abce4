import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { TaskRecord } from "../../worker/src/orchestration/task-book";
import {
  assign,
  currentAssignment,
  LOST_REASON,
  onActivityExpiry,
  onContainerStopped,
  unassign,
  type Assignment,
  type AssignmentStorage,
  type OwnerOf,
} from "../../worker/src/durable/container-assignment";
import { createAccount, post, type TestAccount } from "./helpers";
import { eventually, jobState, record, startedJob } from "./job-steps";
import { plannedJob, taskEvent, taskStarts, testPlan, waitForStart } from "./task-flow";

/**
 * A task's container instance lives while the job's object says its attempt runs, and reports the attempt lost
 * when it stops with the task still assigned. The Container class cannot be constructed without a container
 * runtime (its constructor refuses a Durable Object without ctx.container), so its decisions
 * (container-assignment.ts) run here against real Durable Object storage and the real JobState namespace.
 */

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

const RENDER_TASKS = ["reel-balanced-m01", "reel-balanced-m02", "short-01"];
const jobs: OwnerOf = (jobId) => jobState(jobId);
const taskOf = async (jobId: string, id: string): Promise<TaskRecord> => (await jobState(jobId).tasks()).find((t) => t.id === id)!;

/** Waits until the renderer double took every render task and the job's object heard so (state "running"). */
async function renderTasksRunning(jobId: string): Promise<void> {
  await Promise.all(RENDER_TASKS.map((id) => waitForStart(jobId, id)));
  await eventually(async () => (await jobState(jobId).tasks()).filter((t) => RENDER_TASKS.includes(t.id) && t.state === "running").length === RENDER_TASKS.length, 15_000, "every render task to run");
}

/** Runs `fn` on a fresh object's storage, standing in for one container instance's own storage. */
async function withInstanceStorage<T>(fn: (storage: AssignmentStorage) => Promise<T>): Promise<T> {
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`container-${crypto.randomUUID()}`));
  return runInDurableObject(stub, (_instance, state) => fn(state.storage));
}

describe("JobState.isTaskRunning", { timeout: 60_000 }, () => {
  it("is true only for the attempt that runs; false for another attempt, an unknown task, a finished task", async () => {
    const { ack, render } = await startedJob(acct.api_key);
    const job = jobState(ack.id);
    const id = render.task.id;
    expect(render.task.attempt).toBe(1);
    expect(await job.isTaskRunning(id, 1)).toBe(true);
    expect(await job.isTaskRunning(id, 2)).toBe(false);
    expect(await job.isTaskRunning(id, 0)).toBe(false);
    expect(await job.isTaskRunning("short-01", 1)).toBe(false);

    await taskEvent(render, { type: "completed", result: { kind: "analyse", plan: testPlan(ack.id) } });
    expect((await taskOf(ack.id, id)).state).toBe("done");
    expect(await job.isTaskRunning(id, 1)).toBe(false);
  });

  it("is false for every task once the job is cancelled", async () => {
    const { ack } = await plannedJob(acct.api_key);
    await renderTasksRunning(ack.id);
    expect(await jobState(ack.id).isTaskRunning("short-01", 1)).toBe(true);
    expect((await post(acct.api_key, `/jobs/${ack.id}/cancel`)).status).toBe(200);
    for (const id of RENDER_TASKS) expect(await jobState(ack.id).isTaskRunning(id, 1)).toBe(false);
  });
});

describe("JobState.taskLost", { timeout: 60_000 }, () => {
  it("retries the current attempt's task alone (attempt 2 queued and started); the others and the job keep running", async () => {
    const { ack } = await plannedJob(acct.api_key);
    await renderTasksRunning(ack.id);
    await jobState(ack.id).taskLost("short-01", 1, "container gone");

    const retry = await waitForStart(ack.id, "short-01", 2);
    expect(retry.task.attempt).toBe(2);
    expect((await taskOf(ack.id, "short-01")).last_error).toEqual({ code: "renderer_stalled", message: "container gone" });
    for (const id of ["reel-balanced-m01", "reel-balanced-m02"]) {
      expect(await taskOf(ack.id, id)).toMatchObject({ state: "running", attempt: 1, failures: 0 });
      expect((await taskStarts(ack.id)).filter((s) => s.task.id === id)).toHaveLength(1);
    }
    expect((await record(acct.api_key, ack.id)).status).toBe("running");
  });

  it("ignores a stale attempt and a finished task", async () => {
    const { ack, render } = await plannedJob(acct.api_key);
    await renderTasksRunning(ack.id);
    await jobState(ack.id).taskLost("short-01", 1, "first loss");
    await waitForStart(ack.id, "short-01", 2);
    await eventually(async () => (await taskOf(ack.id, "short-01")).state === "running", 15_000, "attempt 2 to run");
    const before = await jobState(ack.id).tasks();

    // The first attempt's instance reports again (its stop raced the retry), and the done analysis is "lost".
    await jobState(ack.id).taskLost("short-01", 1, "late report of the first attempt");
    await jobState(ack.id).taskLost(render.task.id, 1, "analysis instance stopped after its result");
    expect(await jobState(ack.id).tasks()).toEqual(before);
    expect((await taskOf(ack.id, "short-01")).last_error?.message).toBe("first loss");
    expect((await record(acct.api_key, ack.id)).status).toBe("running");
  });
});

describe("a task's container instance (container-assignment.ts)", { timeout: 60_000 }, () => {
  it("when its activity timer runs out: renews while the job runs its attempt, otherwise forgets the task and stops", async () => {
    const { ack, render } = await startedJob(acct.api_key);
    const running: Assignment = { job_id: ack.id, task_id: render.task.id, attempt: 1 };

    await withInstanceStorage(async (storage) => {
      expect(await onActivityExpiry(storage, jobs)).toBe("stop");
      await assign(storage, running);
      expect(await onActivityExpiry(storage, jobs)).toBe("renew");
      expect(await currentAssignment(storage)).toEqual(running);
    });
    // Another attempt of the same task (a superseded instance) stops.
    await withInstanceStorage(async (storage) => {
      await assign(storage, { ...running, attempt: 2 });
      expect(await onActivityExpiry(storage, jobs)).toBe("stop");
      expect(await currentAssignment(storage)).toBeNull();
    });
    // Once the task has its result, its instance stops too.
    await taskEvent(render, { type: "completed", result: { kind: "analyse", plan: testPlan(ack.id) } });
    await withInstanceStorage(async (storage) => {
      await assign(storage, running);
      expect(await onActivityExpiry(storage, jobs)).toBe("stop");
      expect(await currentAssignment(storage)).toBeNull();
    });
  });

  it("stopped with its task still assigned: tells the job the attempt was lost, and the job retries it", async () => {
    const { ack } = await plannedJob(acct.api_key);
    await renderTasksRunning(ack.id);
    await withInstanceStorage(async (storage) => {
      await assign(storage, { job_id: ack.id, task_id: "short-01", attempt: 1 });
      expect(await onContainerStopped(storage, jobs)).toBe("told");
      expect(await currentAssignment(storage)).toBeNull();
      // A second stop notice has nothing left to report.
      expect(await onContainerStopped(storage, jobs)).toBe("none");
    });
    await waitForStart(ack.id, "short-01", 2);
    expect((await taskOf(ack.id, "short-01")).last_error).toEqual({ code: "renderer_stalled", message: LOST_REASON });
  });

  it("stopped while the job's object cannot be reached: keeps the notice until a later try gets through, then the job retries the task", async () => {
    const { ack } = await plannedJob(acct.api_key);
    await renderTasksRunning(ack.id);
    const assignment: Assignment = { job_id: ack.id, task_id: "short-01", attempt: 1 };
    // The call to the job's object fails the way an RPC does when the object is reset by a deploy.
    let calls = 0;
    const unreachable: OwnerOf = () => ({
      isTaskRunning: async () => false,
      taskLost: async () => {
        calls += 1;
        throw new Error("Durable Object reset because its code was updated.");
      },
    });
    await withInstanceStorage(async (storage) => {
      await assign(storage, assignment);
      expect(await onContainerStopped(storage, unreachable)).toBe("retry");
      expect(calls).toBe(1);
      // Nothing reached the job, and the notice is still there to be sent.
      expect(await currentAssignment(storage)).toEqual(assignment);
      expect(await taskOf(ack.id, "short-01")).toMatchObject({ state: "running", attempt: 1, failures: 0 });
      // The alarm's next try reaches the job's object.
      expect(await onContainerStopped(storage, jobs)).toBe("told");
      expect(await currentAssignment(storage)).toBeNull();
    });
    await waitForStart(ack.id, "short-01", 2);
    expect((await taskOf(ack.id, "short-01")).last_error).toEqual({ code: "renderer_stalled", message: LOST_REASON });
  });

  it("stopped after its task ended (finishTask forgot it): reports nothing", async () => {
    const { ack } = await plannedJob(acct.api_key);
    await renderTasksRunning(ack.id);
    await withInstanceStorage(async (storage) => {
      await assign(storage, { job_id: ack.id, task_id: "short-01", attempt: 1 });
      await unassign(storage);
      expect(await onContainerStopped(storage, jobs)).toBe("none");
    });
    expect(await taskOf(ack.id, "short-01")).toMatchObject({ state: "running", attempt: 1, failures: 0, last_error: null });
  });
});
