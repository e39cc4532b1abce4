import { Hono } from "hono";
import type { AppEnv } from "../hono-env";
import { buildOpenApiDocument, servedDocument } from "../openapi/document";
import { REFERENCE_ASSETS, SWAGGER_UI_VERSION } from "../openapi/reference-assets";
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

/** The page's script and stylesheet (reference-assets.ts): a day in caches, revalidated by the package version. */
const ASSET_CACHE_CONTROL = "public, max-age=86400";

for (const [path, asset] of Object.entries(REFERENCE_ASSETS)) {
  docsRoutes.get(path, (c) => {
    const etag = `"swagger-ui-${SWAGGER_UI_VERSION}"`;
    const headers = { ETag: etag, "Cache-Control": ASSET_CACHE_CONTROL };
    const ifNoneMatch = c.req.header("If-None-Match");
    if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) return c.body(null, 304, headers);
    return c.body(asset.body, 200, { ...headers, "Content-Type": asset.contentType });
  });
}
