import { createMiddleware } from "hono/factory";
import type { Context, Next } from "hono";
import { verifyRendererJobToken, verifyRendererTaskToken } from "../artifacts/links";
import type { AppEnv } from "../hono-env";
import { ApiError } from "../lib/api-error";
import type { TaskCaller } from "./task-call-scope";

/**
 * Everything a renderer calls lives under one task attempt's own path and takes that attempt's token
 * (links.ts' rendererTaskToken, handed out at dispatch in the task's callback, upload target and AI endpoint):
 *
 *   /internal/jobs/{id}/tasks/{task}/attempts/{attempt}/events          its reports (task-events.ts)
 *   /internal/jobs/{id}/tasks/{task}/attempts/{attempt}/ai/v1/...        Workers AI (internal-ai.ts)
 *   /internal/jobs/{id}/tasks/{task}/attempts/{attempt}/storage|artifacts/{name}   its files
 *
 * The job-wide paths of before (`/jobs/{id}/tasks/{task}/events`, `/jobs/{id}/ai/v1/...`,
 * `/jobs/{id}/storage|artifacts/{name}`) take the job's token (rendererJobToken) and serve only attempts claimed
 * by the previous Worker version (task-call-scope.ts, task-storage-scope.ts): remove them with the next release.
 * Tokens made with LINK_SIGNING_KEY_PREVIOUS are accepted too, so tasks running across a key rotation keep working.
 */

const unauthorized = (message: string) => new ApiError(401, "unauthorized", message, {}, { "WWW-Authenticate": 'Bearer realm="renderer"' });

function bearer(c: Context<AppEnv>): string | null {
  return /^Bearer\s+(\S+)$/i.exec((c.req.header("Authorization") ?? "").trim())?.[1] ?? null;
}

function keys(c: Context<AppEnv>) {
  return { LINK_SIGNING_KEY: c.env.LINK_SIGNING_KEY!, LINK_SIGNING_KEY_PREVIOUS: c.env.LINK_SIGNING_KEY_PREVIOUS };
}

/** The job-wide token on a legacy path: derived from LINK_SIGNING_KEY and the job id, so it grants that one job only. */
async function jobToken(c: Context<AppEnv>, next: Next) {
  const token = bearer(c);
  if (!c.env.LINK_SIGNING_KEY || !token || !(await verifyRendererJobToken(keys(c), c.req.param("id") ?? "", token))) {
    throw unauthorized("Calls on this job-wide path need Authorization: Bearer <the job's renderer token> (tasks dispatched before per-attempt tokens only).");
  }
  await next();
}

/**
 * Checks the token for the path: on a task attempt's path that attempt's token (which the job's token is not),
 * on a job-wide legacy path the job's token. `given` names where the task request carries the URL and token,
 * for the refusal's sentence. What the caller may then do is checked by the route (per name, per event).
 */
const attemptAuth = (given: string) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.param("attempt") === undefined) return jobToken(c, next);
    const token = bearer(c);
    const attempt = attemptParam(c.req.param("attempt"));
    const ok = c.env.LINK_SIGNING_KEY && token && attempt !== null && (await verifyRendererTaskToken(keys(c), c.req.param("id") ?? "", c.req.param("task") ?? "", attempt, token));
    if (!ok) throw unauthorized(`Task calls need Authorization: Bearer <the token of this task attempt>, as given in the task's ${given}.`);
    await next();
  });

/** Task events (routes/task-events.ts). */
export const rendererEventAuth = attemptAuth("callback");
/** Workers AI (routes/internal-ai.ts). */
export const rendererAiAuth = attemptAuth("ai endpoint");
/** The storage routes (upload modes "presigned" and "worker"). */
export const rendererStorageAuth = attemptAuth("upload target");

/** An attempt number in a path: a whole number from 1, else null. */
export function attemptParam(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,8}$/.test(raw)) return null;
  return Number(raw);
}

/** The path every call of one task attempt lives under (Hono pattern, relative to /internal). */
export const TASK_ATTEMPT_PREFIX = "/jobs/:id/tasks/:task/attempts/:attempt";

/** Whom the path speaks for, once the auth above has checked its token: a task attempt, or the job's legacy token. */
export function callerOf(c: Context<AppEnv>): TaskCaller {
  if (c.req.param("attempt") === undefined) return { legacy: true };
  // The auth refused the call already when the attempt is not a whole number.
  return { task_id: c.req.param("task")!, attempt: attemptParam(c.req.param("attempt"))! };
}
