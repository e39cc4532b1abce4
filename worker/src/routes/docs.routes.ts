import { declareRoute } from "../openapi/declare-route";
import { REFERENCE_SCRIPT_PATH, REFERENCE_STYLESHEET_PATH } from "../openapi/reference-page";

/** The document and its HTML reference as the document shows them (mounted at /; handlers in docs.ts). */

const text = (contentType: string, description: string) => ({ status: 200, description, schema: { contentType, schema: { type: "string" } } });

/** The answer to a matching If-None-Match: documented like every status a route gives. */
const notModified = (etag: string) => ({
  status: 304,
  description: "Not modified: If-None-Match names the current ETag. No body.",
  headers: { ETag: { description: etag, schema: { type: "string" } } },
});

/** The conditional request those routes read. */
const ifNoneMatch = {
  name: "If-None-Match",
  in: "header" as const,
  description: "ETags the client holds (comma-separated, weak ones compared weakly); one matching answers 304.",
  required: false,
  schema: { type: "string" },
};

export const getOpenApiDocument = declareRoute({
  method: "get",
  path: "/openapi.json",
  operationId: "getOpenApiDocument",
  tag: "reference",
  summary: "This OpenAPI 3.1 document",
  description: "Public and cacheable (ETag; answers 304 to a matching If-None-Match).",
  auth: "public",
  success: {
    status: 200,
    description: "The document.",
    schema: { contentType: "application/json", schema: { type: "object", description: "OpenAPI 3.1 document." } },
    headers: {
      ETag: { description: "Changes whenever the document changes.", schema: { type: "string" } },
      "Cache-Control": { description: "public, max-age=300", schema: { type: "string" } },
    },
  },
  otherSuccess: [notModified("The document's ETag.")],
  handlerParams: [ifNoneMatch],
  errors: [],
});

export const getReferencePage = declareRoute({
  method: "get",
  path: "/docs",
  operationId: "getReferencePage",
  tag: "reference",
  summary: "Interactive reference (HTML)",
  description: "Renders this document; lists every endpoint without JavaScript or network access too.",
  auth: "public",
  success: text("text/html", "HTML page."),
  errors: [],
});

export const getReferenceScript = declareRoute({
  method: "get",
  path: REFERENCE_SCRIPT_PATH,
  operationId: "getReferenceScript",
  tag: "reference",
  summary: "Script of the reference page",
  description: "Swagger UI's browser bundle (npm package swagger-ui-dist), served by this deployment so /docs needs no CDN.",
  auth: "public",
  success: text("text/javascript", "JavaScript."),
  otherSuccess: [notModified("swagger-ui-<package version>, quoted.")],
  handlerParams: [ifNoneMatch],
  errors: [],
});

export const getReferenceStylesheet = declareRoute({
  method: "get",
  path: REFERENCE_STYLESHEET_PATH,
  operationId: "getReferenceStylesheet",
  tag: "reference",
  summary: "Stylesheet of the reference page",
  description: "Swagger UI's stylesheet (npm package swagger-ui-dist), served by this deployment.",
  auth: "public",
  success: text("text/css", "CSS."),
  otherSuccess: [notModified("swagger-ui-<package version>, quoted.")],
  handlerParams: [ifNoneMatch],
  errors: [],
});
