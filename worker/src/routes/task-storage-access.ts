import type { Context } from "hono";
import type { AppEnv } from "../hono-env";
import { ApiError } from "../lib/api-error";
import { callerOf, TASK_ATTEMPT_PREFIX } from "../orchestration/renderer-auth";
import type { StorageAccess, StorageVerdict } from "../orchestration/task-storage-scope";

/**
 * The storage routes of both upload modes (internal-storage.ts, internal-artifacts.ts) live on two paths:
 *
 *   /internal/jobs/{id}/tasks/{task}/attempts/{attempt}/storage|artifacts/{name}   one task attempt's own files
 *   /internal/jobs/{id}/storage|artifacts/{name}                                   job-wide, legacy (see below)
 *
 * rendererStorageAuth has checked the token for the path; this asks the job's Durable Object whether the caller
 * may touch `name` that way (orchestration/task-storage-scope.ts) and turns a refusal into its answer.
 */
export const TASK_STORAGE_PREFIX = TASK_ATTEMPT_PREFIX;

/** Throws the refusal when the caller may not touch `name` in the way `access` says. */
export async function requireStorageAccess(c: Context<AppEnv>, name: string, access: StorageAccess): Promise<void> {
  const jobId = c.req.param("id")!;
  const stub = c.env.JOB_STATE.get(c.env.JOB_STATE.idFromName(jobId));
  // RPC results carry Disposable; the plain union narrows.
  const verdict = (await stub.storageAccess(callerOf(c), name, access)) as StorageVerdict;
  if (!verdict.ok) throw new ApiError(verdict.status, verdict.code, verdict.message, verdict.extra ?? {});
}
