import { createMiddleware } from "hono/factory";
import { verifyRendererJobToken, verifyRendererTaskToken } from "../artifacts/links";
import type { AppEnv } from "../hono-env";
import { ApiError } from "../lib/api-error";

/**
 * Renderer callbacks and uploads: `Authorization: Bearer <token>` where the token is the per-job token handed
 * out at dispatch (derived from LINK_SIGNING_KEY and the job id, so it grants that one job only). A token made
 * with LINK_SIGNING_KEY_PREVIOUS is accepted too, so jobs running across a key rotation keep reporting.
 */
export const rendererAuth = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.env.LINK_SIGNING_KEY;
  const match = /^Bearer\s+(\S+)$/i.exec((c.req.header("Authorization") ?? "").trim());
  const jobId = c.req.param("id") ?? "";
  if (!key || !match || !(await verifyRendererJobToken({ LINK_SIGNING_KEY: key, LINK_SIGNING_KEY_PREVIOUS: c.env.LINK_SIGNING_KEY_PREVIOUS }, jobId, match[1]!))) {
    throw new ApiError(401, "unauthorized", "Renderer calls need Authorization: Bearer <the job's renderer token>.", {}, {
      "WWW-Authenticate": 'Bearer realm="renderer"',
    });
  }
  await next();
});

/**
 * The storage routes (upload modes "presigned" and "worker"). On `/jobs/{id}/tasks/{task}/attempts/{attempt}/...`
 * the token is that attempt's storage token (links.ts' rendererTaskToken), which the job's token is not: what the
 * attempt may touch is then checked per name (task-storage-scope.ts). On the job-wide paths of before per-task
 * scope, the job's token, as above; those serve only attempts dispatched before it (legacy, see
 * task-storage-scope.ts) and go with the next release.
 */
export const rendererStorageAuth = createMiddleware<AppEnv>(async (c, next) => {
  const task = c.req.param("task");
  if (task === undefined) return rendererAuth(c, next);
  const key = c.env.LINK_SIGNING_KEY;
  const match = /^Bearer\s+(\S+)$/i.exec((c.req.header("Authorization") ?? "").trim());
  const attempt = attemptParam(c.req.param("attempt"));
  const env = { LINK_SIGNING_KEY: key!, LINK_SIGNING_KEY_PREVIOUS: c.env.LINK_SIGNING_KEY_PREVIOUS };
  if (!key || !match || attempt === null || !(await verifyRendererTaskToken(env, c.req.param("id") ?? "", task, attempt, match[1]!))) {
    throw new ApiError(401, "unauthorized", "Task storage calls need Authorization: Bearer <the storage token of this task attempt>, as given in the task's upload target.", {}, {
      "WWW-Authenticate": 'Bearer realm="renderer"',
    });
  }
  await next();
});

/** An attempt number in a path: a whole number from 1, else null. */
export function attemptParam(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,8}$/.test(raw)) return null;
  return Number(raw);
}
