import { createMiddleware } from "hono/factory";
import { rendererJobToken } from "../artifacts/links";
import type { AppEnv } from "../hono-env";
import { ApiError } from "../lib/api-error";
import { timingSafeEqualStrings } from "../lib/crypto";

/**
 * Renderer callbacks and uploads: `Authorization: Bearer <token>` where the token is the per-job token handed
 * out at dispatch (derived from LINK_SIGNING_KEY and the job id, so it grants that one job only).
 */
export const rendererAuth = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.env.LINK_SIGNING_KEY;
  const match = /^Bearer\s+(\S+)$/i.exec((c.req.header("Authorization") ?? "").trim());
  const jobId = c.req.param("id") ?? "";
  if (!key || !match || !(await timingSafeEqualStrings(match[1]!, await rendererJobToken({ LINK_SIGNING_KEY: key }, jobId)))) {
    throw new ApiError(401, "unauthorized", "Renderer calls need Authorization: Bearer <the job's renderer token>.", {}, {
      "WWW-Authenticate": 'Bearer realm="renderer"',
    });
  }
  await next();
});
