import { env } from "cloudflare:workers";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../../worker/src/storage/schema";

/** The SQL migrations are the source of truth; the drizzle view of them must name the same columns. */
describe("D1 schema", () => {
  const tables: SQLiteTable[] = [schema.accounts, schema.apiKeys, schema.jobs, schema.creditLedger, schema.jobFeedback, schema.idempotencyKeys, schema.vodAnalyses];

  it.each(tables.map((t) => [getTableConfig(t).name, t] as const))("drizzle table %s matches the migrated table", async (name, table) => {
    const info = await env.DB.prepare(`PRAGMA table_info(${name})`).all<{ name: string; notnull: number; pk: number }>();
    const migrated = Object.fromEntries(info.results.map((c) => [c.name, c.notnull === 1 || c.pk === 1]));
    const declared = Object.fromEntries(getTableConfig(table).columns.map((c) => [c.name, c.notNull]));
    expect(declared).toEqual(migrated);
  });

  it("rejects a negative balance at the database level", async () => {
    await env.DB.prepare("INSERT INTO accounts (id, name, plan, credits, webhook_signing_secret, created_at, updated_at) VALUES ('acct_t', 't', 'free', 5, 's', 'now', 'now')").run();
    await expect(env.DB.prepare("UPDATE accounts SET credits = credits - 6 WHERE id = 'acct_t'").run()).rejects.toThrow(/CHECK constraint failed/);
  });
});
