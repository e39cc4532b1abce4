-- Idempotency-Key on POST /jobs: one row per account and key. The primary key is what makes concurrent requests
-- with one key agree on one job: the first INSERT wins, the others read its job id.
CREATE TABLE idempotency_keys (
  account_id TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  -- SHA-256 of the request body in canonical JSON: the same key with another body is refused.
  request_hash TEXT NOT NULL,
  -- Chosen when the key is first seen; every request with the key works on this job id.
  job_id TEXT NOT NULL,
  -- The answer given (202 and its JSON body) once the job exists; null while the first request is under way.
  response_status INTEGER,
  response_body TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (account_id, idempotency_key)
);
-- The hourly sweep deletes keys older than 24 h.
CREATE INDEX idempotency_keys_by_created ON idempotency_keys (created_at);
