import { componentSchemas } from "./components";
import { API_DOCUMENT_VERSION, apiDescription } from "./description";
import { errorResponses } from "./error-catalog";
import { inlineSchema, componentRef, type JsonSchema } from "./json-schema";
import { OPERATIONS, type Auth, type OperationSpec, type SuccessSpec, type Tag } from "./operations";
import { webhookPathItems } from "./webhooks";

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

const SECURITY: Record<Auth, JsonSchema[]> = {
  apiKey: [{ ApiKeyAuth: [] }],
  admin: [{ AdminBearer: [] }],
  zipTokenOrApiKey: [{ ZipToken: [] }, { ApiKeyAuth: [] }],
  // The signature lives in ordinary query parameters (documented on the operation), not in a scheme.
  signedLink: [],
  public: [],
};

const REQUEST_ID_HEADER: JsonSchema = { description: "Id of this request (`req_...`), on every answer.", schema: { type: "string" } };

function parameters(op: OperationSpec): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [name, description] of Object.entries(op.pathParams ?? {})) {
    out.push({ name, in: "path", required: true, description, schema: { type: "string" } });
  }
  if (op.query) {
    const schema = inlineSchema(op.query, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const { description, ...propertySchema } = property;
      out.push({
        name,
        in: "query",
        required: schema.required?.includes(name) ?? false,
        ...(description ? { description } : {}),
        schema: propertySchema,
      });
    }
  }
  for (const p of op.extraParams ?? []) out.push({ name: p.name, in: p.in, required: p.required, description: p.description, schema: p.schema });
  return out;
}

function successResponse(success: SuccessSpec): JsonSchema {
  const headers = { "X-Request-Id": REQUEST_ID_HEADER, ...success.headers };
  const response: JsonSchema = { description: success.description, headers };
  if (typeof success.schema === "string") response.content = { "application/json": { schema: componentRef(success.schema) } };
  else if (success.schema) response.content = { [success.schema.contentType]: { schema: success.schema.schema } };
  return response;
}

function operationObject(op: OperationSpec): JsonSchema {
  const params = parameters(op);
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    security: SECURITY[op.auth],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: componentRef(op.body.schema),
                ...(op.body.examples ? { examples: op.body.examples } : {}),
              },
            },
          },
        }
      : {}),
    responses: {
      ...Object.fromEntries([op.success, ...(op.otherSuccess ?? [])].map((s) => [String(s.status), successResponse(s)])),
      ...errorResponses(op.errors, op.errorExamples),
    },
  };
}

export function buildOpenApiDocument(): OpenApiDocument {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of OPERATIONS) {
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new Error(`OpenAPI route table lists ${op.method.toUpperCase()} ${op.path} twice`);
    item[op.method] = operationObject(op);
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

let cached: { json: string; etag: string } | undefined;

/** The serialised document and its strong ETag, built once per isolate (it depends only on the code). */
export async function servedDocument(): Promise<{ json: string; etag: string }> {
  if (!cached) {
    const json = JSON.stringify(buildOpenApiDocument());
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(json));
    const hex = Array.from(new Uint8Array(digest).slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
    cached = { json, etag: `"${hex}"` };
  }
  return cached;
}
