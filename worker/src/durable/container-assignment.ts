/**
 * What a task's container instance decides about its own life, apart from the Container class (which cannot be
 * constructed without a container runtime, so tests drive these with real Durable Object storage and the real
 * JobState namespace instead). The instance stores the task it runs; the job's object is the one that knows
 * whether that task still runs.
 */

/** The task an instance runs (stored, because the object may be evicted and woken by its alarm). */
export interface Assignment {
  job_id: string;
  task_id: string;
  attempt: number;
}

/**
 * The instance's own storage: only the assignment lives here. The part of Durable Object storage used, spelled out
 * so that this module needs no Workers types (the Container calls run against a renderer in Node tests too).
 */
export interface AssignmentStorage {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put<T>(key: string, value: T): Promise<void>;
  delete(key: string): Promise<boolean>;
}

/** The job's Durable Object as seen from one of its task's instances. */
export interface TaskOwner {
  isTaskRunning(taskId: string, attempt: number): Promise<boolean>;
  taskLost(taskId: string, attempt: number, reason: string): Promise<void>;
}

/** Finds a job's object (in the Worker: `JOB_STATE.get(idFromName(job_id))`). */
export type OwnerOf = (jobId: string) => TaskOwner;

const ASSIGNMENT_KEY = "assignment";

export const LOST_REASON = "the renderer's container stopped while the task was running";

export async function assign(storage: AssignmentStorage, assignment: Assignment): Promise<void> {
  await storage.put(ASSIGNMENT_KEY, assignment);
}

export async function currentAssignment(storage: AssignmentStorage): Promise<Assignment | null> {
  return (await storage.get<Assignment>(ASSIGNMENT_KEY)) ?? null;
}

const sameAssignment = (a: Assignment, b: Assignment): boolean => a.job_id === b.job_id && a.task_id === b.task_id && a.attempt === b.attempt;

/**
 * The instance's task ended and the job's object handed the instance its next task (a re-cut's one short after
 * its analysis: orchestration/task-handoff.ts): the stored assignment becomes that task's, so the activity check
 * asks about the task now running and a stop reports that one lost. Only when `from` is still the assignment: an
 * instance whose task was already forgotten (stopped, reported lost) takes nothing over (false).
 */
export async function moveAssignment(storage: AssignmentStorage, from: Assignment, to: Assignment): Promise<boolean> {
  const now = await currentAssignment(storage);
  if (!now || !sameAssignment(now, from)) return false;
  await storage.put(ASSIGNMENT_KEY, to);
  return true;
}

/** The task ended (done, failed, cancelled, given up): forget it, so that stopping the instance reports nothing. */
export async function unassign(storage: AssignmentStorage): Promise<void> {
  await storage.delete(ASSIGNMENT_KEY);
}

/**
 * The activity timer ran out (it counts only requests into the container, and a task's reports go out): keep
 * the instance while the job's object still runs this attempt, otherwise forget the task and stop. An instance
 * without an assignment has nothing to do and stops too.
 */
export async function onActivityExpiry(storage: AssignmentStorage, ownerOf: OwnerOf): Promise<"renew" | "stop"> {
  const assignment = await currentAssignment(storage);
  if (assignment && (await ownerOf(assignment.job_id).isTaskRunning(assignment.task_id, assignment.attempt))) return "renew";
  await unassign(storage);
  return "stop";
}

/** How the stop of an instance was handled: nothing to tell, the job was told, or the call failed (try again). */
export type StopNotice = "none" | "told" | "retry";

/** Seconds between attempts at telling the job its task was lost (the instance's alarm runs them). */
export const LOST_NOTICE_RETRY_SECONDS = 30;
/**
 * Attempts at the notice before the instance gives up: by then (20 x 30 s) the job's own watchdog (WATCHDOG_SECONDS,
 * 10 min) has found the task silent and retried it, so the notice would change nothing.
 */
export const LOST_NOTICE_ATTEMPTS = 20;

/**
 * The container stopped. With an assignment still stored, nobody ended the task (crash, OOM, eviction without
 * SIGTERM handling): the job's object hears that the attempt was lost (it ignores a superseded attempt). The
 * assignment is forgotten only once the job heard it: if the call fails (the job's object is being reset by a
 * deploy, a network fault), the assignment stays and the caller tries again from the instance's alarm.
 */
export async function onContainerStopped(storage: AssignmentStorage, ownerOf: OwnerOf): Promise<StopNotice> {
  const assignment = await currentAssignment(storage);
  if (!assignment) return "none";
  try {
    await ownerOf(assignment.job_id).taskLost(assignment.task_id, assignment.attempt, LOST_REASON);
  } catch (error) {
    console.warn(JSON.stringify({ level: "warn", msg: "lost-task notice failed; will retry", ...assignment, error: String(error) }));
    return "retry";
  }
  // Only this assignment: a newer one stored meanwhile (the object reused for the task's next start) stays.
  const now = await currentAssignment(storage);
  if (now && sameAssignment(now, assignment)) await unassign(storage);
  return "told";
}

/** An instance's whole storage, as clearing it needs it. */
export interface InstanceStorage extends AssignmentStorage {
  deleteAll(): Promise<void>;
  getAlarm(): Promise<number | null>;
}

/**
 * Clears an instance's storage once its life is over, so no object is left holding data: there is one object per
 * task attempt (`<job_id>.<task_id>.a<attempt>`), never used again once that attempt ended. Called after the
 * Container library's alarm, which is its last word: by then the container has stopped, the library has written
 * its final state and, with nothing scheduled, deleted its alarm. Nothing is cleared while the container runs,
 * while a task is still assigned (its loss is reported first, onContainerStopped), or while an alarm is set (the
 * library still has work; and deleteAll deletes the alarm too from compatibility date 2026-02-24 on).
 */
export async function clearEndedInstance(storage: InstanceStorage, containerRunning: boolean): Promise<boolean> {
  if (containerRunning) return false;
  if (await currentAssignment(storage)) return false;
  if ((await storage.getAlarm()) !== null) return false;
  await storage.deleteAll();
  return true;
}
