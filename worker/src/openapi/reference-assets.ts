import script from "swagger-ui-dist/swagger-ui-bundle.js";
import stylesheet from "swagger-ui-dist/swagger-ui.css";
import swaggerUiPackage from "swagger-ui-dist/package.json";

/**
 * The /docs page's script and stylesheet, from the swagger-ui-dist npm package, served by this Worker so the page
 * needs no CDN. wrangler.toml's `[[rules]]` import the two files as text (bundled with the Worker: about 485 KB
 * gzipped of its size limit). Swagger UI fetches nothing else on its own once its validator badge is off
 * (reference-page.ts sets `validatorUrl: "none"`).
 */
export const SWAGGER_UI_VERSION: string = swaggerUiPackage.version;

export interface ReferenceAsset {
  body: string;
  contentType: string;
}

export const REFERENCE_ASSETS: Record<string, ReferenceAsset> = {
  "/docs/swagger-ui.js": { body: script, contentType: "text/javascript; charset=utf-8" },
  "/docs/swagger-ui.css": { body: stylesheet, contentType: "text/css; charset=utf-8" },
};
