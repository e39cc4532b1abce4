import { describe, expect, it } from "vitest";
import { CallbackReporter } from "../../../render-container/src/output/callbacks";
import { silentLogger } from "../../../render-container/src/log";
import { startRecorder } from "../../support/http-recorder";

describe("CallbackReporter", () => {
  it("sends events in order with increasing seq and the bearer token", async () => {
    const rec = await startRecorder();
    const r = new CallbackReporter(`${rec.url}/cb`, "tok", silentLogger, { minIntervalMs: 0 });
    await r.started();
    r.progress("analysing", 10);
    r.progress("analysing", 10.2); // below 1 point: dropped
    r.progress("rendering_shorts", 50);
    await r.failed("boom", "It broke");
    await r.flush();
    await rec.close();
    const bodies = rec.requests.map((q) => JSON.parse(q.body.toString()));
    expect(bodies.map((b) => b.type)).toEqual(["started", "progress", "progress", "failed"]);
    expect(bodies.map((b) => b.seq)).toEqual([1, 2, 3, 4]);
    expect(bodies[2]).toMatchObject({ stage: "rendering_shorts", percent: 50 });
    expect(rec.requests.every((q) => q.headers.authorization === "Bearer tok")).toBe(true);
  });

  it("never reports progress going backwards", async () => {
    const rec = await startRecorder();
    const r = new CallbackReporter(rec.url, "t", silentLogger, { minIntervalMs: 0 });
    r.progress("analysing", 40);
    r.progress("selecting", 30);
    await r.flush();
    await rec.close();
    const percents = rec.requests.map((q) => JSON.parse(q.body.toString()).percent);
    expect(percents).toEqual([40, 40]);
  });

  it("retries terminal events until the Worker accepts them, and stops on 409", async () => {
    let calls = 0;
    const rec = await startRecorder((_q, res) => {
      calls++;
      res.writeHead(calls < 3 ? 503 : 200).end();
    });
    const r = new CallbackReporter(rec.url, "t", silentLogger, { retries: 5 });
    await r.failed("x", "y");
    expect(calls).toBe(3);
    await rec.close();

    let gone = 0;
    const rec2 = await startRecorder((_q, res) => {
      gone++;
      res.writeHead(409).end();
    });
    await new CallbackReporter(rec2.url, "t", silentLogger, { retries: 5 }).failed("x", "y");
    expect(gone).toBe(1);
    await rec2.close();
  });

  it("repeats the last progress as a heartbeat while a stage is silent, and stops at the end", async () => {
    const rec = await startRecorder();
    const r = new CallbackReporter(rec.url, "t", silentLogger, { minIntervalMs: 0, heartbeatSeconds: 0.3 });
    await r.started();
    r.progress("transcribing", 30);
    await new Promise((res) => setTimeout(res, 1100));
    await r.failed("x", "y");
    const countAtEnd = rec.requests.length;
    await new Promise((res) => setTimeout(res, 700));
    await rec.close();
    const bodies = rec.requests.map((q) => JSON.parse(q.body.toString()));
    const beats = bodies.filter((b) => b.type === "progress" && b.stage === "transcribing" && b.percent === 30);
    expect(beats.length).toBeGreaterThanOrEqual(3);
    expect(new Set(bodies.map((b) => b.seq)).size).toBe(bodies.length);
    expect(rec.requests.length).toBe(countAtEnd);
  });

  it("tells its owner once when the Worker says the job is settled (409)", async () => {
    const rec = await startRecorder((_q, res) => res.writeHead(409).end());
    let settled = 0;
    const r = new CallbackReporter(rec.url, "t", silentLogger, { minIntervalMs: 0, onSettled: () => settled++ });
    r.progress("analysing", 10);
    r.progress("selecting", 20);
    await r.flush();
    await rec.close();
    expect(settled).toBe(1);
  });
});

