import { describe, expect, it } from "vitest";
import { analysisTask, DISPATCH_CLAIM_MS, newTask, type TaskRecord } from "../../worker/src/orchestration/task-book";
import { REQUEUE_AFTER_MS, silentTasks, tasksToResend } from "../../worker/src/orchestration/watchdog";

/**
 * The watchdog's rules on their own (worker/src/orchestration/watchdog.ts), on task books made by hand; the alarm
 * that applies them to a real job is in watchdog.test.ts.
 */

const NOW = 1_800_000_000_000;
const LIMIT = 600_000;

function task(id: string, state: TaskRecord["state"], heardAgo: number | null, attempt = 1): TaskRecord {
  return { ...newTask(id, "short", id, 10), state, attempt, heard_at: heardAgo === null ? null : NOW - heardAgo };
}

describe("the task watchdog's rules", () => {
  it("finds running tasks silent for the limit or longer, and no other", () => {
    const book = [
      task("silent", "running", LIMIT),
      task("long-silent", "running", 5 * LIMIT),
      task("reporting", "running", LIMIT - 1),
      task("claimed", "dispatching", 5 * LIMIT),
      task("done", "done", 5 * LIMIT),
      { ...analysisTask(), state: "running" as const, heard_at: null },
    ];
    expect(silentTasks(book, NOW, LIMIT).map((t) => t.id)).toEqual(["silent", "long-silent"]);
  });

  it("queues an unconfirmed claim again without using up its attempt, and resends a queued task whose message seems lost", () => {
    const book = [
      task("unconfirmed", "dispatching", DISPATCH_CLAIM_MS, 2),
      task("fresh-claim", "dispatching", DISPATCH_CLAIM_MS - 1, 1),
      task("lost-message", "queued", REQUEUE_AFTER_MS, 0),
      task("waiting-message", "queued", REQUEUE_AFTER_MS - 1, 0),
      task("running", "running", 5 * REQUEUE_AFTER_MS),
    ];
    expect(tasksToResend(book, NOW).map((t) => t.id)).toEqual(["unconfirmed", "lost-message"]);
    expect(book.map((t) => [t.id, t.state, t.attempt, t.heard_at])).toEqual([
      ["unconfirmed", "queued", 1, NOW],
      ["fresh-claim", "dispatching", 1, NOW - DISPATCH_CLAIM_MS + 1],
      ["lost-message", "queued", 0, NOW],
      ["waiting-message", "queued", 0, NOW - REQUEUE_AFTER_MS + 1],
      ["running", "running", 1, NOW - 5 * REQUEUE_AFTER_MS],
    ]);
  });
});
