import type { Context } from "hono";
import type { AppEnv } from "../hono-env";
import { ApiError } from "../lib/api-error";
import { attemptParam } from "../orchestration/renderer-auth";
import type { StorageAccess, StorageCaller, StorageVerdict } from "../orchestration/task-storage-scope";

/**
 * The storage routes of both upload modes (internal-storage.ts, internal-artifacts.ts) live on two paths:
 *
 *   /internal/jobs/{id}/tasks/{task}/attempts/{attempt}/storage|artifacts/{name}   one task attempt's own files
 *   /internal/jobs/{id}/storage|artifacts/{name}                                   job-wide, legacy (see below)
 *
 * rendererStorageAuth has checked the token for the path; this asks the job's Durable Object whether the caller
 * may touch `name` that way (orchestration/task-storage-scope.ts) and turns a refusal into its answer.
 */
export const TASK_STORAGE_PREFIX = "/jobs/:id/tasks/:task/attempts/:attempt";

/** The caller the path names: a task attempt, or (on the job-wide paths) the job's legacy token. */
function callerOf(c: Context<AppEnv>): StorageCaller {
  const task = c.req.param("task");
  if (task === undefined) return { legacy: true };
  // rendererStorageAuth refused the call already when the attempt is not a whole number.
  return { task_id: task, attempt: attemptParam(c.req.param("attempt"))! };
}

/** Throws the refusal when the caller may not touch `name` in the way `access` says. */
export async function requireStorageAccess(c: Context<AppEnv>, name: string, access: StorageAccess): Promise<void> {
  const jobId = c.req.param("id")!;
  const stub = c.env.JOB_STATE.get(c.env.JOB_STATE.idFromName(jobId));
  // RPC results carry Disposable; the plain union narrows.
  const verdict = (await stub.storageAccess(callerOf(c), name, access)) as StorageVerdict;
  if (!verdict.ok) throw new ApiError(verdict.status, verdict.code, verdict.message, verdict.extra ?? {});
}
