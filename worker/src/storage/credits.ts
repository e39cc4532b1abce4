import { desc, eq, sql } from "drizzle-orm";
import type { LedgerEntry } from "../../../common/contract";
import { isCheckConstraintError, nowIso, type Db } from "./db";
import { accounts, creditLedger, type LedgerKind, type LedgerPurpose } from "./schema";

/**
 * Every credit movement is a balance update plus a ledger entry in the same D1 batch (one transaction). The
 * entry's balance_after is read back inside the batch, so it is exact even under concurrent movements.
 */

const balanceOf = (accountId: string) => sql<number>`(SELECT credits FROM accounts WHERE id = ${accountId})`;

export interface Movement {
  accountId: string;
  /** Signed: negative takes credits away. */
  amount: number;
  kind: LedgerKind;
  /** `vod_length`: the difference reserved or refunded for the VOD's real length (one of each per job at most). */
  purpose?: LedgerPurpose | null;
  jobId?: string | null;
  reason?: string | null;
  at?: string;
}

/** The two statements of a movement, for callers that add them to a larger batch (job creation, refunds). */
export function movementStatements(db: Db, m: Movement) {
  const at = m.at ?? nowIso();
  const update = db
    .update(accounts)
    .set({
      credits: sql`${accounts.credits} + ${m.amount}`,
      updatedAt: at,
      ...(m.kind === "purchase" ? { purchased: true } : {}),
    })
    .where(eq(accounts.id, m.accountId));
  const entry = db.insert(creditLedger).values({
    accountId: m.accountId,
    jobId: m.jobId ?? null,
    kind: m.kind,
    purpose: m.purpose ?? null,
    amount: m.amount,
    balanceAfter: balanceOf(m.accountId),
    reason: m.reason ?? null,
    createdAt: at,
  });
  return { update, entry };
}

export type MovementResult = { ok: true; credits: number } | { ok: false; available: number };

/** Operator credit changes (purchase or adjustment). A change that would make the balance negative is refused. */
export async function applyMovement(db: Db, m: Movement): Promise<MovementResult> {
  const { update, entry } = movementStatements(db, m);
  try {
    await db.batch([update, entry]);
  } catch (error) {
    if (!isCheckConstraintError(error)) throw error;
    return { ok: false, available: await balance(db, m.accountId) };
  }
  return { ok: true, credits: await balance(db, m.accountId) };
}

export async function balance(db: Db, accountId: string): Promise<number> {
  const row = await db.select({ credits: accounts.credits }).from(accounts).where(eq(accounts.id, accountId)).get();
  return row?.credits ?? 0;
}

export async function listLedger(db: Db, accountId: string, limit: number): Promise<LedgerEntry[]> {
  const rows = await db
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.accountId, accountId))
    .orderBy(desc(creditLedger.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    amount: r.amount,
    balance_after: r.balanceAfter,
    job_id: r.jobId,
    reason: r.reason,
    created_at: r.createdAt,
  }));
}
