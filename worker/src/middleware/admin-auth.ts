import { createMiddleware } from "hono/factory";
import { ApiError } from "../lib/api-error";
import { timingSafeEqualStrings } from "../lib/crypto";
import type { AppEnv } from "../hono-env";

/** Operator API: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. No token configured: closed. */
export const adminAuth = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.env.ADMIN_TOKEN;
  const header = c.req.header("Authorization") ?? "";
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!expected || !match || !(await timingSafeEqualStrings(match[1]!, expected))) {
    throw new ApiError(401, "unauthorized", "The operator API needs Authorization: Bearer <ADMIN_TOKEN>.", {}, {
      "WWW-Authenticate": 'Bearer realm="admin"',
    });
  }
  await next();
});
