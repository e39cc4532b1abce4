import type { Context } from "hono";
import type { AppEnv } from "../hono-env";

/** Absolute base for links: PUBLIC_BASE_URL when configured, else the origin the client used. */
export function publicBaseUrl(c: Context<AppEnv>): string {
  const configured = c.env.PUBLIC_BASE_URL?.trim().replace(/\/+$/, "");
  return configured || new URL(c.req.url).origin;
}
