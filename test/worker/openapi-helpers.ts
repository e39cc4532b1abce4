import { expect, inject } from "vitest";
import type { OpenApiDocument } from "../../worker/src/openapi/document";
import { call } from "./helpers";
import { analysisStart, completeSmall, SMALL_FILES } from "./drive-job";

/** Helpers of the OpenAPI tests: the served document, the Node-side validator, a job with real results. */

declare module "vitest" {
  // Provided by the global setup openapi-validator.node.ts (outside this type-check project).
  export interface ProvidedContext {
    openapiValidatorUrl: string;
  }
}

let documentPromise: Promise<OpenApiDocument> | undefined;

/** The document exactly as the Worker serves it. */
export function servedDocument(): Promise<OpenApiDocument> {
  documentPromise ??= (async () => {
    const res = await call("/openapi.json");
    expect(res.status).toBe(200);
    return (await res.json()) as OpenApiDocument;
  })();
  return documentPromise;
}

export interface ValidationAnswer {
  valid: boolean;
  errors: unknown;
}

async function askValidator(path: "/document" | "/instance", body: unknown): Promise<ValidationAnswer> {
  const res = await fetch(`${inject("openapiValidatorUrl")}${path}`, { method: "POST", body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return (await res.json()) as ValidationAnswer;
}

/** The document against the OpenAPI 3.1 schema (@seriousme/openapi-schema-validator, in Node). */
export async function validateDocument(document: unknown): Promise<ValidationAnswer> {
  return askValidator("/document", { document });
}

/** A value against `#/components/schemas/<schema>` of the document, as a JSON Schema 2020-12 validator reads it. */
export async function validateInstance(document: OpenApiDocument, schema: string, value: unknown): Promise<ValidationAnswer> {
  return askValidator("/instance", { document, schema, value });
}

type ResponseObject = { content?: Record<string, { schema?: { $ref?: string } }> };
type OperationObject = { responses: Record<string, ResponseObject>; requestBody?: unknown };

export function operationOf(doc: OpenApiDocument, method: string, template: string): OperationObject {
  const op = doc.paths[template]?.[method.toLowerCase()] as OperationObject | undefined;
  if (!op) throw new Error(`the document has no ${method} ${template}`);
  return op;
}

/**
 * Asserts that a real answer is one the document promises: its status is listed for the operation and its JSON
 * body validates against the documented schema. Returns the parsed body.
 */
export async function expectDocumented(doc: OpenApiDocument, method: string, template: string, res: Response): Promise<unknown> {
  const op = operationOf(doc, method, template);
  const documented = op.responses[String(res.status)];
  expect(documented, `${method} ${template} answered ${res.status}, which the document does not list`).toBeDefined();
  const mediaTypes = Object.keys(documented!.content ?? {});
  const received = (res.headers.get("Content-Type") ?? "").split(";")[0]!.trim();
  // application/octet-stream documents "the file's own type" (video/mp4, application/x-subrip, ...).
  if (mediaTypes.length > 0 && !mediaTypes.includes("application/octet-stream")) {
    expect(mediaTypes, `${method} ${template} ${res.status} answered ${received}`).toContain(received);
  }
  const ref = documented!.content?.["application/json"]?.schema?.$ref;
  if (!ref) {
    // Read to the end: cancelling a streamed ZIP mid-way only produces noise in workerd's log.
    await res.arrayBuffer();
    return null;
  }
  const body = await res.json();
  const answer = await validateInstance(doc, ref.replace("#/components/schemas/", ""), body);
  expect(answer.errors, `${method} ${template} ${res.status} does not match ${ref}`).toBeNull();
  return body;
}

/** The files of drive-job.ts's small render (one reel, one short, its captions) by name, as text. */
export const STORED_FILES: Record<string, string> = Object.fromEntries(SMALL_FILES.map((f) => [f.ref.name, new TextDecoder().decode(f.bytes)]));

/**
 * Completes a job created through POST /jobs with ACCEPTED (the real queue starts its analysis on the renderer
 * double) through the task path, delivering STORED_FILES; the finalising step adds metadata.json and manifest.json.
 */
export async function completeWithFiles(jobId: string): Promise<void> {
  await completeSmall(await analysisStart(jobId));
}

/** How the document says an operation is authenticated (its security, and the signature parameters of a signed link). */
export type DocumentedAuth = "apiKey" | "admin" | "zipTokenOrApiKey" | "signedLink" | "public";

/** One declared route as the app's registry records it: what the tests need to call it. */
export interface DeclaredOperation {
  method: string;
  /** OpenAPI form: `/jobs/{id}`. */
  path: string;
  operationId: string;
  auth: DocumentedAuth;
  successStatus: number;
  bodyExamples?: Record<string, { summary: string; value: unknown }>;
  /** This operation's own 422 example, where it replaces the catalog's. */
  validationExample?: unknown;
}

type RouteRecord = { route: RouteRecordConfig };
type RouteRecordConfig = {
  method: string;
  path: string;
  operationId?: string;
  security?: Array<Record<string, unknown>>;
  parameters?: Array<{ name: string; in: string }>;
  request?: { body?: { content: Record<string, { examples?: DeclaredOperation["bodyExamples"] }> } };
  responses: Record<string, { content?: Record<string, { examples?: Record<string, { value: { error: unknown } }> }> }>;
};

export function authOf(route: Pick<RouteRecordConfig, "security" | "parameters">): DocumentedAuth {
  const schemes = (route.security ?? []).map((requirement) => Object.keys(requirement).join("+")).join(",");
  switch (schemes) {
    case "ApiKeyAuth":
      return "apiKey";
    case "AdminBearer":
      return "admin";
    case "ZipToken,ApiKeyAuth":
      return "zipTokenOrApiKey";
    case "":
      return route.parameters?.some((p) => p.in === "query" && p.name === "sig") ? "signedLink" : "public";
    default:
      throw new Error(`unknown security ${schemes}`);
  }
}

/** Every route an app declared, in declaration order (the /internal/ routes are plain Hono and not among them). */
export function declaredOperations(definitions: ReadonlyArray<{ type: string }>, catalogValidationExample: unknown): DeclaredOperation[] {
  return (definitions.filter((d) => d.type === "route") as unknown as RouteRecord[]).map(({ route }) => {
    const own = route.responses["422"]?.content?.["application/json"]?.examples?.validation_failed?.value.error;
    return {
      method: route.method,
      path: route.path,
      operationId: route.operationId!,
      auth: authOf(route),
      successStatus: Number(Object.keys(route.responses).find((status) => status.startsWith("2"))),
      bodyExamples: route.request?.body?.content["application/json"]?.examples,
      validationExample: own !== undefined && JSON.stringify(own) !== JSON.stringify(catalogValidationExample) ? own : undefined,
    };
  });
}

const ROUTE_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/** Hono `/jobs/:id` (also `:name{regex}`) -> OpenAPI `/jobs/{id}`. */
export function toOpenApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}");
}

/**
 * `METHOD /path` of every route with a concrete method in a Hono app's route list. Middleware registered with
 * `use` shows up with method ALL and is not a route of its own.
 */
export function appRouteKeys(routes: ReadonlyArray<{ method: string; path: string }>): string[] {
  const keys = new Set<string>();
  for (const r of routes) if (ROUTE_METHODS.has(r.method)) keys.add(`${r.method} ${toOpenApiPath(r.path)}`);
  return [...keys].sort();
}

export function documentedRouteKeys(doc: OpenApiDocument): string[] {
  const keys: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of Object.keys(item)) if (ROUTE_METHODS.has(method.toUpperCase())) keys.push(`${method.toUpperCase()} ${path}`);
  }
  return keys.sort();
}
