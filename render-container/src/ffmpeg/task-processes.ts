import { AsyncLocalStorage } from "node:async_hooks";
import type { ChildProcess } from "node:child_process";

/**
 * The child processes of one task. Every child is spawned through runProcess, which asks the task it runs in
 * (found through AsyncLocalStorage, so no call site has to pass it on) whether it may start one: once the task
 * is stopping, it may not. `close` refuses any further child, stops the live ones and settles only when each has
 * exited, so a cancel that waits for it leaves nothing running, however a spawn and the cancel interleave
 * (a caller whose own signal is not yet aborted, three recogniser searches started side by side, a branch that
 * Promise.all stopped waiting for).
 */
export class TaskProcesses {
  private readonly live = new Map<ChildProcess, Promise<void>>();
  private refusal: Error | null = null;

  constructor(
    private readonly opts: {
      /** Time between SIGTERM and SIGKILL when closing. Default 2000 ms. */
      killGraceMs?: number;
      /**
       * Test hook: called just before a child would start; when it returns a promise, the start waits for it.
       * Tests hold a start this way until a cancel has arrived, the moment a spawn could otherwise escape it.
       */
      holdSpawn?: (command: string, args: readonly string[]) => Promise<void> | undefined;
    } = {},
  ) {}

  /** Runs `fn` as this task: every child runProcess starts inside it (awaited or not) belongs to this task. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return owners.run(this, fn);
  }

  /** The test hook's hold for this start, if any. */
  holdFor(command: string, args: readonly string[]): Promise<void> | undefined {
    return this.opts.holdSpawn?.(command, args);
  }

  /** Throws why no child may start now (the task is stopping or over); returns when one may. */
  admit(): void {
    if (this.refusal) throw this.refusal;
  }

  /** Counts a child that started, until it has exited (and been reaped: no zombie is left either). */
  track(child: ChildProcess): void {
    if (child.pid === undefined) return; // It never ran ("error" follows): nothing to wait for.
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
    });
    this.live.set(child, exited);
    void exited.then(() => this.live.delete(child));
  }

  get liveCount(): number {
    return this.live.size;
  }

  /**
   * From now on no child may start (it is refused with `reason`); the live ones get SIGTERM, then SIGKILL after
   * the grace period. Settles when every child of the task has exited.
   */
  async close(reason: Error): Promise<void> {
    this.refusal ??= reason;
    const children = [...this.live.entries()];
    if (children.length === 0) return;
    for (const [child] of children) child.kill("SIGTERM");
    const kill = setTimeout(() => {
      for (const [child] of children) if (this.live.has(child)) child.kill("SIGKILL");
    }, this.opts.killGraceMs ?? 2000);
    try {
      await Promise.all(children.map(([, exited]) => exited));
    } finally {
      clearTimeout(kill);
    }
  }
}

const owners = new AsyncLocalStorage<TaskProcesses>();

/** The task whose code is running now, if any (tools, benchmarks and tests run processes outside of a task). */
export function currentTaskProcesses(): TaskProcesses | undefined {
  return owners.getStore();
}
