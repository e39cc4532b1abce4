import type { AppEnv } from "../hono-env";
import { jobNotFound } from "../lib/api-error";
import { openDb } from "../storage/db";
import { findJob } from "../storage/jobs";
import type { AccountRow, JobRow } from "../storage/schema";

/** The caller's job; another account's job is indistinguishable from a missing one (404). */
export async function ownedJob(env: AppEnv["Bindings"], account: AccountRow, id: string): Promise<JobRow> {
  const row = await findJob(openDb(env.DB), account.id, id);
  if (!row) throw jobNotFound();
  return row;
}
