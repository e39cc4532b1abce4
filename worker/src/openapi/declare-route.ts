import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../hono-env";
import { apiKeyAuth } from "../middleware/api-key-auth";
import { limitBody, requireJson } from "../middleware/json-body";
import { errorResponses, type ErrorCode, type ErrorExamples } from "./error-catalog";
import { componentRef, type JsonSchema } from "./json-schema";
import { requestSchemaName } from "./components";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/**
 * Who may call an operation. `zipTokenOrApiKey`: the token of a results `zip_url`, or the API key.
 * `signedLink`: a presigned link whose `expires` and `sig` query parameters are the credential.
 */
export type Auth = "apiKey" | "admin" | "zipTokenOrApiKey" | "signedLink" | "public";

export type Tag = "jobs" | "videos" | "pricing" | "webhooks" | "files" | "operator" | "reference";

type Examples = Record<string, { summary: string; value: unknown }>;

export interface SuccessSpec {
  status: number;
  description: string;
  /** A zod schema of the contract (a named one becomes a `$ref`), or a JSON Schema for answers zod does not describe (files, HTML). */
  schema?: z.ZodType | { contentType: string; schema: JsonSchema };
  headers?: Record<string, JsonSchema>;
}

/** A parameter the handler reads itself (an OpenAPI parameter object as the document shows it). */
export interface HandlerParam {
  name: string;
  in: "query" | "header";
  description: string;
  required: boolean;
  schema: JsonSchema;
}

export interface RouteDeclaration<Path extends string, Params, Query, Body> {
  method: HttpMethod;
  /** OpenAPI form, relative to the router's mount point: `/{id}/results`. */
  path: Path;
  operationId: string;
  tag: Tag;
  summary: string;
  description?: string;
  auth: Auth;
  /** Middleware that runs before authentication (the per-client rate limit of job creation). */
  before?: MiddlewareHandler<AppEnv>[];
  /** Path parameters; each property's `.meta({ description })` documents it. */
  params?: Params;
  /** Query parameters, validated before the handler (422 on failure). */
  query?: Query;
  /** A JSON body: size-limited, JSON-typed and validated before the handler. */
  body?: { schema: Body; examples: Examples };
  /**
   * A JSON body the handler validates itself, against this schema and rules that need more than the body (a VOD
   * probe, the account's plan), collecting every problem into one 422. Size-limited and JSON-typed like `body`;
   * the document shows the schema's component.
   */
  handlerBody?: { schema: z.ZodType; examples: Examples };
  /** Parameters the handler reads itself, with rules of their own (no zod schema). */
  handlerParams?: HandlerParam[];
  success: SuccessSpec;
  /** Further 2xx answers (206 to a Range request). */
  otherSuccess?: SuccessSpec[];
  /** Codes the handler answers with; those of the authentication, the body and the query are added here. */
  errors: ErrorCode[];
  /** Examples of this operation that replace the catalog's (each tested against the real answer). */
  errorExamples?: ErrorExamples;
}

const SECURITY: Record<Auth, Array<Record<string, string[]>>> = {
  apiKey: [{ ApiKeyAuth: [] }],
  admin: [{ AdminBearer: [] }],
  zipTokenOrApiKey: [{ ZipToken: [] }, { ApiKeyAuth: [] }],
  // The signature lives in ordinary query parameters (documented on the operation), not in a scheme.
  signedLink: [],
  public: [],
};

/**
 * The middleware of each kind of authentication and the codes it answers with. The operator API checks its token
 * for everything under /admin/ in the router (an unknown /admin/ path is 401 too); the ZIP and signed links are
 * checked by their handlers, which know the job.
 */
const AUTH_MIDDLEWARE: Record<Auth, MiddlewareHandler<AppEnv>[]> = {
  apiKey: [apiKeyAuth],
  admin: [],
  zipTokenOrApiKey: [],
  signedLink: [],
  public: [],
};
const AUTH_ERRORS: Record<Auth, ErrorCode[]> = {
  apiKey: ["missing_api_key", "invalid_api_key"],
  admin: ["unauthorized"],
  zipTokenOrApiKey: ["missing_api_key", "invalid_api_key", "invalid_token", "link_expired"],
  signedLink: ["invalid_link", "link_expired"],
  public: [],
};
const JSON_BODY_ERRORS: ErrorCode[] = ["invalid_json", "payload_too_large", "unsupported_media_type", "validation_failed"];

