import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../hono-env";

/**
 * Answers nobody may keep: every answer that does not set its own Cache-Control gets `no-store`. The API key
 * travels in X-API-Key, not Authorization, so HTTP caches (RFC 9111 §3.5) would not know these answers are per
 * client; job records, results with their signed links and errors are. Routes that may be cached say so
 * themselves (the OpenAPI document, the reference page, file links). `nosniff` keeps a browser from reading a
 * JSON answer as anything else.
 */
export const cacheHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
  c.res.headers.set("X-Content-Type-Options", "nosniff");
});
