import type { OpenApiDocument } from "./document";

/**
 * Routes of the Worker that the public document leaves out on purpose: the renderer's callbacks and uploads under
 * /internal/ authenticate with per-job tokens minted for the renderer, are no client's business, and their
 * contract is common/contract/render.ts. Everything else the app serves must be documented, and the other way round.
 */
export const UNDOCUMENTED_PREFIXES = ["/internal/"] as const;

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/** Hono `/jobs/:id` (also `:name{regex}`) -> OpenAPI `/jobs/{id}`. */
export function toOpenApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}");
}

export function isUndocumented(path: string): boolean {
  return UNDOCUMENTED_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/**
 * `METHOD /path` of every route with a concrete method in a Hono app's route list. Middleware registered with
 * `use` shows up with method ALL and is not a route of its own.
 */
export function appRouteKeys(routes: ReadonlyArray<{ method: string; path: string }>): string[] {
  const keys = new Set<string>();
  for (const r of routes) if (METHODS.has(r.method)) keys.add(`${r.method} ${toOpenApiPath(r.path)}`);
  return [...keys].sort();
}

export function documentedRouteKeys(doc: OpenApiDocument): string[] {
  const keys: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of Object.keys(item)) if (METHODS.has(method.toUpperCase())) keys.push(`${method.toUpperCase()} ${path}`);
  }
  return keys.sort();
}
