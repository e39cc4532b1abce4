import type { FeedbackInput } from "../../../common/contract";
import { nowIso, type Db } from "./db";
import { jobFeedback } from "./schema";

/** One vote per job; voting again overwrites reason and notes (the API promises that submitting again overwrites). */
export async function upsertFeedback(db: Db, jobId: string, accountId: string, input: FeedbackInput): Promise<void> {
  const now = nowIso();
  const values = {
    positive: input.positive,
    reason: input.positive ? null : (input.reason ?? null),
    notes: input.notes ? input.notes : null,
    updatedAt: now,
  };
  await db
    .insert(jobFeedback)
    .values({ jobId, accountId, createdAt: now, ...values })
    .onConflictDoUpdate({ target: jobFeedback.jobId, set: values });
}
