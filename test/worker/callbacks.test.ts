import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { RenderJob } from "../../common/contract";
import { rendererJobToken } from "../../worker/src/artifacts/links";
import { accountCredits, call, createAccount, expectError, get, minimalJob, post, type TestAccount } from "./helpers";
import { bytesOf, callWithEnv, sameBytes, completeJob, createJob, jobState, manifestFor, postEvent, putArtifact, record, renderedFiles, sendEvent, startedJob } from "./job-flow";

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

describe("POST /internal/jobs/{id}/events: authentication and validation", () => {
  let render: RenderJob;
  beforeAll(async () => {
    ({ render } = await startedJob(acct.api_key));
  });

  it("answers 401 without the token, with a wrong one and with another job's token", async () => {
    const progress = { type: "progress", seq: 2, stage: "analysing", percent: 20 };
    await expectError(await postEvent(render.job_id, null, progress), 401, "unauthorized");
    await expectError(await postEvent(render.job_id, `${render.callback.token}x`, progress), 401, "unauthorized");
    const other = await startedJob(acct.api_key);
    await expectError(await postEvent(render.job_id, other.render.callback.token, progress), 401, "unauthorized");
    expect((await record(acct.api_key, render.job_id)).progress).toBe(0);
  });

  it("answers 404 for a job that does not exist (with that id's valid token)", async () => {
    const id = "job_01HZZZZZZZZZZZZZZZZZZZZZZZ";
    const token = await rendererJobToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, id);
    await expectError(await postEvent(id, token, { type: "started", seq: 1 }), 404, "job_not_found");
  });

  it("answers 422 for bodies that are not render events", async () => {
    const t = render.callback.token;
    for (const bad of ["not json", { type: "progress", seq: 3, stage: "warp", percent: 5 }, { type: "started" }, { type: "progress", seq: 3, stage: "analysing", percent: 150 }, { type: "exploded", seq: 3 }]) {
      await expectError(await postEvent(render.job_id, t, bad), 422, "validation_failed");
    }
    expect((await record(acct.api_key, render.job_id)).progress).toBe(0);
  });
});

