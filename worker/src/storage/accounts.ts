import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { AccountSummary, ApiKeySummary, Plan } from "../../../common/contract";
import { newAccountId, newApiKey, newKeyId, newWebhookSigningSecret } from "../domain/ids";
import { shortsCap } from "../domain/plan-caps";
import { sha256Hex } from "../lib/crypto";
import { nowIso, type Db } from "./db";
import { accounts, apiKeys, creditLedger, type AccountRow, type ApiKeyRow } from "./schema";

/** How much of a key is kept in clear text so an operator can tell keys apart (`hk_live_abcd`). */
const KEY_PREFIX_LENGTH = 12;

export interface NewApiKey {
  key_id: string;
  api_key: string;
}

export interface CreatedAccount {
  account: AccountRow;
  key: NewApiKey;
}

export async function createAccount(
  db: Db,
  input: { name: string; plan: Plan; credits: number; purchase: boolean },
): Promise<CreatedAccount> {
  const now = nowIso();
  const account: AccountRow = {
    id: newAccountId(),
    name: input.name,
    plan: input.plan,
    credits: input.credits,
    purchased: input.purchase && input.credits > 0,
    webhookSigningSecret: newWebhookSigningSecret(),
    createdAt: now,
    updatedAt: now,
  };
  const key = await prepareKey();
  const keyRow: ApiKeyRow = { ...key.row, accountId: account.id, createdAt: now };
  const statements = [db.insert(accounts).values(account), db.insert(apiKeys).values(keyRow)] as const;
  if (input.credits > 0) {
    await db.batch([
      ...statements,
      db.insert(creditLedger).values({
        accountId: account.id,
        kind: input.purchase ? "purchase" : "adjustment",
        amount: input.credits,
        balanceAfter: input.credits,
        reason: "opening balance",
        createdAt: now,
      }),
    ]);
  } else {
    await db.batch(statements);
  }
  return { account, key: key.clear };
}

async function prepareKey(): Promise<{ clear: NewApiKey; row: Omit<ApiKeyRow, "accountId" | "createdAt"> }> {
  const apiKey = newApiKey();
  const id = newKeyId();
  return {
    clear: { key_id: id, api_key: apiKey },
    row: { id, keyHash: await sha256Hex(apiKey), keyPrefix: apiKey.slice(0, KEY_PREFIX_LENGTH), revokedAt: null },
  };
}

export async function addApiKey(db: Db, accountId: string): Promise<NewApiKey> {
  const key = await prepareKey();
  await db.insert(apiKeys).values({ ...key.row, accountId, createdAt: nowIso() });
  return key.clear;
}

/** Returns the revocation time, or null when the key does not exist on this account. Revoking twice is a no-op. */
export async function revokeApiKey(db: Db, accountId: string, keyId: string): Promise<string | null> {
  const now = nowIso();
  await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)));
  const row = await db.select().from(apiKeys).where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId))).get();
  return row?.revokedAt ?? null;
}

export interface KeyOwner {
  account: AccountRow;
  keyId: string;
}

/** The account of an active (not revoked) key, looked up by the key's SHA-256. */
export async function findAccountByApiKey(db: Db, apiKey: string): Promise<KeyOwner | null> {
  const hash = await sha256Hex(apiKey);
  const row = await db
    .select({ account: accounts, keyId: apiKeys.id })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
    .get();
  return row ?? null;
}

export async function findAccount(db: Db, accountId: string): Promise<AccountRow | null> {
  return (await db.select().from(accounts).where(eq(accounts.id, accountId)).get()) ?? null;
}

export async function listAccounts(db: Db, page: number, pageSize: number): Promise<{ rows: AccountRow[]; total: number }> {
  const [rows, count] = await db.batch([
    db.select().from(accounts).orderBy(desc(accounts.id)).limit(pageSize).offset((page - 1) * pageSize),
    db.select({ n: sql<number>`count(*)` }).from(accounts),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

export async function setPlan(db: Db, accountId: string, plan: Plan): Promise<AccountRow | null> {
  await db.update(accounts).set({ plan, updatedAt: nowIso() }).where(eq(accounts.id, accountId));
  return findAccount(db, accountId);
}

export async function listApiKeys(db: Db, accountId: string): Promise<ApiKeySummary[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(desc(apiKeys.id));
  return rows.map((r) => ({ key_id: r.id, prefix: r.keyPrefix, created_at: r.createdAt, revoked_at: r.revokedAt }));
}

export function toAccountSummary(row: AccountRow): AccountSummary {
  return {
    account_id: row.id,
    name: row.name,
    plan: row.plan,
    credits: row.credits,
    purchased: row.purchased,
    shorts_cap: shortsCap(row.plan, row.purchased),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
