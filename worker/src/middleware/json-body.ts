import { createMiddleware } from "hono/factory";
import { ApiError } from "../lib/api-error";
import type { AppEnv } from "../hono-env";
import { limitBody as limitBodyTo } from "./body-limit";

/** Job requests are small (a few KiB even with 10 manual highlights); anything bigger is a mistake or abuse. */
export const MAX_BODY_BYTES = 64 * 1024;

export const limitBody = limitBodyTo(MAX_BODY_BYTES, () => {
  throw new ApiError(413, "payload_too_large", `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
});

const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json$/i;

export function unsupportedMediaType(mediaType: string): ApiError {
  return new ApiError(415, "unsupported_media_type", `Send the body as JSON with Content-Type: application/json${mediaType ? ` (got ${mediaType})` : ""}.`);
}

/**
 * Requires a JSON body and parses it once (Hono caches the parsed value for c.req.json()). A missing or other
 * content type is 415, text that is not JSON is 400 invalid_json; the shape is checked later (422).
 */
export const requireJson = createMiddleware<AppEnv>(async (c, next) => {
  const mediaType = (c.req.header("Content-Type") ?? "").split(";")[0]!.trim();
  if (!JSON_MEDIA_TYPE.test(mediaType)) throw unsupportedMediaType(mediaType);
  try {
    await c.req.json();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const reason = error instanceof Error ? `: ${error.message}` : "";
    throw new ApiError(400, "invalid_json", `The request body is not valid JSON${reason}.`);
  }
  await next();
});