describe("render events drive the job", () => {
  it("started -> progress -> completed: running, stage and percent, then completed with the stored result", async () => {
    const { ack, message } = await createJob(acct.api_key);
    // The renderer reports before the queue consumer marks the job running: "started" does it.
    const render = { job_id: ack.id, callback: { token: await rendererJobToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, ack.id) } } as RenderJob;
    expect(message.job_id).toBe(ack.id);
    expect(await sendEvent(render, { type: "started", seq: 1 })).toMatchObject({ accepted: true, status: "running" });
    let rec = await record(acct.api_key, ack.id);
    expect(rec.status).toBe("running");

    await sendEvent(render, { type: "progress", seq: 2, stage: "analysing", percent: 31.7 });
    rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({ status: "running", stage: "analysing", progress: 31 });

    const manifest = await completeJob(render, renderedFiles(), 3);
    rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({ status: "completed", progress: 100, error: null, refunded_credits: 0 });
    const results = await get(acct.api_key, `/jobs/${ack.id}/results`);
    expect(results.status).toBe(200);
    const body = (await results.json()) as { deliverables: { name: string }[]; manifest: typeof manifest };
    expect(body.deliverables.map((d) => d.name).sort()).toEqual(renderedFiles().map((f) => f.ref.name).sort());
    expect(body.manifest.highlights).toEqual(manifest.highlights);
  });

  it("ignores repeated and out-of-order events by sequence number", async () => {
    const { render } = await startedJob(acct.api_key);
    await sendEvent(render, { type: "progress", seq: 5, stage: "rendering_reels", percent: 60 });
    expect(await sendEvent(render, { type: "progress", seq: 4, stage: "analysing", percent: 70 })).toMatchObject({ accepted: false, reason: "duplicate" });
    expect(await sendEvent(render, { type: "progress", seq: 5, stage: "rendering_shorts", percent: 65 })).toMatchObject({ accepted: false, reason: "duplicate" });
    expect(await record(acct.api_key, render.job_id)).toMatchObject({ stage: "rendering_reels", progress: 60 });
    // A late "started" does not reset anything either.
    expect(await sendEvent(render, { type: "started", seq: 1 })).toMatchObject({ accepted: false });
    await sendEvent(render, { type: "progress", seq: 6, stage: "rendering_shorts", percent: 70 });
    expect(await record(acct.api_key, render.job_id)).toMatchObject({ stage: "rendering_shorts", progress: 70 });
  });

  it("failed: the job fails with the renderer's message and every credit back", async () => {
    const before = await accountCredits(acct.account_id);
    const { ack, render } = await startedJob(acct.api_key);
    await sendEvent(render, { type: "progress", seq: 2, stage: "downloading_audio", percent: 12 });
    await sendEvent(render, { type: "failed", seq: 3, error: { code: "vod_unavailable", message: "The VOD was deleted while it was being processed." } });
    const rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({
      status: "failed",
      refunded_credits: ack.credit_cost,
      error: { code: "vod_unavailable", message: "The VOD was deleted while it was being processed." },
    });
    expect(await accountCredits(acct.account_id)).toBe(before);
  });

  it("completed with fewer reels and shorts than billed returns their credits with the completion", async () => {
    const before = await accountCredits(acct.account_id);
    // Billed: 2 reels (balanced, audience) and 3 shorts; delivered: the balanced reel and one short.
    const { ack, render } = await startedJob(acct.api_key, minimalJob({ run_profiles: ["balanced", "audience"], num_shorts: 3 }));
    expect(await accountCredits(acct.account_id)).toBe(before - ack.credit_cost);
    await completeJob(render, renderedFiles(), 2);
    const rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({ status: "completed", refunded_credits: 25 + 2 * 10 });
    expect(await accountCredits(acct.account_id)).toBe(before - ack.credit_cost + 45);
    const ledger = await env.DB.prepare("SELECT kind, amount, reason FROM credit_ledger WHERE job_id = ? ORDER BY id").bind(ack.id).all<{ kind: string; amount: number; reason: string }>();
    expect(ledger.results).toEqual([
      { kind: "reserve", amount: -ack.credit_cost, reason: expect.any(String) },
      { kind: "refund", amount: 45, reason: "completed without some billed outputs" },
    ]);
    const results = (await (await get(acct.api_key, `/jobs/${ack.id}/results`)).json()) as { refunded_credits: number };
    expect(results.refunded_credits).toBe(45);
  });

  it("completed with everything billed delivered refunds nothing", async () => {
    const before = await accountCredits(acct.account_id);
    const { ack, render } = await startedJob(acct.api_key, minimalJob({ num_shorts: 1 }));
    await completeJob(render, renderedFiles(), 2);
    expect(await record(acct.api_key, ack.id)).toMatchObject({ status: "completed", refunded_credits: 0 });
    expect(await accountCredits(acct.account_id)).toBe(before - ack.credit_cost);
    const results = (await (await get(acct.api_key, `/jobs/${ack.id}/results`)).json()) as { refunded_credits: number };
    expect(results.refunded_credits).toBe(0);
  });

  it("completed naming files that were never uploaded fails the job with a full refund", async () => {
    const { ack, render } = await startedJob(acct.api_key);
    const files = renderedFiles();
    // Everything but the short is uploaded; the metadata is uploaded with a different size than reported.
    for (const f of files.filter((x) => x.ref.name !== "short-01.mp4")) {
      const bytes = f.ref.name === "metadata.json" ? f.bytes.slice(1) : f.bytes;
      expect((await putArtifact(ack.id, render.callback.token, f.ref.name, bytes, f.ref.content_type)).status).toBe(201);
    }
    await sendEvent(render, { type: "completed", seq: 2, manifest: manifestFor(files), artifacts: files.map((f) => f.ref) });
    const rec = await record(acct.api_key, ack.id);
    expect(rec).toMatchObject({ status: "failed", refunded_credits: ack.credit_cost, error: { code: "artifacts_missing" } });
    expect(rec.error!.message).toContain("short-01.mp4");
    expect(rec.error!.message).toContain("metadata.json");
  });

  it("after the end every event answers 409 and changes nothing (late reports of a cancelled job)", async () => {
    const { ack, render } = await startedJob(acct.api_key);
    await sendEvent(render, { type: "progress", seq: 2, stage: "analysing", percent: 40 });
    const cancel = await post(acct.api_key, `/jobs/${ack.id}/cancel`);
    expect(cancel.status).toBe(200);
    const after = await record(acct.api_key, ack.id);
    const late = [
      { type: "progress", seq: 3, stage: "rendering_reels", percent: 80 },
      { type: "failed", seq: 4, error: { code: "cancelled", message: "stopped" } },
      { type: "completed", seq: 5, manifest: manifestFor(renderedFiles()), artifacts: [] },
    ];
    for (const event of late) {
      const err = await expectError(await postEvent(ack.id, render.callback.token, event), 409, "job_settled");
      expect(err.status).toBe("failed");
    }
    expect(await record(acct.api_key, ack.id)).toEqual(after);
  });

  it("a retried completed event after completion answers 409 (the renderer's 'already settled')", async () => {
    const { render } = await startedJob(acct.api_key);
    const files = renderedFiles();
    await completeJob(render, files, 2);
    const res = await postEvent(render.job_id, render.callback.token, { type: "completed", seq: 2, manifest: manifestFor(files), artifacts: files.map((f) => f.ref) });
    expect((await expectError(res, 409, "job_settled")).status).toBe("completed");
  });

  it("completed straight from pending still passes through running (started_at set)", async () => {
    const { ack } = await createJob(acct.api_key);
    const render = { job_id: ack.id, callback: { token: await rendererJobToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, ack.id) } } as RenderJob;
    // Uploads need a running job: the renderer's "started" was lost here, so this completion is refused...
    const f = renderedFiles()[0]!;
    expect((await putArtifact(ack.id, render.callback.token, f.ref.name, f.bytes, f.ref.content_type, true)).status).toBe(409);
    // ...but a completion listing no files is accepted from pending and marks the job running first.
    const manifest = manifestFor([]);
    await sendEvent(render, { type: "completed", seq: 1, manifest, artifacts: [] });
    const rec = await record(acct.api_key, ack.id);
    expect(rec.status).toBe("completed");
    expect(rec.started_at).not.toBeNull();
  });
});

