import { z } from "zod";

/** A JSON Schema (draft 2020-12) object as OpenAPI 3.1 embeds it. */
export type JsonSchema = Record<string, unknown>;

/** How a schema is read: request bodies and query strings are what clients send, responses what they receive. */
export type SchemaIo = "input" | "output";

export const componentRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/**
 * zod -> JSON Schema for OpenAPI. `$schema`/`$id` are dropped (the document's dialect applies) and response
 * objects do not get `additionalProperties: false`: the API may add response fields within v1, and a client that
 * validates against the document must not break on them.
 */
function convertOptions(io: SchemaIo) {
  return {
    target: "draft-2020-12" as const,
    io,
    unrepresentable: "any" as const,
    override: (ctx: { jsonSchema: JsonSchema }) => {
      if (io === "output" && ctx.jsonSchema.additionalProperties === false) delete ctx.jsonSchema.additionalProperties;
    },
  };
}

function stripDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

/** Named schemas that refer to each other by `#/components/schemas/<name>`. */
export function namedSchemas(schemas: Record<string, z.ZodType>, io: SchemaIo): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const { schemas: out } = z.toJSONSchema(registry, {
    ...convertOptions(io),
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  return Object.fromEntries(Object.entries(out).map(([id, schema]) => [id, stripDialect(schema)]));
}

/** One schema on its own, inlined (query parameters, small ad-hoc answers). */
export function inlineSchema(schema: z.ZodType, io: SchemaIo): JsonSchema {
  return stripDialect(z.toJSONSchema(schema, convertOptions(io)) as JsonSchema);
}
