import type { OpenAPIHono } from "@hono/zod-openapi";
import type { z } from "zod";
import { componentSchemas, requestSchemaName, responseSchemaName } from "./components";
import { API_DOCUMENT_VERSION, apiDescription } from "./description";
import type { Tag } from "./declare-route";
import { componentRef, inlineSchema, type JsonSchema, type SchemaIo } from "./json-schema";
import { webhookPathItems } from "./webhooks";

/** What an app's registry holds: every route declared on it and on the routers it mounts. */
export type RouteRecords = OpenAPIHono["openAPIRegistry"]["definitions"];
type RouteConfig = Extract<RouteRecords[number], { type: "route" }>["route"];

export type OpenApiDocument = JsonSchema & { openapi: string; paths: Record<string, Record<string, JsonSchema>> };

const TAGS: Array<{ name: Tag; description: string }> = [
  { name: "jobs", description: "Create, follow, cancel and rate highlight jobs; fetch their results." },
  { name: "videos", description: "Look at a VOD before spending credits." },
  { name: "pricing", description: "Public price table." },
  { name: "webhooks", description: "Delivery log of a job's webhooks; redelivery." },
  { name: "files", description: "Downloads behind the links of results and webhooks." },
  { name: "operator", description: "Operator API (accounts, keys, credits, plans); Authorization: Bearer <ADMIN_TOKEN>." },
  { name: "reference", description: "This document and its HTML rendering." },
];

const SECURITY_SCHEMES: Record<string, JsonSchema> = {
  ApiKeyAuth: {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: "The account's API key (created in the dashboard's API Access section; shown once).",
  },
  AdminBearer: { type: "http", scheme: "bearer", description: "Operator token (the Worker's ADMIN_TOKEN secret)." },
  ZipToken: {
    type: "apiKey",
    in: "query",
    name: "token",
    description: "Token of a results/webhook `zip_url`: grants that one job's ZIP until links_expire_at.",
  },
};

const isZod = (value: unknown): value is z.ZodType => typeof value === "object" && value !== null && "safeParse" in value;

/** A schema of a request or an answer: a named contract schema as its `$ref`, any other zod schema inlined. */
function schemaOf(schema: unknown, io: SchemaIo): unknown {
  if (!isZod(schema)) return schema;
  const name = io === "input" ? requestSchemaName(schema) : responseSchemaName(schema);
  return name ? componentRef(name) : inlineSchema(schema, io);
}

/** One parameter per property of a declared zod object, its description lifted out of the schema. */
function zodParameters(object: unknown, location: "path" | "query"): JsonSchema[] {
  if (!isZod(object)) return [];
  const schema = inlineSchema(object, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: location,
      required: location === "path" || (schema.required?.includes(name) ?? false),
      ...(description ? { description } : {}),
      schema: propertySchema,
    };
  });
}

function operationObject(route: RouteConfig): JsonSchema {
  const parameters = [
    ...zodParameters(route.request?.params, "path"),
    ...zodParameters(route.request?.query, "query"),
    ...((route.parameters ?? []) as unknown as JsonSchema[]),
  ];
  const body = route.request?.body;
  const responses = Object.fromEntries(
    Object.entries(route.responses).map(([status, response]) => {
      const content = (response as { content?: Record<string, JsonSchema> }).content;
      if (!content) return [status, response];
      const converted = Object.fromEntries(Object.entries(content).map(([type, media]) => [type, { ...media, schema: schemaOf(media.schema, "output") }]));
      return [status, { ...response, content: converted }];
    }),
  );
  return {
    operationId: route.operationId,
    tags: route.tags,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    security: route.security,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              Object.entries(body.content).map(([type, media]) => [type, { ...media, schema: schemaOf((media as JsonSchema).schema, "input") }]),
            ),
          },
        }
      : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of the routes an app declared (its @hono/zod-openapi registry, in the order they were
 * mounted). Schemas are converted by zod itself (json-schema.ts), so the document shows what the contract's zod
 * schemas accept and answer, in the draft 2020-12 dialect OpenAPI 3.1 uses. The library's own generator
 * (getOpenAPI31Document) is not used: it inlines every schema unless the contract names them through its zod
 * extension, and gives string query parameters the parsed value's default (`"default": 1` on a `type: string`).
 */
export function buildOpenApiDocument(definitions: RouteRecords): OpenApiDocument {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const definition of definitions) {
    if (definition.type !== "route") continue;
    const { route } = definition;
    const item = (paths[route.path] ??= {});
    if (item[route.method]) throw new Error(`${route.method.toUpperCase()} ${route.path} is declared twice`);
    item[route.method] = operationObject(route);
  }
  return {
    openapi: "3.1.1",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Video Highlight API",
      version: API_DOCUMENT_VERSION,
      summary: "Highlight reels, vertical shorts with captions, titles and tags from public Twitch VODs.",
      description: apiDescription(),
    },
    servers: [{ url: "/", description: "This deployment." }],
    tags: TAGS,
    security: [{ ApiKeyAuth: [] }],
    paths,
    webhooks: webhookPathItems(),
    components: {
      schemas: componentSchemas(),
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/** The document, its serialised form and a strong ETag of it. */
export interface ServedDocument {
  document: OpenApiDocument;
  json: string;
  etag: string;
}

export async function serveDocument(definitions: RouteRecords): Promise<ServedDocument> {
  const document = buildOpenApiDocument(definitions);
  const json = JSON.stringify(document);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(json));
  const hex = Array.from(new Uint8Array(digest).slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
  return { document, json, etag: `"${hex}"` };
}
