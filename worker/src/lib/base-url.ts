import type { Context } from "hono";
import { workerConfig } from "../config";
import type { AppEnv } from "../hono-env";

/** Absolute base for links: PUBLIC_BASE_URL when configured, else the origin the client used. */
export function publicBaseUrl(c: Context<AppEnv>): string {
  return workerConfig(c.env).publicBaseUrl ?? new URL(c.req.url).origin;
}
