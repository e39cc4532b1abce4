import type { AppEnv } from "../hono-env";
import type { Context } from "hono";
import { ApiRouter } from "../openapi/api-router";
import { serveDocument, type RouteRecords, type ServedDocument } from "../openapi/document";
import { REFERENCE_ASSETS, SWAGGER_UI_VERSION, type ReferenceAsset } from "../openapi/reference-assets";
import { referencePage, REFERENCE_SCRIPT_PATH, REFERENCE_STYLESHEET_PATH } from "../openapi/reference-page";
import { getOpenApiDocument, getReferencePage, getReferenceScript, getReferenceStylesheet } from "./docs.routes";

const CACHE_CONTROL = "public, max-age=300";
/** The page's script and stylesheet (reference-assets.ts): a day in caches, revalidated by the package version. */
const ASSET_CACHE_CONTROL = "public, max-age=86400";

/**
 * The OpenAPI document and its HTML reference: public, identical for every caller, so caches may keep them. The
 * document is made from `routes()`, the route records of the app that mounts this router (this router's own
 * included), when it is first asked for.
 */
export function docsRoutes(routes: () => RouteRecords): ApiRouter {
  const router = new ApiRouter();
  // Built once per isolate on first use: it depends only on the code.
  let served: Promise<ServedDocument> | undefined;
  const servedDocument = () => (served ??= serveDocument(routes()));

  router.openapi(getOpenApiDocument, async (c) => {
    const { json, etag } = await servedDocument();
    const headers = { ETag: etag, "Cache-Control": CACHE_CONTROL, "Access-Control-Allow-Origin": "*" };
    if (matches(c.req.header("If-None-Match"), etag)) return c.body(null, 304, headers);
    return c.body(json, 200, { ...headers, "Content-Type": "application/json; charset=utf-8" });
  });

  let page: string | undefined;
  router.openapi(getReferencePage, async (c) => {
    page ??= referencePage((await servedDocument()).document);
    return c.html(page, 200, { "Cache-Control": CACHE_CONTROL });
  });

  router.openapi(getReferenceScript, (c) => asset(c, REFERENCE_ASSETS[REFERENCE_SCRIPT_PATH]!));
  router.openapi(getReferenceStylesheet, (c) => asset(c, REFERENCE_ASSETS[REFERENCE_STYLESHEET_PATH]!));
  return router;
}

function asset(c: Context<AppEnv>, { body, contentType }: ReferenceAsset): Response {
  const etag = `"swagger-ui-${SWAGGER_UI_VERSION}"`;
  const headers = { ETag: etag, "Cache-Control": ASSET_CACHE_CONTROL };
  if (matches(c.req.header("If-None-Match"), etag)) return c.body(null, 304, headers);
  return c.body(body, 200, { ...headers, "Content-Type": contentType });
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  return ifNoneMatch !== undefined && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}
