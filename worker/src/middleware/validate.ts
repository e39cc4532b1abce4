import { validator } from "hono/validator";
import type { z } from "zod";
import type { ErrorDetailItem } from "../../../common/contract";
import { validationError } from "../lib/api-error";
import { clientErrorMap, issuesToDetail } from "../lib/zod-issues";

type Target = "json" | "query" | "param";

/**
 * Hono validator backed by a zod schema: the parsed value is available as `c.req.valid(target)`; a failure is
 * a 422 listing every issue with its dotted field path. Query fields are reported by name (no "body" prefix).
 */
export function validate<T extends Target, S extends z.ZodType>(target: T, schema: S) {
  return validator(target, (value) => {
    const { single, repeated } = target === "query" ? onceEach(value as Record<string, string | string[]>) : { single: value, repeated: [] };
    const parsed = schema.safeParse(single, { error: clientErrorMap });
    if (repeated.length > 0 || !parsed.success) {
      const others = parsed.success ? [] : issuesToDetail(parsed.error.issues).filter((d) => !repeated.some((r) => r.field === d.field));
      throw validationError([...repeated, ...others]);
    }
    return parsed.data as z.output<S>;
  });
}

/**
 * No query parameter of this API is a list, but Hono hands a repeated one (`?page=1&page=2`) over as an array,
 * which the schema would call "must be a string". It is reported as what it is, and the rest of the query is
 * checked with each parameter's first value.
 */
function onceEach(query: Record<string, string | string[]>): { single: Record<string, string>; repeated: ErrorDetailItem[] } {
  const single: Record<string, string> = {};
  const repeated: ErrorDetailItem[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) {
      if (value.length > 1) repeated.push({ field: name, message: "must be given once" });
      single[name] = value[0] ?? "";
    } else single[name] = value;
  }
  return { single, repeated };
}
