import type { Context, MiddlewareHandler } from "hono";
import { discardRest } from "../lib/discard-body";
import type { AppEnv } from "../hono-env";

/**
 * Refuses a body larger than `maxSize` bytes with the error `tooLarge` throws, and buffers a smaller one for the
 * route (c.req.json(), formData()). A declared Content-Length over the limit is refused before the body is
 * touched: a body left alone (neither read nor cancelled) does not disturb the connection, as a 401 before the
 * body shows. A chunked body is counted as it arrives; once over the limit the rest is read and discarded before
 * the 413 (lib/discard-body.ts says why). hono/body-limit answered mid-body, and cancelled a declared one.
 */
export function limitBody(maxSize: number, tooLarge: (c: Context<AppEnv>) => never): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    const declared = c.req.raw.headers.has("transfer-encoding") ? null : c.req.raw.headers.get("content-length");
    if (declared !== null) {
      if (Number(declared) > maxSize) tooLarge(c);
      return next();
    }
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxSize) {
        await discardRest(reader);
        tooLarge(c);
      }
      chunks.push(value);
    }
    const buffered = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      buffered.set(chunk, offset);
      offset += chunk.byteLength;
    }
    c.req.raw = new Request(c.req.raw, { body: buffered });
    return next();
  };
}
