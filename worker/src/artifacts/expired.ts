import { ApiError } from "../lib/api-error";

type RetainedJob = { id: string; artifactsDeletedAt: string | null; artifactsExpiresAt: string | null };

/**
 * When a job's files stopped being available, or null while they are. R2's lifecycle rule deletes them (a day or
 * more after artifacts_expires_at, at its own pace) and the hourly cron only marks records, so the answer follows
 * the clock: from artifacts_expires_at on the files count as gone, whether or not the cron has marked the record
 * yet and whether or not the rule has deleted them yet (README, "Retention").
 */
export function filesGoneAt(job: RetainedJob, now = Date.now()): string | null {
  if (job.artifactsDeletedAt) return job.artifactsDeletedAt;
  if (job.artifactsExpiresAt && Date.parse(job.artifactsExpiresAt) <= now) return job.artifactsExpiresAt;
  return null;
}

/** 410 once the job's files are gone (filesGoneAt); the job record stays readable. */
export function artifactsExpired(job: RetainedJob, goneAt: string): ApiError {
  return new ApiError(
    410,
    "artifacts_expired",
    `The files of job ${job.id} expired on ${goneAt} and are deleted under the 30-day retention policy; the job record remains available.`,
    { artifacts_deleted_at: goneAt },
  );
}
