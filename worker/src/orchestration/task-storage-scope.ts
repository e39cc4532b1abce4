import { taskFiles } from "../../../common/plan/task-files";
import { isTerminal } from "./job-lifecycle";
import { loadBook, loadPlan, loadState, type JobObject } from "./job-storage";
import type { TaskRecord } from "./task-book";
import { currentAttempt as current, refuse, type CallVerdict, type TaskCaller } from "./task-call-scope";

/**
 * What one task attempt may do in its job's folder (issue 23, point 6): the renderer parses media from the
 * internet, so a task's storage token opens only the files that task makes, and only while its attempt is the
 * current one. The names come from the task's spec in the stored plan (common/plan/task-files.ts, the functions
 * the renderer names its files with); the storage routes (routes/task-storage-access.ts) ask this before they
 * presign, store, read or abort anything. Runs in the job's Durable Object, next to the book and the plan.
 *
 *   write    put, a part, create or complete a multipart upload: a name the task writes; its attempt current
 *   read     get, head: a name it writes or reads (a reel's join reads its parts); its attempt current
 *   cleanup  abort an unfinished multipart upload of a name it writes, in any state of the job (a cancelled task
 *            cleaning up is welcome; an abort ends an upload and never touches a stored object)
 */
export type StorageAccess = "write" | "read" | "cleanup";

/** The answer: allowed, or the refusal the route sends as it is (status, code, one sentence, extra fields). */
export type StorageVerdict = CallVerdict;

/** Who asks: one attempt of one task (its own token), or a job-wide token (legacy, see legacyStorageAccess). */
export type StorageCaller = TaskCaller;

export async function storageAccess(o: JobObject, caller: StorageCaller, name: string, access: StorageAccess): Promise<StorageVerdict> {
  const state = await loadState(o);
  if (!state) return refuse(404, "job_not_found", "No job with this id exists.");
  if (access !== "cleanup" && isTerminal(state.status)) {
    return refuse(409, "job_not_running", `Files are accepted only while the job is running; it is ${state.status}.`, { status: state.status });
  }
  const book = await loadBook(o);
  return "legacy" in caller ? legacyStorageAccess(o, book, name, access) : taskStorageAccess(o, book, caller, name, access);
}

async function taskStorageAccess(o: JobObject, book: TaskRecord[], caller: { task_id: string; attempt: number }, name: string, access: StorageAccess): Promise<StorageVerdict> {
  const task = book.find((t) => t.id === caller.task_id);
  const files = task ? taskFiles(task, task.kind === "analyse" ? null : await loadPlan(o)) : null;
  if (!task || !files) return refuse(404, "task_not_found", `This job has no task ${caller.task_id}.`);
  if (access !== "cleanup" && (task.attempt !== caller.attempt || !current(task))) {
    return refuse(409, "task_superseded", `Attempt ${caller.attempt} of task ${caller.task_id} is no longer current; stop it.`);
  }
  const allowed = access === "read" ? [...files.writes, ...files.reads] : files.writes;
  if (!allowed.includes(name)) {
    const verb = access === "read" ? "read" : "write";
    return refuse(403, "outside_task_scope", `Task ${caller.task_id} may not ${verb} ${name}: a task's storage token opens only the files that task makes${access === "read" ? " or reads" : ""}.`, {
      task_id: caller.task_id,
      allowed,
    });
  }
  return { ok: true };
}

/**
 * The job-wide paths (/internal/jobs/{id}/storage/{name}, /artifacts/{name}) with the job's token, as Workers
 * before per-task scope handed them out. A task attempt in flight across the deploy that brought per-task scope
 * still holds such a URL; so the job's token is served for the files of this job's current attempts that were
 * claimed before it (records without `scoped_storage`), and for nothing once they have ended. Every attempt claimed
 * since has its own URL and token, and its files are never open to the job's token. Remove with the next release.
 */
async function legacyStorageAccess(o: JobObject, book: TaskRecord[], name: string, access: StorageAccess): Promise<StorageVerdict> {
  const legacy = book.filter((t) => !t.scoped_storage && (access === "cleanup" || current(t)));
  const plan = legacy.some((t) => t.kind !== "analyse") ? await loadPlan(o) : null;
  const names = new Set(legacy.flatMap((t) => {
    const files = taskFiles(t, plan);
    return files ? (access === "read" ? [...files.writes, ...files.reads] : files.writes) : [];
  }));
  if (names.has(name)) return { ok: true };
  return refuse(403, "outside_task_scope", `No task of this job that still uses the job-wide storage token ${access === "read" ? "reads" : "writes"} ${name}: each task now stores through its own URL and token, given in its upload target.`);
}
