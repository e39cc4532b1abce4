import type { JobPlan, TaskResult } from "../../../common/contract/job-plan";
import type { JobTransition } from "../domain/job-transition";
import type { Env } from "../env";
import type { JobLifecycle } from "./job-lifecycle";
import type { TaskRecord } from "./task-book";

/**
 * What one job's Durable Object keeps in its storage, and the handle the modules that act on a job work with
 * (job-transitions.ts, task-dispatch.ts, task-reports.ts, length-billing.ts, job-completion.ts, watchdog.ts).
 * JobState (job-state.ts) owns the object: it serialises calls and passes this handle to those modules, which
 * run while it holds the chain. Tests build the handle over a real object's storage (runInDurableObject).
 */
export interface JobObject {
  /** The Durable Object's id, for logs. */
  readonly id: string;
  readonly env: Env;
  readonly storage: DurableObjectStorage;
  /** Work that outlives the call (renderer stops, instance releases): the object stays up until it settles. */
  waitUntil(promise: Promise<unknown>): void;
}

/** A result computed while holding the serial chain, with the status changes whose webhooks go out after it. */
export interface Locked<T> {
  result: T;
  transitions: JobTransition[];
}

const STATE_KEY = "state";
/** Set by abandon(): this id was given up before a job existed under it, so create() refuses it for good. */
const ABANDONED_KEY = "abandoned";
/** The task book (task-book.ts), the stored plan and each render task's result. */
const TASKS_KEY = "tasks";
const PLAN_KEY = "plan";
const resultKey = (taskId: string) => `result:${taskId}`;

export const loadState = async (o: JobObject): Promise<JobLifecycle | null> => (await o.storage.get<JobLifecycle>(STATE_KEY)) ?? null;
export const saveState = (o: JobObject, state: JobLifecycle): Promise<void> => o.storage.put(STATE_KEY, state);

export const isAbandoned = async (o: JobObject): Promise<boolean> => (await o.storage.get<boolean>(ABANDONED_KEY)) === true;
export const markAbandoned = (o: JobObject): Promise<void> => o.storage.put(ABANDONED_KEY, true);

export const loadBook = async (o: JobObject): Promise<TaskRecord[]> => (await o.storage.get<TaskRecord[]>(TASKS_KEY)) ?? [];
export const saveBook = (o: JobObject, book: TaskRecord[]): Promise<void> => o.storage.put(TASKS_KEY, book);

export const loadPlan = async (o: JobObject): Promise<JobPlan | null> => (await o.storage.get<JobPlan>(PLAN_KEY)) ?? null;
export const savePlan = (o: JobObject, plan: JobPlan): Promise<void> => o.storage.put(PLAN_KEY, plan);

export const loadResult = async (o: JobObject, taskId: string): Promise<TaskResult | null> => (await o.storage.get<TaskResult>(resultKey(taskId))) ?? null;
export const saveResult = (o: JobObject, taskId: string, result: TaskResult): Promise<void> => o.storage.put(resultKey(taskId), result);

export function logError(msg: string, o: JobObject, error: unknown): void {
  console.error(JSON.stringify({ level: "error", msg, object_id: o.id, error: error instanceof Error ? error.message : String(error) }));
}
