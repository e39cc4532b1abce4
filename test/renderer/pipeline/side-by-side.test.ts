import { describe, expect, it } from "vitest";
import { runProcess } from "../../../render-container/src/ffmpeg/process";
import { sideBySide } from "../../../render-container/src/pipeline/side-by-side";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("sideBySide", () => {
  it("resolves with every branch's result, in order", async () => {
    const [a, b] = await sideBySide(new AbortController().signal, async () => 1, async () => "two");
    expect([a, b]).toEqual([1, "two"]);
  });

  it("on a failure, stops the other branches and rejects only once their child processes are gone", async () => {
    let pid = 0;
    // The other branch fails only once the child has said it ignores SIGTERM, so SIGTERM can never come first.
    let trapSet!: () => void;
    const ready = new Promise<void>((r) => (trapSet = r));
    let failedAt = 0;
    const err = await sideBySide(
      new AbortController().signal,
      // A child that ignores SIGTERM: it only goes when the grace period ends in SIGKILL.
      (signal) =>
        runProcess("sh", ["-c", "trap '' TERM; echo ready; exec sleep 30"], {
          signal,
          killGraceMs: 400,
          onSpawn: (p) => (pid = p),
          onStdoutLine: (line) => line === "ready" && trapSet(),
        }),
      async () => {
        await Promise.race([ready, new Promise((_r, reject) => setTimeout(() => reject(new Error("the child never printed ready")), 20_000).unref())]);
        failedAt = Date.now();
        throw new Error("download failed");
      },
    ).catch((e: unknown) => e);
    expect(String(err)).toMatch("download failed");
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
    // It waited out the grace period (SIGTERM was ignored) instead of rejecting at the failure; a few ms of
    // slack for timer and clock granularity.
    expect(Date.now() - failedAt).toBeGreaterThanOrEqual(390);
  });

  it("passes the job's cancellation to every branch", async () => {
    const job = new AbortController();
    const seen: string[] = [];
    const waitForAbort = (name: string) => (signal: AbortSignal) =>
      new Promise<never>((_r, reject) =>
        signal.addEventListener("abort", () => {
          seen.push(name);
          reject(signal.reason);
        }),
      );
    const p = sideBySide(job.signal, waitForAbort("video"), waitForAbort("captions"));
    job.abort(new Error("cancelled"));
    await expect(p).rejects.toThrow("cancelled");
    expect(seen.sort()).toEqual(["captions", "video"]);
  });
});
