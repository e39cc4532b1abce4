import { createMiddleware } from "hono/factory";
import { ApiError } from "../lib/api-error";
import { apiKeyHeader } from "./api-key-header";
import type { AppEnv } from "../hono-env";
import { findAccountByApiKey } from "../storage/accounts";
import { openDb } from "../storage/db";

/** X-API-Key -> account. Keys are looked up by SHA-256; revoked keys no longer match. */
export const apiKeyAuth = createMiddleware<AppEnv>(async (c, next) => {
  const key = apiKeyHeader(c.req.header("X-API-Key"));
  if (!key) throw new ApiError(401, "missing_api_key", "Send your API key in the X-API-Key header.");
  const owner = await findAccountByApiKey(openDb(c.env.DB), key);
  if (!owner) throw new ApiError(401, "invalid_api_key", "The API key is not valid or has been revoked.");
  c.set("account", owner.account);
  c.set("apiKeyId", owner.keyId);
  await next();
});
