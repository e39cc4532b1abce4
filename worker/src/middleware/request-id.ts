import { createMiddleware } from "hono/factory";
import { newRequestId } from "../domain/ids";
import type { AppEnv } from "../hono-env";

/** Every answer carries X-Request-Id; a 500 quotes it so a client report can be matched to the log line. */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const id = newRequestId();
  c.set("requestId", id);
  await next();
  c.res.headers.set("X-Request-Id", id);
});
