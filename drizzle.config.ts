/**
 * drizzle-kit settings (optional tooling: `npx drizzle-kit check` / `studio` once drizzle-kit is installed).
 * The SQL files in migrations/ are written by hand and applied by wrangler (`npm run db:migrate:local`);
 * worker/src/storage/schema.ts mirrors them and test/worker/schema.test.ts checks that both agree.
 * A plain object, so type-checking does not need drizzle-kit to be installed.
 */
export default {
  dialect: "sqlite",
  driver: "d1-http",
  schema: "./worker/src/storage/schema.ts",
  out: "./migrations",
  dbCredentials: {
    accountId: process.env.CLOUDFLARE_ACCOUNT_ID ?? "",
    databaseId: process.env.CLOUDFLARE_D1_DATABASE_ID ?? "",
    token: process.env.CLOUDFLARE_D1_TOKEN ?? "",
  },
};
