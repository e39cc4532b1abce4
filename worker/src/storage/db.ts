import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Db = ReturnType<typeof openDb>;

export function openDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

/** True when `error` (or one of its causes; drizzle wraps D1 errors) is a failed SQLite CHECK constraint. */
export function isCheckConstraintError(error: unknown): boolean {
  return errorChainMatches(error, /CHECK constraint failed/i);
}

export function isUniqueConstraintError(error: unknown): boolean {
  return errorChainMatches(error, /UNIQUE constraint failed/i);
}

function errorChainMatches(error: unknown, pattern: RegExp): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (pattern.test(e.message)) return true;
  }
  return false;
}

export const nowIso = (): string => new Date().toISOString();
