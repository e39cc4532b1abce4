import { and, eq, isNull, lt } from "drizzle-orm";
import type { Db } from "./db";
import { idempotencyKeys, type IdempotencyRow } from "./schema";

/** How long a key is remembered: a retry within this window gets the original answer. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export type KeyClaim =
  /** Work on this job id (first request with the key, or a retry of one that did not finish). */
  | { kind: "proceed"; jobId: string }
  /** The key was used with another body. */
  | { kind: "mismatch" }
  /** The key's request already has an answer: give it again. */
  | { kind: "replay"; status: number; body: string };

const expired = (row: IdempotencyRow, now: number) => Date.parse(row.createdAt) <= now - IDEMPOTENCY_WINDOW_MS;

/**
 * Claims (account, key) for a request. The first INSERT wins (the primary key serialises concurrent requests in
 * D1); every request then reads the one row, so all of them work on the job id it holds. A row older than the
 * window is replaced, as if the key were new.
 */
export async function claimIdempotencyKey(
  db: Db,
  k: { accountId: string; key: string; requestHash: string; newJobId: string; now: number },
): Promise<KeyClaim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    await db
      .insert(idempotencyKeys)
      .values({
        accountId: k.accountId,
        idempotencyKey: k.key,
        requestHash: k.requestHash,
        jobId: k.newJobId,
        createdAt: new Date(k.now).toISOString(),
      })
      .onConflictDoNothing();
    const row = await findKey(db, k.accountId, k.key);
    if (!row) continue; // released between the two statements: claim again
    if (expired(row, k.now)) {
      await db
        .delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.accountId, k.accountId), eq(idempotencyKeys.idempotencyKey, k.key), eq(idempotencyKeys.createdAt, row.createdAt)));
      continue;
    }
    if (row.requestHash !== k.requestHash) return { kind: "mismatch" };
    if (row.responseStatus !== null && row.responseBody !== null) return { kind: "replay", status: row.responseStatus, body: row.responseBody };
    return { kind: "proceed", jobId: row.jobId };
  }
  throw new Error("the idempotency key could not be claimed");
}

async function findKey(db: Db, accountId: string, key: string): Promise<IdempotencyRow | null> {
  const row = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.idempotencyKey, key)))
    .get();
  return row ?? null;
}

/**
 * Records the answer of the key's request, unless one is already recorded (a concurrent request with the same
 * key finished first), and returns the recorded one: every request with the key answers the same bytes.
 */
export async function recordIdempotentResponse(
  db: Db,
  k: { accountId: string; key: string; jobId: string; status: number; body: string },
): Promise<{ status: number; body: string }> {
  const where = and(eq(idempotencyKeys.accountId, k.accountId), eq(idempotencyKeys.idempotencyKey, k.key), eq(idempotencyKeys.jobId, k.jobId));
  await db.update(idempotencyKeys).set({ responseStatus: k.status, responseBody: k.body }).where(and(where, isNull(idempotencyKeys.responseStatus)));
  const row = await findKey(db, k.accountId, k.key);
  return row?.responseStatus != null && row.responseBody != null && row.jobId === k.jobId ? { status: row.responseStatus, body: row.responseBody } : { status: k.status, body: k.body };
}

/**
 * Forgets a key whose request ended without a job (invalid body, too few credits, queue down), so the client can
 * send it again once the cause is fixed. Only an unanswered row with this job id is removed, and only after the
 * job id was abandoned (JobState.abandon, routes/jobs.ts releaseClaim): a concurrent request with the key may be
 * creating the job under it.
 */
export async function releaseIdempotencyKey(db: Db, k: { accountId: string; key: string; jobId: string }): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.accountId, k.accountId),
        eq(idempotencyKeys.idempotencyKey, k.key),
        eq(idempotencyKeys.jobId, k.jobId),
        isNull(idempotencyKeys.responseStatus),
      ),
    );
}

/** Hourly sweep: keys past the window. */
export async function deleteExpiredIdempotencyKeys(db: Db, now: number): Promise<number> {
  const result = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(now - IDEMPOTENCY_WINDOW_MS).toISOString()));
  return result.meta.changes ?? 0;
}
