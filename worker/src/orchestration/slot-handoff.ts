import type { JobObject } from "./job-storage";
import { releaseInstance } from "./renderers";
import { sendTasks } from "./task-dispatch";
import { takeNextWaiting, type TaskRecord } from "./task-book";

/**
 * A task that ends frees a renderer slot (its container instance stops, or its pool process takes the next task).
 * The job's next task waiting for a slot (refused as busy before) should not wait for its jittered retry: it is
 * sent again at once, after the ended task's instance is released so that its start finds the slot free. With one
 * slot (one machine, or an account at max_instances), a job's tasks then follow each other within a queue
 * delivery instead of a backoff (issue 23: 86 s idle between tasks before).
 */

/** Under the serial chain: picks (and marks in `book`, which the caller stores) the task the slot goes to. */
export function slotTaker(book: TaskRecord[]): TaskRecord | null {
  return takeNextWaiting(book, Date.now());
}

/** Outside the chain (waitUntil): releases the ended task's instance, then sends the waiting task's message. */
export async function handOffSlot(o: JobObject, instance: string | null, next: TaskRecord | null): Promise<void> {
  if (instance) await releaseInstance(o.env, instance);
  if (next) await sendTasks(o, [next]);
}
