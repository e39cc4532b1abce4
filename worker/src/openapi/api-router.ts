import { OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { AppEnv } from "../hono-env";
import { validationHook, type DeclaredInputs } from "../middleware/validate";

/**
 * A router whose routes are declared once: `router.openapi(route, handler)` registers the handler, validates the
 * inputs the route declares and records the route for the document (document.ts reads the app's registry). Each
 * route gets the validation hook of its own schemas, so every failed input is the API's 422 and never the
 * library's bare 400 (a route may still pass a hook of its own, which then replaces this one).
 */
export class ApiRouter extends OpenAPIHono<AppEnv> {
  constructor() {
    super();
    const register = this.openapi;
    this.openapi = ((route: RouteConfig, handler: never, hook?: never) =>
      register(route, handler, hook ?? (validationHook(declaredInputs(route)) as never))) as typeof register;
  }
}

/** The zod schemas @hono/zod-openapi validates for a route, by the target its hook is told about. */
export function declaredInputs(route: RouteConfig): DeclaredInputs {
  const request = route.request ?? {};
  const media = request.body?.content["application/json"];
  const json = media && "schema" in media ? media.schema : undefined;
  const zodOrNone = (s: unknown) => (s && typeof s === "object" && "safeParse" in s ? (s as DeclaredInputs["json"]) : undefined);
  return {
    json: zodOrNone(json),
    query: zodOrNone(request.query),
    param: zodOrNone(request.params),
    header: Array.isArray(request.headers) ? undefined : zodOrNone(request.headers),
  };
}
