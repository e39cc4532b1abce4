-- Retention (spec 2.12) and the watchdog safety net.
-- When the hourly sweep deleted a job's files from R2; the job record itself stays.
ALTER TABLE jobs ADD COLUMN artifacts_deleted_at TEXT;
-- The sweep's and the watchdog's scans: jobs of one status ordered by when they last changed.
CREATE INDEX jobs_by_status_updated ON jobs (status, updated_at);
