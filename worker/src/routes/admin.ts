import { MAX_CREDIT_BALANCE, type AccountDetail } from "../../../common/contract";
import type { AppEnv } from "../hono-env";
import { ApiError } from "../lib/api-error";
import { adminAuth } from "../middleware/admin-auth";
import { ApiRouter } from "../openapi/api-router";
import {
  addApiKey,
  createAccount,
  findAccount,
  listAccounts,
  listApiKeys,
  revokeApiKey,
  setPlan,
  toAccountSummary,
} from "../storage/accounts";
import { applyMovement, listLedger } from "../storage/credits";
import { openDb } from "../storage/db";
import type { AccountRow } from "../storage/schema";
import {
  adminAddApiKey,
  adminChangeCredits,
  adminCreateAccount,
  adminGetAccount,
  adminListAccounts,
  adminRevokeApiKey,
  adminUpdateAccount,
} from "./admin.routes";

/** Operator API (what the dashboard would do): accounts, keys, credits, plans. */
export const adminRoutes = new ApiRouter();
adminRoutes.use("*", adminAuth);

const accountNotFound = () => new ApiError(404, "account_not_found", "No account with this id.");

async function existingAccount(d1: D1Database, id: string): Promise<AccountRow> {
  const account = await findAccount(openDb(d1), id);
  if (!account) throw accountNotFound();
  return account;
}

adminRoutes.openapi(adminCreateAccount, async (c) => {
  const input = c.req.valid("json");
  const { account, key } = await createAccount(openDb(c.env.DB), input);
  return c.json(
    {
      account_id: account.id,
      api_key: key.api_key,
      key_id: key.key_id,
      webhook_signing_secret: account.webhookSigningSecret,
      plan: account.plan,
      credits: account.credits,
    },
    201,
  );
});

adminRoutes.openapi(adminListAccounts, async (c) => {
  const { page, page_size } = c.req.valid("query");
  const { rows, total } = await listAccounts(openDb(c.env.DB), page, page_size);
  return c.json({ items: rows.map(toAccountSummary), page, page_size, total, has_more: page * page_size < total }, 200);
});

adminRoutes.openapi(adminGetAccount, async (c) => {
  const account = await existingAccount(c.env.DB, c.req.param("id"));
  const db = openDb(c.env.DB);
  const detail: AccountDetail = {
    ...toAccountSummary(account),
    webhook_signing_secret: account.webhookSigningSecret,
    keys: await listApiKeys(db, account.id),
    ledger: await listLedger(db, account.id, c.req.valid("query").ledger_limit),
  };
  return c.json(detail, 200);
});

adminRoutes.openapi(adminUpdateAccount, async (c) => {
  await existingAccount(c.env.DB, c.req.param("id"));
  const updated = await setPlan(openDb(c.env.DB), c.req.param("id"), c.req.valid("json").plan);
  if (!updated) throw accountNotFound();
  return c.json(toAccountSummary(updated), 200);
});

adminRoutes.openapi(adminAddApiKey, async (c) => {
  const account = await existingAccount(c.env.DB, c.req.param("id"));
  return c.json(await addApiKey(openDb(c.env.DB), account.id), 201);
});

adminRoutes.openapi(adminRevokeApiKey, async (c) => {
  const account = await existingAccount(c.env.DB, c.req.param("id"));
  const revokedAt = await revokeApiKey(openDb(c.env.DB), account.id, c.req.param("keyId"));
  if (!revokedAt) throw new ApiError(404, "key_not_found", "No key with this id on this account.");
  return c.json({ key_id: c.req.param("keyId"), revoked_at: revokedAt }, 200);
});

adminRoutes.openapi(adminChangeCredits, async (c) => {
  const account = await existingAccount(c.env.DB, c.req.param("id"));
  const input = c.req.valid("json");
  // Balances stay far below 2^53, where JavaScript numbers stop being exact integers.
  if (account.credits + input.amount > MAX_CREDIT_BALANCE) {
    throw new ApiError(422, "validation_failed", `The balance cannot go above ${MAX_CREDIT_BALANCE} credits.`, {
      detail: [{ field: "amount", message: `would make the balance exceed ${MAX_CREDIT_BALANCE} (balance is ${account.credits})` }],
    });
  }
  const result = await applyMovement(openDb(c.env.DB), {
    accountId: account.id,
    amount: input.amount,
    kind: input.purchase ? "purchase" : "adjustment",
    reason: input.reason ?? null,
  });
  if (!result.ok) {
    throw new ApiError(422, "validation_failed", "The balance cannot go below 0.", {
      detail: [{ field: "amount", message: `would make the balance negative (balance is ${result.available})` }],
    });
  }
  return c.json({ credits: result.credits }, 200);
});
