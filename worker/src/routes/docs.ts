import { Hono } from "hono";
import type { AppEnv } from "../hono-env";
import { buildOpenApiDocument, servedDocument } from "../openapi/document";
import { referencePage } from "../openapi/reference-page";

/** The OpenAPI document and its HTML reference: public, identical for every caller, so caches may keep them. */
export const docsRoutes = new Hono<AppEnv>();

const CACHE_CONTROL = "public, max-age=300";

docsRoutes.get("/openapi.json", async (c) => {
  const { json, etag } = await servedDocument();
  const headers = { ETag: etag, "Cache-Control": CACHE_CONTROL, "Access-Control-Allow-Origin": "*" };
  const ifNoneMatch = c.req.header("If-None-Match");
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    return c.body(null, 304, headers);
  }
  return c.body(json, 200, { ...headers, "Content-Type": "application/json; charset=utf-8" });
});

let page: string | undefined;

docsRoutes.get("/docs", (c) => {
  page ??= referencePage(buildOpenApiDocument());
  return c.html(page, 200, { "Cache-Control": CACHE_CONTROL });
});
