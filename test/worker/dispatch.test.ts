import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobAck } from "../../common/contract";
import { RenderTaskRequest } from "../../common/contract/job-plan";
import { CONTRACT_UNSUPPORTED_STATUS, TASK_CONTRACT_VERSION } from "../../common/contract/task-contract";
import { rendererJobToken, rendererTaskToken } from "../../worker/src/artifacts/links";
import { ACCEPT_MARKER, TEST_RENDERER_TOKEN } from "./doubles-protocol";
import { accountCredits, createAccount, FIXTURE_VODS, minimalJob, post, postJob, vodUrl, type TestAccount } from "./helpers";
import { createJob, DEAD_LETTER_QUEUE, deliver, eventually, jobState, record, rendererAnswers, rendererLog, startedJob } from "./job-steps";
import { completeJob } from "./task-flow";

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

describe("queue consumer: dispatch to the renderer", () => {
  it("sends the renderer the job's analysis task (a complete RenderJob), acks the message and marks the job running", async () => {
    // Twitch unreachable at creation: vod_length_hours stands in for the probe.
    const noTwitch = { TWITCH_GQL_URL: `${env.TWITCH_USHER_URL}/no-gql-here` };
    const { ack, message } = await createJob(acct.api_key, minimalJob({ vod_url: vodUrl(FIXTURE_VODS.public), num_shorts: 2, streamer_name: "SynthRunner" }), noTwitch);
    expect(message).toEqual({ job_id: ack.id });
    await rendererAnswers(ack.id, 202);
    const result = await deliver(message);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);

    const log = await rendererLog(ack.id);
    expect(log.authorization).toBe(`Bearer ${TEST_RENDERER_TOKEN}`);
    expect(log.starts).toHaveLength(1);
    const job = RenderTaskRequest.parse(log.starts[0]);
    expect(job.job_id).toBe(ack.id);
    expect(job.task).toEqual({ id: "analyse", kind: "analyse", attempt: 1 });
    // The request says which task contract it speaks.
    expect(job.contract).toBe(TASK_CONTRACT_VERSION);
    expect(job.plan).toBeNull();
    // Events, files (and Workers AI) on this attempt's own path, with a token that speaks for this attempt only: no
    // job-wide token reaches the renderer.
    const attemptToken = await rendererTaskToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, ack.id, "analyse", 1);
    expect(job.callback.url).toBe(`https://api.test/internal/jobs/${ack.id}/tasks/analyse/attempts/1/events`);
    expect(job.callback.token).toBe(attemptToken);
    expect(JSON.stringify(job)).not.toContain(await rendererJobToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, ack.id));
    // WATCHDOG_SECONDS 600 (default): report at least every 150 s.
    expect(job.callback.heartbeat_seconds).toBe(150);
    expect(job.upload).toEqual({ mode: "worker", url: `https://api.test/internal/jobs/${ack.id}/tasks/analyse/attempts/1/artifacts`, token: attemptToken });
    expect(job.twitch).toEqual({ gql_url: env.TWITCH_GQL_URL, usher_url: env.TWITCH_USHER_URL });
    expect(job.request).toMatchObject({ vod_id: FIXTURE_VODS.public, num_shorts: 2, streamer_name: "SynthRunner" });
    // The probe could not run: the VOD is described from the row (its claimed length).
    expect(job.vod).toEqual({
      vod_id: FIXTURE_VODS.public,
      title: `VOD ${FIXTURE_VODS.public}`,
      duration_seconds: 3600,
      streamer_login: null,
      streamer_display_name: "SynthRunner",
      game_name: null,
      created_at: null,
      language: null,
    });

    const rec = await record(acct.api_key, ack.id);
    expect(rec.status).toBe("running");
    expect(rec.started_at).not.toBeNull();
  });

  it("passes the probed VOD through when the duration was probed", async () => {
    const { render } = await startedJob(acct.api_key, { vod_url: vodUrl(FIXTURE_VODS.public) });
    expect(render.vod).toMatchObject({
      vod_id: FIXTURE_VODS.public,
      title: "Speedrun Night: Any% attempts",
      duration_seconds: 7200,
      streamer_login: "synthrunner",
      game_name: "Celeste",
      language: "en",
    });
  });

  it("gives each job's task attempt its own renderer token", async () => {
    const a = await startedJob(acct.api_key);
    const b = await startedJob(acct.api_key);
    expect(a.render.callback.token).not.toBe(b.render.callback.token);
  });

  it("does not start a job twice when the message is delivered again", async () => {
    const { ack, message } = await createJob(acct.api_key);
    await rendererAnswers(ack.id, 202);
    await deliver(message);
    const again = await deliver(message, { attempts: 2 });
    expect(again.explicitAcks).toHaveLength(1);
    expect((await rendererLog(ack.id)).starts).toHaveLength(1);
    expect((await record(acct.api_key, ack.id)).status).toBe("running");
  });

  it("skips a job cancelled while it was queued", async () => {
    const { ack, message } = await createJob(acct.api_key);
    await rendererAnswers(ack.id, 202);
    expect((await post(acct.api_key, `/jobs/${ack.id}/cancel`)).status).toBe(200);
    const result = await deliver(message);
    expect(result.explicitAcks).toHaveLength(1);
    expect((await rendererLog(ack.id)).starts).toHaveLength(0);
    expect((await record(acct.api_key, ack.id)).status).toBe("failed");
  });

  it("waits for capacity with a short jittered delay, each wait a new message, leaving the job pending however long", async () => {
    const { ack, message } = await createJob(acct.api_key);
    await rendererAnswers(ack.id, 503);
    for (const attempts of [1, 2, 40]) {
      const waited = await deliver(message, { attempts });
      // Not retried (the message's own retries stay for faults): acked, and the task asks again in 5 to 10 s.
      expect(waited.explicitAcks).toHaveLength(1);
      expect(waited.retryMessages).toEqual([]);
      expect(waited.sent).toHaveLength(1);
      expect(waited.sent[0]!.body).toEqual(message);
      expect(waited.sent[0]!.options?.delaySeconds).toBeGreaterThanOrEqual(5);
      expect(waited.sent[0]!.options?.delaySeconds).toBeLessThanOrEqual(10);
    }
    expect((await rendererLog(ack.id)).answers).toEqual([503, 503, 503]);
    expect((await record(acct.api_key, ack.id)).status).toBe("pending");
    const [task] = await jobState(ack.id).tasks();
    expect(task).toMatchObject({ state: "queued", attempt: 0, unreachable: 0, waiting_since: expect.any(Number) });
    // The busy answers used up no attempt: the next start is attempt 1.
    await rendererAnswers(ack.id, 202);
    await deliver(message, { attempts: 41 });
    const log = await rendererLog(ack.id);
    expect(RenderTaskRequest.parse(log.starts.at(-1)).task.attempt).toBe(1);
    expect((await record(acct.api_key, ack.id)).status).toBe("running");
    expect((await jobState(ack.id).tasks())[0]).toMatchObject({ state: "running", unreachable: 0, waiting_since: null });
  });

  // Issue 23: busy answers used to count against UNREACHABLE_ATTEMPTS (the message's deliveries), so a task that
  // waited through 4 of them failed its job at the first transient fault. Here the deliveries keep counting up, as
  // a retried message's would.
  for (const [fault, faultEnv] of [
    ["a 500 \"Container suddenly disconnected\"", {}],
    ["a connection failure", { RENDER_URL: "http://127.0.0.1:9" }],
  ] as const) {
    it(`6 busy answers, then ${fault}, then success: the job completes`, async () => {
      const { ack, message } = await createJob(acct.api_key, minimalJob({ num_shorts: 1 }));
      await rendererAnswers(ack.id, 202, [503, 503, 503, 503, 503, 503, ...(Object.keys(faultEnv).length ? [] : [500])]);
      let attempts = 0;
      for (let i = 0; i < 6; i++) {
        const busy = await deliver(message, { attempts: ++attempts });
        expect(busy.sent).toHaveLength(1);
      }
      const faulted = await deliver(message, { attempts: ++attempts, env: faultEnv });
      // One failure to reach a renderer: retried after the first step of its own backoff, the job untouched.
      expect(faulted.retryOptions).toEqual([{ delaySeconds: 15 }]);
      expect(faulted.explicitAcks).toEqual([]);
      expect((await record(acct.api_key, ack.id)).status).toBe("pending");
      expect((await jobState(ack.id).tasks())[0]).toMatchObject({ state: "queued", attempt: 0, unreachable: 1 });

      const started = await deliver(message, { attempts: ++attempts });
      expect(started.explicitAcks).toHaveLength(1);
      const log = await rendererLog(ack.id);
      expect(log.answers.at(-1)).toBe(202);
      const render = RenderTaskRequest.parse(log.starts.at(-1));
      expect(render.task).toEqual({ id: "analyse", kind: "analyse", attempt: 1 });
      expect((await jobState(ack.id).tasks())[0]).toMatchObject({ state: "running", unreachable: 0 });
      await completeJob(render);
      expect(await record(acct.api_key, ack.id)).toMatchObject({ status: "completed", error: null });
    });
  }

  it("tries every renderer of a pool (RENDER_URL with several URLs) before waiting", async () => {
    const { ack, message } = await createJob(acct.api_key);
    await rendererAnswers(ack.id, 202);
    // The first member refuses connections; the second (the double) takes the task.
    const result = await deliver(message, { env: { RENDER_URL: `http://127.0.0.1:9, ${env.RENDER_URL}` } });
    expect(result.explicitAcks).toHaveLength(1);
    expect((await rendererLog(ack.id)).answers).toEqual([202]);
    expect((await jobState(ack.id).tasks())[0]).toMatchObject({ id: "analyse", state: "running", instance: env.RENDER_URL.replace(/\/+$/, "") });
  });

  it("retries when the renderer cannot be reached at all (15 s, 60 s, 240 s), then fails the job with a full refund", async () => {
    const { ack, message } = await createJob(acct.api_key);
    const unreachable = { RENDER_URL: "http://127.0.0.1:9" };
    // A port nothing listens on: the connection is refused.
    for (const [i, delaySeconds] of [15, 60, 240].entries()) {
      const result = await deliver(message, { attempts: i + 1, env: unreachable });
      expect(result.retryOptions).toEqual([{ delaySeconds }]);
      expect((await record(acct.api_key, ack.id)).status).toBe("pending");
    }
    // A busy answer between them neither counts nor resets the count.
    await rendererAnswers(ack.id, 503);
    expect((await deliver(message, { attempts: 4 })).sent).toHaveLength(1);
    expect((await jobState(ack.id).tasks())[0]).toMatchObject({ unreachable: 3 });
    const last = await deliver(message, { attempts: 5, env: unreachable });
    expect(last.explicitAcks).toHaveLength(1);
    expect(await record(acct.api_key, ack.id)).toMatchObject({ status: "failed", refunded_credits: ack.credit_cost, error: { code: "dispatch_failed" } });
  });

  it("fails the job at once with a full refund when the renderer rejects the job itself (4xx)", async () => {
    const before = await accountCredits(acct.account_id);
    const { ack, message } = await createJob(acct.api_key);
    await rendererAnswers(ack.id, 422);
    const result = await deliver(message);
    expect(result.explicitAcks).toHaveLength(1);
    const rec = await record(acct.api_key, ack.id);
    expect(rec.status).toBe("failed");
    expect(rec.error?.code).toBe("dispatch_failed");
    expect(rec.error?.message).toMatch(/could not start rendering/i);
    expect(rec.refunded_credits).toBe(ack.credit_cost);
    expect(await accountCredits(acct.account_id)).toBe(before);
  });

  describe("during a rollout (a renderer of the previous task contract)", () => {
    // The renderer double under /speaks/<v> knows only contract version v: an instance of the previous image.
    const previous = () => `${env.RENDER_URL.replace(/\/+$/, "")}/speaks/${TASK_CONTRACT_VERSION - 1}`;

    it("a task of the next contract meets it: the task waits (the job untouched), then runs on a renderer that knows it, and the job completes", async () => {
      const { ack, message } = await createJob(acct.api_key, minimalJob({ num_shorts: 1 }));
      await rendererAnswers(ack.id, 202);
      const refused = await deliver(message, { env: { RENDER_URL: previous() } });
      // Not a refusal of the job: it waits for another renderer like a busy answer does.
      expect(refused.explicitAcks).toHaveLength(1);
      expect(refused.sent).toHaveLength(1);
      expect((await rendererLog(ack.id)).answers).toEqual([CONTRACT_UNSUPPORTED_STATUS]);
      expect((await record(acct.api_key, ack.id)).status).toBe("pending");
      expect((await jobState(ack.id).tasks())[0]).toMatchObject({ state: "queued", attempt: 0, unreachable: 0 });

      // The rollout went on: the next delivery reaches a renderer of the new image.
      const started = await deliver(refused.sent[0]!.body);
      expect(started.explicitAcks).toHaveLength(1);
      const log = await rendererLog(ack.id);
      expect(log.answers).toEqual([CONTRACT_UNSUPPORTED_STATUS, 202]);
      const render = RenderTaskRequest.parse(log.starts.at(-1));
      expect(render.task.attempt).toBe(1);
      await completeJob(render);
      expect(await record(acct.api_key, ack.id)).toMatchObject({ status: "completed", error: null, refunded_credits: 0 });
    });

    it("in a pool, the task goes to the member that knows its contract", async () => {
      const { ack, message } = await createJob(acct.api_key);
      await rendererAnswers(ack.id, 202);
      const result = await deliver(message, { env: { RENDER_URL: `${previous()}, ${env.RENDER_URL}, ${previous()}` } });
      expect(result.explicitAcks).toHaveLength(1);
      expect(result.sent).toEqual([]);
      expect((await rendererLog(ack.id)).answers.at(-1)).toBe(202);
      expect((await jobState(ack.id).tasks())[0]).toMatchObject({ state: "running", instance: env.RENDER_URL.replace(/\/+$/, "") });
    });
  });

  it("fails clearly, refunding everything, when PUBLIC_BASE_URL is not configured", async () => {
    const { ack, message } = await createJob(acct.api_key);
    await rendererAnswers(ack.id, 202);
    const result = await deliver(message, { env: { PUBLIC_BASE_URL: "" } });
    expect(result.explicitAcks).toHaveLength(1);
    const rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({ status: "failed", refunded_credits: ack.credit_cost, error: { code: "dispatch_failed" } });
    expect(rec.error?.message).toContain("PUBLIC_BASE_URL is not set");
    expect((await rendererLog(ack.id)).starts).toHaveLength(0);
  });

  it("gives the renderer no R2 credential when R2 API credentials are configured: only the attempt's token and where to ask for presigned URLs", async () => {
    const { ack, message } = await createJob(acct.api_key);
    await rendererAnswers(ack.id, 202);
    const r2 = { R2_ACCESS_KEY_ID: "AKIDTEST-5f3a", R2_SECRET_ACCESS_KEY: "secret-test-9c1e", R2_S3_ENDPOINT: "http://127.0.0.1:9000/" };
    await deliver(message, { env: r2 });
    const start = (await rendererLog(ack.id)).starts[0];
    const body = JSON.stringify(start);
    // Neither the secret nor the key id appears anywhere in the task body (issue 23, point 6).
    expect(body).not.toContain(r2.R2_SECRET_ACCESS_KEY);
    expect(body).not.toContain(r2.R2_ACCESS_KEY_ID);
    expect(body).not.toMatch(/secret_access_key|access_key_id/);
    const job = RenderTaskRequest.parse(start);
    expect(job.upload).toEqual({ mode: "presigned", url: `https://api.test/internal/jobs/${ack.id}/tasks/analyse/attempts/1/storage`, token: await rendererTaskToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, ack.id, "analyse", 1) });
  });

  it("drops a message without a job id instead of retrying it forever", async () => {
    const result = await deliver({ nope: true });
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);
  });
});

