import { describe, expect, it } from "vitest";
import { runProcess } from "../../../render-container/src/ffmpeg/process";
import { TaskProcesses } from "../../../render-container/src/ffmpeg/task-processes";
import { childProcesses, isAlive } from "../../support/child-processes";

/**
 * A task's child processes, with real processes: once the task closes, none may start, and closing settles only
 * when every child has exited, even one that its caller never asked to stop and that ignores SIGTERM.
 */
describe("a task's child processes", () => {
  it("closing stops a child nobody else stops and settles only once it has exited", async () => {
    const task = new TaskProcesses({ killGraceMs: 300 });
    let pid = 0;
    let ready: () => void = () => {};
    const started = new Promise<void>((r) => (ready = r));
    // No signal: the caller would let it run its 30 s; it also ignores SIGTERM, so only SIGKILL ends it.
    const run = task.run(() =>
      runProcess("sh", ["-c", "trap '' TERM; echo ready; exec sleep 30"], { onSpawn: (p) => (pid = p), onStdoutLine: () => ready() }),
    );
    const outcome = run.then(() => "exited", (err: unknown) => `rejected: ${String(err)}`);
    await started;
    expect(task.liveCount).toBe(1);

    await task.close(new Error("cancelled"));
    expect(isAlive(pid)).toBe(false);
    expect(childProcesses()).toEqual([]);
    expect(task.liveCount).toBe(0);
    expect(await outcome).toMatch(/^rejected: .*killed by SIGKILL/);
  });

  it("refuses a child once closing began, whoever asks and with whatever signal", async () => {
    const task = new TaskProcesses();
    await task.close(new Error("cancelled"));
    let spawned = false;
    await expect(task.run(() => runProcess("sleep", ["5"], { signal: new AbortController().signal, onSpawn: () => (spawned = true) }))).rejects.toThrow("cancelled");
    expect(spawned).toBe(false);
    expect(childProcesses()).toEqual([]);
  });
});
