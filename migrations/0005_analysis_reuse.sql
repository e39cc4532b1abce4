-- Re-cut in seconds (docs/TASK-MODEL.md, "Reusing an analysis"): a job's whole-VOD analysis is stored beside its
-- files (jobs/<job_id>/analysis.json.gz) and reused by the same account's later jobs on the same VOD.
-- One row per job whose analysis was stored, written when that job completes.
CREATE TABLE vod_analyses (
  -- The job that analysed the VOD: the object lives in its folder, so it goes when that job's files go.
  job_id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  vod_id TEXT NOT NULL,
  -- ANALYSIS_VERSION of the renderer that made it (common/contract/analysis-reuse.ts); another version never matches.
  analysis_version INTEGER NOT NULL,
  -- SHA-256 of the analysis-relevant request fields (ANALYSIS_OPTION_FIELDS: model_preset, stream_language).
  options_hash TEXT NOT NULL,
  object_name TEXT NOT NULL,
  -- The VOD's length as Twitch reported it when the job was accepted; a later probe that differs means the VOD
  -- changed, and the analysis is not reused. NULL when the job was accepted without a probe: never reused.
  probed_duration_seconds REAL,
  -- The length the analysis measured.
  vod_duration_seconds REAL NOT NULL,
  analysed_at TEXT NOT NULL,
  -- min(analysed_at + the reuse window, the job's artifacts_expires_at): never past the retention of its files.
  expires_at TEXT NOT NULL
);
-- The lookup of POST /jobs and /jobs/estimate: the newest analysis of one account's VOD with these options.
CREATE INDEX vod_analyses_lookup ON vod_analyses (account_id, vod_id, analysis_version, options_hash, analysed_at);
-- The hourly sweep deletes expired rows.
CREATE INDEX vod_analyses_by_expiry ON vod_analyses (expires_at);
-- Which earlier job's analysis a job reused, and when that analysis was made (the API's analysis_reused);
-- NULL when the job analysed the VOD itself.
ALTER TABLE jobs ADD COLUMN analysis_reused_from TEXT;
ALTER TABLE jobs ADD COLUMN analysis_reused_analysed_at TEXT;
