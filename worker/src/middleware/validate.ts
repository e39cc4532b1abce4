import type { Context } from "hono";
import type { z } from "zod";
import type { ErrorDetailItem } from "../../../common/contract";
import { validationError } from "../lib/api-error";
import { clientErrorMap, issuesToDetail } from "../lib/zod-issues";

/** The inputs a route can declare a zod schema for (@hono/zod-openapi validates each before the handler). */
export type InputTarget = "json" | "query" | "param" | "header";

export type DeclaredInputs = Partial<Record<InputTarget, z.ZodType>>;

/** What @hono/zod-openapi hands its hook after checking one input: the parsed value, or the raw one and why not. */
export type CheckedInput = { target: string } & ({ success: true; data: unknown } | { success: false; data?: unknown; error: z.ZodError });

/**
 * The hook of every declared route: a failure is a 422 listing every issue with its dotted field path, in the
 * messages written for API clients (clientErrorMap). The library checks with zod's default messages, so a failed
 * input is checked once more with ours; a valid one costs nothing extra. Query fields are reported by name (no
 * "body" prefix).
 */
export function validationHook(inputs: DeclaredInputs) {
  return (result: CheckedInput, c: Context): undefined => {
    const schema = inputs[result.target as InputTarget];
    if (!schema) return undefined;
    if (result.target === "query") {
      const { single, repeated } = onceEach(c.req.queries());
      if (result.success && repeated.length === 0) return undefined;
      throw failure(schema, single, repeated);
    }
    if (result.success) return undefined;
    throw failure(schema, result.data, []);
  };
}

function failure(schema: z.ZodType, value: unknown, repeated: ErrorDetailItem[]) {
  const parsed = schema.safeParse(value, { error: clientErrorMap });
  const others = parsed.success ? [] : issuesToDetail(parsed.error.issues).filter((d) => !repeated.some((r) => r.field === d.field));
  return validationError([...repeated, ...others]);
}

/**
 * No query parameter of this API is a list, but a repeated one (`?page=1&page=2`) arrives as an array, which the
 * schema would call "must be a string". It is reported as what it is, and the rest of the query is checked with
 * each parameter's first value. A repeated parameter the schema does not know is reported too.
 */
function onceEach(query: Record<string, string[]>): { single: Record<string, string>; repeated: ErrorDetailItem[] } {
  const single: Record<string, string> = {};
  const repeated: ErrorDetailItem[] = [];
  for (const [name, values] of Object.entries(query)) {
    if (values.length > 1) repeated.push({ field: name, message: "must be given once" });
    single[name] = values[0] ?? "";
  }
  return { single, repeated };
}
