import { createMiddleware } from "hono/factory";
import { ApiError, validationError } from "../lib/api-error";
import { inspectJsonText, MAX_JSON_DEPTH, type JsonTextProblem } from "../lib/json-text";
import { readBodyText } from "../lib/request-body-text";
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

function refusal(problem: JsonTextProblem): ApiError {
  if (problem.kind === "syntax") return new ApiError(400, "invalid_json", `The request body is not valid JSON: ${problem.reason}.`);
  if (problem.kind === "duplicate_key") {
    return validationError([{ field: problem.path, message: "is given more than once" }]);
  }
  return validationError([{ field: problem.path, message: `nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep` }]);
}

/**
 * Requires a JSON body and reads it once: a missing or other content type is 415; a gzip or deflate body is
 * inflated (another Content-Encoding is 415); text that is not UTF-8 JSON is 400 invalid_json with where it
 * breaks; a member given twice or nesting past MAX_JSON_DEPTH is 422 naming it (lib/json-text.ts says why). The
 * text is left in Hono's body cache, so c.req.json() and the declared validators parse exactly what was checked.
 * The shape is checked later (422).
 */
export const requireJson = createMiddleware<AppEnv>(async (c, next) => {
  const mediaType = (c.req.header("Content-Type") ?? "").split(";")[0]!.trim();
  if (!JSON_MEDIA_TYPE.test(mediaType)) throw unsupportedMediaType(mediaType);
  const text = await readBodyText(c.req.raw, MAX_BODY_BYTES);
  const problem = inspectJsonText(text);
  if (problem) throw refusal(problem);
  // Hono keeps the promise of each body reading here (its type says the value).
  (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
  await next();
});
