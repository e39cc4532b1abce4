import { createMiddleware } from "hono/factory";
import { verifyRendererJobToken } from "../artifacts/links";
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
