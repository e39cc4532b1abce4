import type { Context } from "hono";
import type { z } from "zod";
import { validationError } from "./api-error";
import { clientErrorMap, issuesToDetail } from "./zod-issues";

/** A request's JSON body checked against a schema: 422 naming `body` when it is not JSON, each field otherwise. */
export async function parseJsonBody<S extends z.ZodType>(c: Context, schema: S, what: string): Promise<z.infer<S>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw validationError([{ field: "body", message: `must be a JSON ${what}` }]);
  }
  const parsed = schema.safeParse(body, { error: clientErrorMap });
  if (!parsed.success) throw validationError(issuesToDetail(parsed.error.issues));
  return parsed.data;
}
