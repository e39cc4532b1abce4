import { createExecutionContext, createScheduledController, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { handleScheduled } from "../../worker/src/cron/scheduled";
import type { JobState } from "../../worker/src/orchestration/job-state";
import type { Env } from "../../worker/src/env";
import { accountCredits, createAccount, minimalJob, type TestAccount } from "./helpers";
import { createJob, eventually, jobState, record, rendererLog, sendEvent, startedJob, webhookBox } from "./job-flow";

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

/** Moves the job's watchdog deadline, as if that much time had passed since the last report. */
function setDeadline(jobId: string, at: number): Promise<void> {
  return runInDurableObject(jobState(jobId), async (_instance, state) => {
    await state.storage.put("watchdog_at", at);
  });
}

const alarmOf = (jobId: string) => runInDurableObject(jobState(jobId), (_i, state) => state.storage.getAlarm());
const deadlineOf = (jobId: string) => runInDurableObject(jobState(jobId), (_i, state) => state.storage.get<number>("watchdog_at"));

describe("watchdog alarm", () => {
  it("fails a running job whose renderer went silent, with a full refund and a clear message", async () => {
    const before = await accountCredits(acct.account_id);
    const box = await webhookBox({ secret: acct.webhook_signing_secret });
    const { ack, render } = await startedJob(acct.api_key, minimalJob({ webhook_url: box.url }));
    await sendEvent(render, { type: "progress", seq: 2, stage: "downloading_video", percent: 40 });
    await setDeadline(ack.id, Date.now() - 1000);
    expect(await runDurableObjectAlarm(jobState(ack.id))).toBe(true);

    const rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({ status: "failed", refunded_credits: ack.credit_cost, error: { code: "renderer_stalled" } });
    expect(rec.error!.message).toMatch(/stopped reporting progress for more than 600 seconds/);
    expect(await accountCredits(acct.account_id)).toBe(before);
    const failed = await eventually(async () => (await box.received()).find((d) => d.body.includes('"job.failed"')));
    expect(JSON.parse(failed.body).payload).toMatchObject({ error_code: "renderer_stalled", refunded_credits: ack.credit_cost });
    // The renderer, maybe only slow, is told to stop.
    await eventually(async () => (await rendererLog(ack.id)).cancels === 1, 5000, "the renderer stop");
    // A late report from the renderer changes nothing now.
    await sendEvent(render, { type: "progress", seq: 3, stage: "rendering_reels", percent: 70 }, 409);
    expect(await deadlineOf(ack.id)).toBeUndefined();
  });

  it("leaves a job alone whose renderer keeps reporting", async () => {
    const { ack, render } = await startedJob(acct.api_key);
    await setDeadline(ack.id, Date.now() - 1000);
    // The report arrives before the alarm: it moves the deadline WATCHDOG_SECONDS ahead again.
    await sendEvent(render, { type: "progress", seq: 2, stage: "analysing", percent: 20 });
    expect(await deadlineOf(ack.id)).toBeGreaterThan(Date.now() + 590_000);
    await runDurableObjectAlarm(jobState(ack.id));
    expect((await record(acct.api_key, ack.id)).status).toBe("running");
  });

  it("honours WATCHDOG_SECONDS", async () => {
    const { ack } = await startedJob(acct.api_key);
    // The object reads the setting from its env: run a report and a later check with a 42 s limit inside it.
    const { deadline, reportedAt, failed } = await runInDurableObject(jobState(ack.id), async (instance, state) => {
      const self = instance as unknown as { env: Env } & Pick<JobState, "renderEvent" | "checkWatchdog">;
      const original = self.env;
      Object.defineProperty(self, "env", { value: { ...original, WATCHDOG_SECONDS: "42" }, configurable: true });
      try {
        const reportedAt = Date.now();
        await self.renderEvent({ type: "progress", seq: 2, stage: "analysing", percent: 5 });
        const deadline = (await state.storage.get<number>("watchdog_at"))!;
        await state.storage.put("watchdog_at", Date.now() - 1);
        return { deadline, reportedAt, failed: await self.checkWatchdog() };
      } finally {
        Object.defineProperty(self, "env", { value: original, configurable: true });
      }
    });
    expect(deadline - reportedAt).toBeGreaterThanOrEqual(42_000);
    expect(deadline - reportedAt).toBeLessThan(43_000);
    expect(failed).toBe(true);
    expect((await record(acct.api_key, ack.id)).error?.message).toMatch(/more than 42 seconds/);
  });

  it("sets the one alarm to the earlier of the watchdog deadline and the next webhook attempt", async () => {
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
    const { ack } = await createJob(acct.api_key);
    expect(await deadlineOf(ack.id)).toBeUndefined();
    expect(await alarmOf(ack.id)).toBeNull();
    await jobState(ack.id).markRunning();
    expect(await alarmOf(ack.id)).toBe(await deadlineOf(ack.id));
    await jobState(ack.id).fail("render_failed", "FFmpeg exited with code 1.");
    expect(await deadlineOf(ack.id)).toBeUndefined();
    expect(await alarmOf(ack.id)).toBeNull();
  });
});

describe("hourly cron: watchdog safety net", () => {
  async function runCron(): Promise<void> {
    await handleScheduled(createScheduledController({ scheduledTime: Date.now(), cron: "17 * * * *" }), env, createExecutionContext());
  }
  const makeStale = (jobId: string) =>
    env.DB.prepare("UPDATE jobs SET updated_at = ? WHERE id = ?").bind(new Date(Date.now() - 3600_000).toISOString(), jobId).run();

  it("fails running jobs that are stale in D1 and past their deadline", async () => {
    const { ack } = await startedJob(acct.api_key);
    await makeStale(ack.id);
    // As if the object's alarm had been lost: no alarm, deadline long gone.
    await runInDurableObject(jobState(ack.id), async (_i, state) => {
      await state.storage.put("watchdog_at", Date.now() - 3000_000);
      await state.storage.deleteAlarm();
    });
    await runCron();
    expect(await record(acct.api_key, ack.id)).toMatchObject({ status: "failed", refunded_credits: ack.credit_cost, error: { code: "renderer_stalled" } });
  });

  it("trusts the object's fresher report time over a stale D1 row, and re-arms a lost alarm", async () => {
    const { ack, render } = await startedJob(acct.api_key);
    await sendEvent(render, { type: "progress", seq: 2, stage: "analysing", percent: 10 });
    // A report that changes nothing refreshes the object's deadline but not D1's updated_at.
    await makeStale(ack.id);
    await runInDurableObject(jobState(ack.id), (_i, state) => state.storage.deleteAlarm());
    await runCron();
    expect((await record(acct.api_key, ack.id)).status).toBe("running");
    expect(await alarmOf(ack.id)).toBe(await deadlineOf(ack.id));
  });
});
