import { createExecutionContext, createScheduledController, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { handleScheduled } from "../../worker/src/cron/scheduled";
import type { JobState } from "../../worker/src/orchestration/job-state";
import type { TaskRecord } from "../../worker/src/orchestration/task-book";
import type { Env } from "../../worker/src/env";
import { accountCredits, createAccount, minimalJob, type TestAccount } from "./helpers";
import { createJob, deliver, eventually, jobState, record, rendererAnswers, rendererLog, startedJob, webhookBox } from "./job-steps";
import { completeRenderTask, FIRST_TASKS, plannedJob, postTaskEvent, taskEvent, waitForStart } from "./task-flow";

/**
 * The task watchdog (worker/src/orchestration/watchdog.ts), run by the job's alarm and by the hourly cron: a
 * running task silent for WATCHDOG_SECONDS is lost and runs again, up to its budget; then the job fails.
 */

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

/** WATCHDOG_SECONDS of the test Worker (the default). */
const LIMIT_MS = 600_000;

/** As if a task's renderer had been silent for `ms` (past WATCHDOG_SECONDS by default): its last report moved back. */
function silence(jobId: string, taskId: string, ms = LIMIT_MS + 1000): Promise<void> {
  return runInDurableObject(jobState(jobId), async (_instance, state) => {
    const book = (await state.storage.get<TaskRecord[]>("tasks"))!;
    book.find((t) => t.id === taskId)!.heard_at = Date.now() - ms;
    await state.storage.put("tasks", book);
  });
}

const taskOf = async (jobId: string, id: string): Promise<TaskRecord> => (await jobState(jobId).tasks()).find((t) => t.id === id)!;
const alarmOf = (jobId: string) => runInDurableObject(jobState(jobId), (_i, state) => state.storage.getAlarm());
const deadlineOf = (jobId: string) => runInDurableObject(jobState(jobId), (_i, state) => state.storage.get<number>("watchdog_at"));

// Retries travel through the real queue (about a second per hop, longer on a busy machine).
describe("task watchdog (the job's alarm)", { timeout: 60_000 }, () => {
  it("gives up a silent task's attempt as lost and runs it again; the job keeps running", async () => {
    const { ack, render } = await startedJob(acct.api_key);
    await taskEvent(render, { type: "started" });
    await taskEvent(render, { type: "progress", stage: "analysing", fraction: 0.4 });
    await silence(ack.id, "analyse");
    expect(await runDurableObjectAlarm(jobState(ack.id))).toBe(true);

    const retry = await waitForStart(ack.id, "analyse", 2);
    expect(await taskOf(ack.id, "analyse")).toMatchObject({ attempt: 2, failures: 1, last_error: { code: "renderer_stalled", message: "the renderer stopped reporting for more than 600 seconds" } });
    expect(await record(acct.api_key, ack.id)).toMatchObject({ status: "running", refunded_credits: 0 });
    await taskEvent(retry, { type: "started" });
    expect((await taskOf(ack.id, "analyse")).state).toBe("running");
  });

  it("a late report of the lost attempt, after the retry started, is refused (409) and changes nothing", async () => {
    const { ack, render } = await startedJob(acct.api_key);
    await taskEvent(render, { type: "started" });
    await silence(ack.id, "analyse");
    await runDurableObjectAlarm(jobState(ack.id));
    const retry = await waitForStart(ack.id, "analyse", 2);
    await taskEvent(retry, { type: "progress", stage: "analysing", fraction: 0.2 });

    // The first attempt was only slow: its next report is stale, and its renderer stops on the answer.
    const late = await postTaskEvent(render, { type: "progress", stage: "analysing", fraction: 0.9 });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ error: { code: "task_superseded" } });
    expect(await taskOf(ack.id, "analyse")).toMatchObject({ attempt: 2, fraction: 0.2 });
    expect((await record(acct.api_key, ack.id)).progress).toBe(4);
  });

  it("a renderer that took the task and never reported (a lost container) is given up the same way", async () => {
    const { ack } = await startedJob(acct.api_key);
    expect(await taskOf(ack.id, "analyse")).toMatchObject({ state: "running", seq: 0 });
    await silence(ack.id, "analyse");
    await runDurableObjectAlarm(jobState(ack.id));
    await waitForStart(ack.id, "analyse", 2);
    expect((await record(acct.api_key, ack.id)).status).toBe("running");
  });

  it("a claim the queue consumer never confirmed goes back to the queue, its attempt not used up", async () => {
    const { ack, message } = await createJob(acct.api_key);
    await rendererAnswers(ack.id, 202);
    // The consumer claimed the task and died before it reached a renderer.
    expect(await jobState(ack.id).claimTask("analyse")).toMatchObject({ ok: true, attempt: 1 });
    await silence(ack.id, "analyse", 3 * 60_000);
    await runDurableObjectAlarm(jobState(ack.id));
    // Sent again through the real queue as attempt 1; the original message, delivered late, starts nothing twice.
    await waitForStart(ack.id, "analyse", 1);
    await deliver(message);
    expect((await rendererLog(ack.id)).starts).toHaveLength(1);
    expect(await taskOf(ack.id, "analyse")).toMatchObject({ attempt: 1, failures: 0 });
  });

  it("a job with every task done but one silent: only that task runs again, and the job completes", async () => {
    const { ack } = await plannedJob(acct.api_key);
    const starts = await Promise.all(FIRST_TASKS.map((id) => waitForStart(ack.id, id)));
    for (const s of starts.filter((s) => s.task.id !== "short-01")) await completeRenderTask(s);
    await completeRenderTask(await waitForStart(ack.id, "reel-balanced-join"));
    const short = starts.find((s) => s.task.id === "short-01")!;
    await taskEvent(short, { type: "started" });
    await silence(ack.id, "short-01");
    await runDurableObjectAlarm(jobState(ack.id));

    const retry = await waitForStart(ack.id, "short-01", 2);
    const book = await jobState(ack.id).tasks();
    expect(book.filter((t) => t.id !== "short-01").map((t) => [t.id, t.state, t.attempt])).toEqual(book.filter((t) => t.id !== "short-01").map((t) => [t.id, "done", 1]));
    await completeRenderTask(retry);
    expect(await record(acct.api_key, ack.id)).toMatchObject({ status: "completed", refunded_credits: 0 });
  });

  it("a task silent on every attempt fails the job: renderer_stalled, every credit back, job.failed; a late report gets 409", async () => {
    const before = await accountCredits(acct.account_id);
    const box = await webhookBox({ secret: acct.webhook_signing_secret });
    const { ack, render } = await startedJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    let current = render;
    for (let attempt = 1; attempt <= 3; attempt++) {
      if (attempt > 1) current = await waitForStart(ack.id, "analyse", attempt);
      await taskEvent(current, { type: "started" });
      await silence(ack.id, "analyse");
      await runDurableObjectAlarm(jobState(ack.id));
    }
    const rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({ status: "failed", refunded_credits: ack.credit_cost, error: { code: "renderer_stalled" } });
    expect(rec.error!.message).toBe(
      "Rendering the analysis of the VOD failed 3 times (last: the renderer stopped reporting for more than 600 seconds), so the job was stopped. All credits were refunded; please submit it again.",
    );
    expect(await accountCredits(acct.account_id)).toBe(before);
    const failed = await eventually(async () => (await box.received()).find((d) => d.body.includes('"job.failed"')));
    expect(JSON.parse(failed.body).payload).toMatchObject({ error_code: "renderer_stalled", refunded_credits: ack.credit_cost });
    // The last attempt's renderer, maybe only slow, is told to stop by the answer to its next report.
    const late = await postTaskEvent(current, { type: "progress", stage: "analysing", fraction: 0.5 });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ error: { code: "job_settled" } });
    expect(await deadlineOf(ack.id)).toBeUndefined();
  });

  it("leaves a task alone whose renderer keeps reporting", async () => {
    const { ack, render } = await startedJob(acct.api_key);
    await silence(ack.id, "analyse");
    // The report arrives before the alarm: the task's deadline is WATCHDOG_SECONDS ahead again.
    await taskEvent(render, { type: "progress", stage: "analysing", fraction: 0.2 });
    expect(await deadlineOf(ack.id)).toBeGreaterThan(Date.now() + LIMIT_MS - 10_000);
    await runDurableObjectAlarm(jobState(ack.id));
    expect(await taskOf(ack.id, "analyse")).toMatchObject({ state: "running", attempt: 1, failures: 0 });
  });

  it("honours WATCHDOG_SECONDS", async () => {
    const { ack } = await startedJob(acct.api_key);
    // The object reads the setting from its env: run the checks with a 42 s limit inside it.
    const outcome = await runInDurableObject(jobState(ack.id), async (instance, state) => {
      const self = instance as unknown as { env: Env } & Pick<JobState, "checkWatchdog" | "tasks">;
      const original = self.env;
      Object.defineProperty(self, "env", { value: { ...original, WATCHDOG_SECONDS: "42" }, configurable: true });
      const heardAgo = async (ms: number) => {
        const book = (await state.storage.get<TaskRecord[]>("tasks"))!;
        book[0]!.heard_at = Date.now() - ms;
        await state.storage.put("tasks", book);
        await self.checkWatchdog();
        return (await self.tasks())[0]!;
      };
      try {
        return { within: await heardAgo(41_000), past: await heardAgo(43_000) };
      } finally {
        Object.defineProperty(self, "env", { value: original, configurable: true });
      }
    });
    expect(outcome.within).toMatchObject({ attempt: 1, failures: 0 });
    expect(outcome.past).toMatchObject({ failures: 1, last_error: { message: "the renderer stopped reporting for more than 42 seconds" } });
  });

  it("sets the one alarm to the earlier of the task deadline and the next webhook attempt", async () => {
    const box = await webhookBox({ status: 500 });
    const { ack } = await startedJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    const deadline = (await deadlineOf(ack.id))!;
    // job.running fails and is retried within seconds: those retries come first.
    await eventually(async () => (await box.received()).length >= 1);
    const alarm = (await alarmOf(ack.id))!;
    expect(alarm).toBeLessThan(deadline);
    // Once the delivery has given up, only the watchdog is left.
    await eventually(async () => (await box.received()).length >= 4, 8000, "4 attempts");
    await eventually(async () => (await alarmOf(ack.id)) === deadline, 3000, "the alarm to move to the watchdog deadline");
  });

  it("a pending job has no watchdog and a settled job no alarm", async () => {
    const { ack, message } = await createJob(acct.api_key);
    expect(await deadlineOf(ack.id)).toBeUndefined();
    expect(await alarmOf(ack.id)).toBeNull();
    await rendererAnswers(ack.id, 202);
    await deliver(message);
    expect(await alarmOf(ack.id)).toBe(await deadlineOf(ack.id));
    await jobState(ack.id).fail("render_failed", "FFmpeg exited with code 1.");
    expect(await deadlineOf(ack.id)).toBeUndefined();
    expect(await alarmOf(ack.id)).toBeNull();
  });
});

