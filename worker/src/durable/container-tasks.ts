import { assign, moveAssignment, unassign, type Assignment, type AssignmentStorage } from "./container-assignment";

/**
 * What a task's Container instance offers the Worker's task calls: its storage (the assignment), whether its
 * container runs, a request into the container (the library's `containerFetch`, which starts it when needed and
 * answers 503 when no instance is free) and a stop. The Container class (render-container.ts) is one such
 * instance; these calls are written against this seam because the class cannot be constructed without a container
 * runtime (its constructor refuses a Durable Object without `ctx.container`, as in the Workers vitest pool), so the
 * calls themselves run in tests with real Durable Object storage and a renderer reached over HTTP
 * (test/worker/container-tasks.test.ts).
 */
export interface TaskInstance {
  storage: AssignmentStorage;
  running(): boolean;
  fetch(request: Request): Promise<Response>;
  stop(): Promise<void>;
}

function bearer(token: string | null | undefined, extra: Record<string, string> = {}): Headers {
  const headers = new Headers(extra);
  if (token) headers.set("authorization", `Bearer ${token}`);
  return headers;
}

/** Records the task, then starts the container if needed and hands it the task; the renderer's (or the platform's) answer. */
export async function startTaskOn(instance: TaskInstance, assignment: Assignment, body: string, token: string | null): Promise<{ status: number; body: string }> {
  await assign(instance.storage, assignment);
  const res = await instance.fetch(new Request("http://container/tasks", { method: "POST", headers: bearer(token, { "content-type": "application/json" }), body }));
  return { status: res.status, body: await res.text() };
}

/** Asks the renderer to stop the task, then forgets it and stops the instance; whether the renderer stopped it. */
export async function cancelTaskOn(instance: TaskInstance, key: string, token: string | null | undefined): Promise<boolean> {
  if (!instance.running()) return false;
  const res = await instance.fetch(new Request(`http://container/tasks/${encodeURIComponent(key)}/cancel`, { method: "POST", headers: bearer(token) }));
  const stopped = res.ok && ((await res.json()) as { cancelled?: boolean }).cancelled === true;
  await finishTaskOn(instance);
  return stopped;
}

/**
 * The running task's renderer is handed its next task in the answer to its `completed` event
 * (orchestration/task-handoff.ts): the instance stays up and its assignment moves to that task. False when the
 * container no longer runs or runs another assignment: the job's object then queues the task as usual.
 */
export async function handOverTaskOn(instance: TaskInstance, from: Assignment, to: Assignment): Promise<boolean> {
  if (!instance.running()) return false;
  return moveAssignment(instance.storage, from, to);
}

/** The task ended: forget it and stop the instance. */
export async function finishTaskOn(instance: TaskInstance): Promise<void> {
  await unassign(instance.storage);
  if (instance.running()) await instance.stop();
}
