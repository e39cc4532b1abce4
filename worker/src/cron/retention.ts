import { ARTIFACT_RETENTION_DAYS, addDays } from "../orchestration/job-lifecycle";
import type { Env } from "../env";

/** Jobs handled per sweep; the hourly cron catches up on the rest. */
export const RETENTION_BATCH = 100;

export interface RetentionReport {
  jobs: number;
  objects_deleted: number;
}

/** Deletes every object under `jobs/<id>/` (R2 lists and deletes at most 1000 keys per call). */
export async function deleteJobFiles(bucket: R2Bucket, jobId: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    // Always list from the start: the previous page was just deleted.
    const page = await bucket.list({ prefix: `jobs/${jobId}/`, limit: 1000 });
    if (page.objects.length === 0) return deleted;
    await bucket.delete(page.objects.map((o) => o.key));
    deleted += page.objects.length;
    if (!page.truncated) return deleted;
  }
}

/**
 * Retention (docs/API.md): about 30 days after a job last changed its files are deleted; the record stays and gets
 * artifacts_deleted_at. Completed jobs: at artifacts_expires_at. Failed jobs (a failure can leave partial
 * uploads): 30 days after their last change. Pending and running jobs are never touched.
 */
export async function sweepExpiredArtifacts(env: Env, now = new Date()): Promise<RetentionReport> {
  const nowIso = now.toISOString();
  const failedBefore = addDays(nowIso, -ARTIFACT_RETENTION_DAYS);
  const { results } = await env.DB.prepare(
    `SELECT id FROM jobs WHERE artifacts_deleted_at IS NULL AND (
       (status = 'completed' AND artifacts_expires_at <= ?1) OR (status = 'failed' AND updated_at <= ?2))
     ORDER BY updated_at LIMIT ?3`,
  )
    .bind(nowIso, failedBefore, RETENTION_BATCH)
    .all<{ id: string }>();

  let objects = 0;
  for (const { id } of results) {
    objects += await deleteJobFiles(env.ARTIFACTS, id);
    // Marked after the files are gone, so a sweep that dies half-way simply repeats the job next hour.
    await env.DB.prepare("UPDATE jobs SET artifacts_deleted_at = ? WHERE id = ?").bind(nowIso, id).run();
  }
  return { jobs: results.length, objects_deleted: objects };
}
