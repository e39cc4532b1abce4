import { validator } from "hono/validator";
import type { z } from "zod";
import { validationError } from "../lib/api-error";
import { clientErrorMap, issuesToDetail } from "../lib/zod-issues";

type Target = "json" | "query" | "param";

/**
 * Hono validator backed by a zod schema: the parsed value is available as `c.req.valid(target)`; a failure is
 * a 422 listing every issue with its dotted field path. Query fields are reported by name (no "body" prefix).
 */
export function validate<T extends Target, S extends z.ZodType>(target: T, schema: S) {
  return validator(target, (value) => {
    const parsed = schema.safeParse(value, { error: clientErrorMap });
    if (!parsed.success) throw validationError(issuesToDetail(parsed.error.issues));
    return parsed.data as z.output<S>;
  });
}