describe("dead-letter queue", () => {
  it("fails a job that never started with a full refund and a clear message", async () => {
    const before = await accountCredits(acct.account_id);
    const { ack, message } = await createJob(acct.api_key);
    expect(await accountCredits(acct.account_id)).toBe(before - ack.credit_cost);
    const result = await deliver(message, { queue: DEAD_LETTER_QUEUE });
    expect(result.explicitAcks).toHaveLength(1);
    const rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({ status: "failed", refunded_credits: ack.credit_cost, error: { code: "dispatch_failed" } });
    expect(rec.error?.message).toMatch(/^Could not start rendering/);
    expect(await accountCredits(acct.account_id)).toBe(before);
  });

  it("leaves a job alone that the renderer picked up in the meantime", async () => {
    const { ack } = await startedJob(acct.api_key);
    await deliver({ job_id: ack.id }, { queue: DEAD_LETTER_QUEUE });
    const rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({ status: "running", refunded_credits: 0 });
  });
});

describe("the real queue", () => {
  it("delivers POST /jobs to the consumer, which starts the render", async () => {
    const res = await postJob(acct.api_key, minimalJob({ streamer_name: ACCEPT_MARKER }));
    expect(res.status).toBe(202);
    const ack = (await res.json()) as JobAck;
    await eventually(async () => (await record(acct.api_key, ack.id)).status === "running", 10_000, "the job to be running");
    const log = await rendererLog(ack.id);
    expect(log.answers).toEqual([202]);
  });
});

describe("cancel reaches the renderer", () => {
  it("tells the renderer to stop a running job's task once the cancel is stored", async () => {
    const { ack } = await startedJob(acct.api_key);
    const res = await post(acct.api_key, `/jobs/${ack.id}/cancel`);
    expect(res.status).toBe(200);
    const log = await eventually(async () => {
      const l = await rendererLog(ack.id);
      return l.cancels > 0 && l;
    }, 5000, "the renderer cancel");
    expect(log.cancels).toBe(1);
    expect(log.cancelledTasks).toEqual(["analyse"]);
    expect(log.authorization).toBe(`Bearer ${TEST_RENDERER_TOKEN}`);
    expect((await jobState(ack.id).get())?.status).toBe("failed");
  });

  it("does not call the renderer for a job cancelled before it started", async () => {
    const { ack } = await createJob(acct.api_key);
    expect((await post(acct.api_key, `/jobs/${ack.id}/cancel`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect((await rendererLog(ack.id)).cancels).toBe(0);
  });
});
