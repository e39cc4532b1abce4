import { ApiError } from "../lib/api-error";

/** 410 once the retention sweep deleted the job's files; the job record stays readable. */
export function artifactsExpired(job: { id: string; artifactsDeletedAt: string | null }): ApiError {
  return new ApiError(
    410,
    "artifacts_expired",
    `The files of job ${job.id} were deleted on ${job.artifactsDeletedAt} under the 30-day retention policy; the job record remains available.`,
    { artifacts_deleted_at: job.artifactsDeletedAt },
  );
}
