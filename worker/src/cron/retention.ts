import { ARTIFACT_RETENTION_DAYS, addDays } from "../orchestration/job-lifecycle";
import type { Env } from "../env";

// The files themselves are deleted by the bucket's lifecycle rule (LIFECYCLE_EXPIRE_DAYS, job-lifecycle.ts).

export interface RetentionReport {
  jobs_marked: number;
}

/**
 * Retention (docs/API.md): R2's lifecycle rule deletes the files, this marks the records, in one statement whatever
 * the number of jobs due. Completed jobs are marked at their artifacts_expires_at (the moment the API began
 * answering 410, artifacts/expired.ts), so the record says the same whenever the sweep runs and whether or not the
 * rule deleted first. Failed jobs (a failure can leave partial uploads, deleted by the same rule) are marked 30 days
 * after their last change. Pending and running jobs are never touched.
 */
export async function markExpiredArtifacts(env: Env, now = new Date()): Promise<RetentionReport> {
  const nowIso = now.toISOString();
  const failedBefore = addDays(nowIso, -ARTIFACT_RETENTION_DAYS);
  const { meta } = await env.DB.prepare(
    `UPDATE jobs SET artifacts_deleted_at = CASE WHEN status = 'completed' THEN artifacts_expires_at ELSE ?1 END
     WHERE artifacts_deleted_at IS NULL AND (
       (status = 'completed' AND artifacts_expires_at <= ?1) OR (status = 'failed' AND updated_at <= ?2))`,
  )
    .bind(nowIso, failedBefore)
    .run();
  return { jobs_marked: meta.changes ?? 0 };
}