const REQUEST_ID_HEADER: JsonSchema = { description: "Id of this request (`req_...`), on every answer.", schema: { type: "string" } };

function successResponse(success: SuccessSpec) {
  const headers = { "X-Request-Id": REQUEST_ID_HEADER, ...success.headers };
  const { schema } = success;
  if (!schema) return { description: success.description, headers };
  if ("contentType" in schema) return { description: success.description, headers, content: { [schema.contentType]: { schema: schema.schema } } };
  return { description: success.description, headers, content: { "application/json": { schema } } };
}

function namedRequestSchema(schema: z.ZodType): string {
  const name = requestSchemaName(schema);
  if (!name) throw new Error("a body the handler validates must be a named request schema (components.ts)");
  return name;
}

/** The `{name}`s of the path and the declared path parameters are the same set, or the worker does not start. */
function checkPathParameters(d: { method: string; path: string; params?: z.ZodObject }): void {
  const inPath = [...d.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!).sort();
  const declared = Object.keys(d.params?.shape ?? {}).sort();
  if (inPath.join() !== declared.join()) {
    throw new Error(`${d.method.toUpperCase()} ${d.path} declares path parameters [${declared.join(", ")}], its path has [${inPath.join(", ")}]`);
  }
}

/**
 * One route, declared once: its path, input schemas, middleware, security and answers. @hono/zod-openapi
 * validates what it declares and records it; the document (document.ts) is made from those records, so a route
 * cannot be served without being documented, nor documented differently from how it is checked.
 */
export function declareRoute<
  const Path extends string,
  Params extends z.ZodObject | undefined = undefined,
  Query extends z.ZodObject | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
>(d: RouteDeclaration<Path, Params, Query, Body>) {
  checkPathParameters(d as { method: string; path: string; params?: z.ZodObject });
  const hasBody = d.body !== undefined || d.handlerBody !== undefined;
  const bodyContent = d.body
    ? { schema: d.body.schema, examples: d.body.examples }
    : d.handlerBody
      ? // A schema given by reference is shown in the document but not validated by the library.
        { schema: componentRef(namedRequestSchema(d.handlerBody.schema)), examples: d.handlerBody.examples }
      : undefined;
  const errors: ErrorCode[] = [
    ...AUTH_ERRORS[d.auth],
    ...(hasBody ? JSON_BODY_ERRORS : []),
    ...(d.query ? (["validation_failed"] as const) : []),
    ...d.errors,
  ];
  const route = {
    method: d.method,
    path: d.path,
    operationId: d.operationId,
    tags: [d.tag],
    summary: d.summary,
    ...(d.description ? { description: d.description } : {}),
    security: SECURITY[d.auth],
    middleware: [...(d.before ?? []), ...AUTH_MIDDLEWARE[d.auth], ...(hasBody ? [limitBody, requireJson] : [])],
    request: {
      ...(d.params ? { params: d.params } : {}),
      ...(d.query ? { query: d.query } : {}),
      ...(bodyContent ? { body: { required: true, content: { "application/json": bodyContent } } } : {}),
    },
    ...(d.handlerParams ? { parameters: d.handlerParams } : {}),
    responses: {
      ...Object.fromEntries([d.success, ...(d.otherSuccess ?? [])].map((s) => [String(s.status), successResponse(s)])),
      ...errorResponses(errors, d.errorExamples),
    },
  };
  return createRoute(
    route as unknown as Omit<RouteConfig, "request" | "path" | "method"> & {
      method: HttpMethod;
      path: Path;
      middleware: MiddlewareHandler<AppEnv>[];
      request: (Params extends z.ZodObject ? { params: Params } : object) &
        (Query extends z.ZodObject ? { query: Query } : object) &
        (Body extends z.ZodType ? { body: { required: true; content: { "application/json": { schema: Body } } } } : object);
    },
  );
}