describe("PUT /internal/jobs/{id}/artifacts/{name}", () => {
  let render: RenderJob;
  beforeAll(async () => {
    ({ render } = await startedJob(acct.api_key));
  });

  it("streams the body into R2 under jobs/<id>/<name> with its content type", async () => {
    const bytes = bytesOf(42, 1_500_000);
    const res = await putArtifact(render.job_id, render.callback.token, "reel-balanced.mp4", bytes, "video/mp4");
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ name: "reel-balanced.mp4", size_bytes: bytes.byteLength });
    const object = await env.ARTIFACTS.get(`jobs/${render.job_id}/reel-balanced.mp4`);
    expect(object!.httpMetadata?.contentType).toBe("video/mp4");
    expect(sameBytes(new Uint8Array(await object!.arrayBuffer()), bytes)).toBe(true);
  });

  it("accepts an empty file", async () => {
    const res = await putArtifact(render.job_id, render.callback.token, "empty.srt", new Uint8Array(0), "application/x-subrip");
    expect(res.status).toBe(201);
    expect((await env.ARTIFACTS.head(`jobs/${render.job_id}/empty.srt`))!.size).toBe(0);
  });

  it("needs the job's token", async () => {
    const bytes = bytesOf(1, 10);
    await expectError(await putArtifact(render.job_id, null, "x.mp4", bytes, "video/mp4", true), 401, "unauthorized");
    await expectError(await putArtifact(render.job_id, "nope", "x.mp4", bytes, "video/mp4", true), 401, "unauthorized");
    expect(await env.ARTIFACTS.head(`jobs/${render.job_id}/x.mp4`)).toBeNull();
  });

  it("rejects names outside the artifact name rule", async () => {
    for (const name of ["Reel.mp4", ".hidden", "a%2Fb.mp4", "-x.mp4"]) {
      await expectError(await putArtifact(render.job_id, render.callback.token, name, bytesOf(1, 10), "video/mp4", true), 422, "validation_failed");
    }
  });

  it("requires Content-Length (411) and a body that matches it (400)", async () => {
    const url = `/internal/jobs/${render.job_id}/artifacts/stream.mp4`;
    const headers = { Authorization: `Bearer ${render.callback.token}`, "Content-Type": "video/mp4" };
    const streamed = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytesOf(3, 100));
        c.close();
      },
    });
    // In-process (no pipe to the test runner): a streamed body carries no Content-Length.
    await expectError(await callWithEnv({}, url, { method: "PUT", headers, body: streamed, duplex: "half" } as RequestInit), 411, "length_required");
    await expectError(await callWithEnv({}, url, { method: "PUT", headers: { ...headers, "Content-Length": "abc" }, body: bytesOf(3, 100) }), 400, "bad_request");
    const short = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytesOf(3, 100));
        c.close();
      },
    });
    const res = await callWithEnv({}, url, { method: "PUT", headers: { ...headers, "Content-Length": "200" }, body: short, duplex: "half" } as RequestInit);
    await expectError(res, 400, "upload_incomplete");
    expect(await env.ARTIFACTS.head(`jobs/${render.job_id}/stream.mp4`)).toBeNull();
  });

  it("accepts files only while the job is running", async () => {
    const { ack } = await createJob(acct.api_key);
    const token = await rendererJobToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, ack.id);
    expect((await expectError(await putArtifact(ack.id, token, "a.mp4", bytesOf(1, 10), "video/mp4", true), 409, "job_not_running")).status).toBe("pending");
    const done = await startedJob(acct.api_key);
    await post(acct.api_key, `/jobs/${done.ack.id}/cancel`);
    expect((await expectError(await putArtifact(done.ack.id, done.render.callback.token, "a.mp4", bytesOf(1, 10), "video/mp4", true), 409, "job_not_running")).status).toBe("failed");
    expect(await env.ARTIFACTS.head(`jobs/${done.ack.id}/a.mp4`)).toBeNull();
  });

  it("answers 404 for an unknown job", async () => {
    const id = "job_01HYYYYYYYYYYYYYYYYYYYYYYY";
    const token = await rendererJobToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, id);
    await expectError(await putArtifact(id, token, "a.mp4", bytesOf(1, 10), "video/mp4", true), 404, "job_not_found");
  });
});

describe("watchdog bookkeeping", () => {
  it("each accepted report moves the deadline", async () => {
    const { render } = await startedJob(acct.api_key);
    const { runInDurableObject } = await import("cloudflare:test");
    const deadline = () => runInDurableObject(jobState(render.job_id), (_i, state) => state.storage.get<number>("watchdog_at"));
    const first = await deadline();
    expect(first).toBeGreaterThan(Date.now() + 590_000);
    await new Promise((r) => setTimeout(r, 20));
    await sendEvent(render, { type: "progress", seq: 2, stage: "analysing", percent: 10 });
    // A report that changes nothing still proves the renderer is alive.
    await new Promise((r) => setTimeout(r, 20));
    const second = await deadline();
    await sendEvent(render, { type: "progress", seq: 3, stage: "analysing", percent: 10 });
    const third = await deadline();
    expect(second!).toBeGreaterThan(first!);
    expect(third!).toBeGreaterThan(second!);
  });
});
