import { createMiddleware } from "hono/factory";
import { newRequestId } from "../domain/ids";
import type { AppEnv } from "../hono-env";
import { jobIdOfPath, logEvent } from "../lib/log";

/**
 * Every answer carries X-Request-Id (a 500 quotes it so a client report can be matched to the log line), and
 * every request leaves one JSON access-log line with its request id, job id, status and duration.
 */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const id = newRequestId();
  const started = Date.now();
  c.set("requestId", id);
  await next();
  c.res.headers.set("X-Request-Id", id);
  const status = c.res.status;
  logEvent(status >= 500 ? "error" : "info", "request", {
    request_id: id,
    job_id: jobIdOfPath(c.req.path),
    method: c.req.method,
    path: c.req.path,
    status,
    duration_ms: Date.now() - started,
  });
});