describe("hourly cron: watchdog safety net", { timeout: 60_000 }, () => {
  async function runCron(): Promise<void> {
    await handleScheduled(createScheduledController({ scheduledTime: Date.now(), cron: "17 * * * *" }), env, createExecutionContext());
  }
  const makeStale = (jobId: string) =>
    env.DB.prepare("UPDATE jobs SET updated_at = ? WHERE id = ?").bind(new Date(Date.now() - 3600_000).toISOString(), jobId).run();

  it("checks running jobs that are stale in D1: a silent task is retried though the object's alarm was lost", async () => {
    const { ack } = await startedJob(acct.api_key);
    await makeStale(ack.id);
    await silence(ack.id, "analyse", 3000_000);
    await runInDurableObject(jobState(ack.id), (_i, state) => state.storage.deleteAlarm());
    await runCron();
    await waitForStart(ack.id, "analyse", 2);
    expect(await taskOf(ack.id, "analyse")).toMatchObject({ attempt: 2, failures: 1 });
  });

  it("trusts the object's fresher report time over a stale D1 row, and re-arms a lost alarm", async () => {
    const { ack, render } = await startedJob(acct.api_key);
    await taskEvent(render, { type: "progress", stage: "analysing", fraction: 0.5 });
    // A report that changes nothing in D1 refreshes the task's report time but not D1's updated_at.
    await makeStale(ack.id);
    await runInDurableObject(jobState(ack.id), (_i, state) => state.storage.deleteAlarm());
    await runCron();
    expect(await taskOf(ack.id, "analyse")).toMatchObject({ attempt: 1, state: "running" });
    expect(await alarmOf(ack.id)).toBe(await deadlineOf(ack.id));
  });
});
