import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { ApiError } from "../lib/api-error";
import type { AppEnv } from "../hono-env";
import { unsupportedMediaType } from "./json-body";

export function errorResponse(c: Context, error: ApiError): Response {
  // A 422's problems are also at the top level: the specification calls them "the detail field" of a 422
  // without saying where it sits, and clients of other services look there.
  const topLevel = error.status === 422 && Array.isArray(error.extra.detail) ? { detail: error.extra.detail } : {};
  const body = { error: { code: error.code, message: error.message, ...error.extra }, ...topLevel };
  return c.json(body, error.status, error.headers);
}

/**
 * The one place where failures become answers. ApiError is an expected outcome; anything else is a bug or an
 * outage: logged as one JSON line with the request id and answered 500 without internals.
 */
export const onError: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof ApiError) return errorResponse(c, err);
  if (err instanceof HTTPException && err.status === 415) {
    // @hono/zod-openapi's own media-type check of a declared JSON body, stricter about parameters than
    // requireJson (which runs first): `application/json;` with nothing after the semicolon, say.
    return errorResponse(c, unsupportedMediaType(c.req.header("Content-Type") ?? ""));
  }
  if (err instanceof HTTPException && err.status < 500) {
    return errorResponse(c, new ApiError(err.status === 413 ? 413 : 400, err.status === 413 ? "payload_too_large" : "bad_request", err.message || "Bad request."));
  }
  const requestId = c.get("requestId") ?? "unknown";
  console.error(
    JSON.stringify({
      level: "error",
      msg: "unhandled error",
      request_id: requestId,
      method: c.req.method,
      path: c.req.path,
      error: err instanceof Error ? err.message : String(err),
      stack: err instanceof Error ? err.stack : undefined,
    }),
  );
  const res = errorResponse(
    c,
    new ApiError(500, "internal_error", "Something went wrong on our side. Quote the request_id if you report it.", {
      request_id: requestId,
    }),
  );
  res.headers.set("X-Request-Id", requestId);
  return res;
};

export const onNotFound: NotFoundHandler<AppEnv> = (c) =>
  errorResponse(c, new ApiError(404, "not_found", `No route for ${c.req.method} ${c.req.path}.`));

/**
 * A path that exists, asked with a method it does not serve: 405 with `Allow`. OPTIONS is the exception: it asks
 * exactly that question (RFC 9110 §9.3.7), so it is answered 204 with `Allow` and no body, without an API key.
 * No CORS headers: the API key is a server-side secret, so browsers are not meant to call the API directly.
 */
export function onMethodNotAllowed(c: Context, methods: string[]): Response {
  // Allow lists OPTIONS too (the resource answers it); the message names the methods that do something.
  const allow = [...methods, "OPTIONS"].join(", ");
  // A new Response: c.body() would carry over the 404 answer's Content-Type.
  if (c.req.method === "OPTIONS") return new Response(null, { status: 204, headers: { Allow: allow } });
  return errorResponse(
    c,
    new ApiError(405, "method_not_allowed", `${c.req.method} is not allowed on ${c.req.path}; use ${methods.join(", ")}.`, {}, { Allow: allow }),
  );
}
