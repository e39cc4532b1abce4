-- Billing the VOD's real length (README, "Billing the real length"). A job is priced at acceptance on the probed
-- length (or on vod_length_hours when Twitch could not be reached); the analysis measures the real length, and the
-- difference is reserved (real length longer beyond the tolerance) or refunded at completion (shorter).
-- The length the job's processing credits are for, in seconds. NULL on rows from before this column.
ALTER TABLE jobs ADD COLUMN billed_vod_seconds REAL;
-- 'vod_length' marks the difference reserved or refunded for the real length; NULL for every other movement.
ALTER TABLE credit_ledger ADD COLUMN purpose TEXT CHECK (purpose IN ('vod_length'));
-- A job is still reserved once and refunded at most once, and besides that gets at most one VOD-length reservation
-- and one VOD-length refund, whatever retries and duplicate events happen.
DROP INDEX credit_ledger_once_per_job;
CREATE UNIQUE INDEX credit_ledger_once_per_job ON credit_ledger (job_id, kind, ifnull(purpose, '')) WHERE job_id IS NOT NULL;
