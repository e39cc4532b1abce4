import { beforeAll, describe, expect, it } from "vitest";
import { RenderTaskRequest } from "../../common/contract/job-plan";
import { newTask, SLOT_OFFER_MS, takeNextWaiting, type TaskRecord } from "../../worker/src/orchestration/task-book";
import { createAccount, minimalJob, type TestAccount } from "./helpers";
import { eventually, jobState, record, rendererAnswers, rendererLog, startedJob } from "./job-steps";
import { completeRenderTask, FIRST_TASKS, renderTaskOutputs, taskEvent, testPlan, waitForStart } from "./task-flow";

/**
 * When a task ends, its renderer slot goes at once to the job's task that has waited longest for one (issue 23:
 * with one slot, each task used to wait out a backoff growing to 2 minutes while the slot stood idle).
 */

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

const waiting = (id: string, since: number): TaskRecord => ({ ...newTask(id, "short", id, 10), waiting_since: since });

describe("takeNextWaiting (task-book.ts)", () => {
  it("hands the slot to the longest-waiting queued task, a different one per ending, and none to tasks not waiting", () => {
    const now = 1_000_000;
    const book = [waiting("b", now - 5_000), waiting("a", now - 9_000), { ...newTask("fresh", "short", "fresh", 10) }, { ...waiting("running", now - 20_000), state: "running" as const }];
    expect(takeNextWaiting(book, now)?.id).toBe("a");
    expect(takeNextWaiting(book, now)?.id).toBe("b");
    // Both were offered a slot just now; the task that never waited has a message of its own on the way.
    expect(takeNextWaiting(book, now + 1)).toBeNull();
    // An offer that led nowhere (the start met a busy renderer again) does not keep the task out for good.
    expect(takeNextWaiting(book, now + SLOT_OFFER_MS)?.id).toBe("a");
  });
});

describe("a task that completes hands its slot over", { timeout: 90_000 }, () => {
  it("to the job's longest-waiting task, at once, and the job completes", async () => {
    const { ack, render } = await startedJob(acct.api_key, minimalJob({ num_shorts: 1 }));
    // One slot: the first render task to arrive is taken, every later start is refused as busy.
    await rendererAnswers(ack.id, 503, [202]);
    await taskEvent(render, { type: "started" });
    await taskEvent(render, { type: "completed", result: { kind: "analyse", plan: testPlan(ack.id) } });
    const book = await eventually(async () => {
      const tasks = await jobState(ack.id).tasks();
      const first = tasks.filter((t) => FIRST_TASKS.includes(t.id));
      return first.filter((t) => t.state === "running").length === 1 && first.filter((t) => t.state === "queued" && t.waiting_since).length === 2 && tasks;
    }, 20_000, "one render task running, two waiting for the slot");
    const running = book.find((t) => FIRST_TASKS.includes(t.id) && t.state === "running")!;
    const [longest, next] = book.filter((t) => t.state === "queued" && t.waiting_since).sort((a, b) => a.waiting_since! - b.waiting_since!);

    const start = RenderTaskRequest.parse((await rendererLog(ack.id)).starts.find((s) => (s as RenderTaskRequest).task.id === running.id));
    await completeRenderTask(start);
    // Decided while the completion was applied: the longest-waiting task gets the slot, the other keeps waiting.
    const after = await jobState(ack.id).tasks();
    expect(after.find((t) => t.id === longest!.id)!.offered_at).toEqual(expect.any(Number));
    expect(after.find((t) => t.id === next!.id)!.offered_at ?? null).toBeNull();

    // The renderer takes tasks again: every task runs and the job completes.
    await rendererAnswers(ack.id, 202);
    for (const id of [longest!.id, next!.id]) {
      await eventually(async () => (await jobState(ack.id).tasks()).find((t) => t.id === id)?.state === "running", 20_000, `${id} to run`);
      await completeRenderTask(await waitForStart(ack.id, id));
    }
    await eventually(async () => (await jobState(ack.id).tasks()).find((t) => t.id === "reel-balanced-join")?.state === "running", 20_000, "the join to run");
    const join = await waitForStart(ack.id, "reel-balanced-join");
    await completeRenderTask(join, await renderTaskOutputs(join));
    expect((await record(acct.api_key, ack.id)).status).toBe("completed");
  });
});
