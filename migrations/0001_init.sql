-- Accounts, API keys, credit ledger, jobs and feedback of the highlight API (D1 / SQLite).
-- Timestamps are ISO 8601 UTC text (they sort as text); money is whole credits.

CREATE TABLE accounts (
  id                     TEXT PRIMARY KEY,
  name                   TEXT NOT NULL,
  plan                   TEXT NOT NULL CHECK (plan IN ('free', 'starter', 'pro', 'studio')),
  -- The balance can never go negative: a reservation that would overdraw aborts its whole batch.
  credits                INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
  purchased              INTEGER NOT NULL DEFAULT 0 CHECK (purchased IN (0, 1)),
  webhook_signing_secret TEXT NOT NULL,
  created_at             TEXT NOT NULL,
  updated_at             TEXT NOT NULL
);

CREATE TABLE api_keys (
  id          TEXT PRIMARY KEY,
  account_id  TEXT NOT NULL REFERENCES accounts (id),
  key_hash    TEXT NOT NULL UNIQUE,
  key_prefix  TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  revoked_at  TEXT
);
CREATE INDEX api_keys_by_account ON api_keys (account_id);

CREATE TABLE jobs (
  id                    TEXT PRIMARY KEY,
  account_id            TEXT NOT NULL REFERENCES accounts (id),
  status                TEXT NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed')),
  progress              INTEGER NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  stage                 TEXT,
  vod_url               TEXT NOT NULL,
  vod_id                TEXT NOT NULL,
  vod_title             TEXT,
  vod_duration_seconds  REAL NOT NULL,
  streamer_name         TEXT,
  game_name             TEXT,
  -- Probe result (VodInfo) or NULL when vod_length_hours skipped the probe.
  vod_json              TEXT,
  -- NormalizedJobRequest.
  request_json          TEXT NOT NULL,
  credit_cost           INTEGER NOT NULL CHECK (credit_cost >= 0),
  refunded_credits      INTEGER NOT NULL DEFAULT 0 CHECK (refunded_credits >= 0),
  error_code            TEXT,
  error_message         TEXT,
  webhook_url           TEXT,
  -- What the renderer reported on completion (manifest + artifacts), read by the results endpoint.
  result_json           TEXT,
  -- Lower-cased (full Unicode) id, vod_url, title, streamer and game joined by newlines: the search target.
  search_text           TEXT NOT NULL,
  created_at            TEXT NOT NULL,
  updated_at            TEXT NOT NULL,
  started_at            TEXT,
  finished_at           TEXT,
  artifacts_expires_at  TEXT
);
-- Job ids are ULIDs, so ordering by id is ordering by creation time.
CREATE INDEX jobs_by_account ON jobs (account_id, id DESC);
CREATE INDEX jobs_by_account_status ON jobs (account_id, status, id DESC);
CREATE INDEX jobs_by_artifacts_expiry ON jobs (artifacts_expires_at) WHERE artifacts_expires_at IS NOT NULL;

CREATE TABLE credit_ledger (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id     TEXT NOT NULL REFERENCES accounts (id),
  job_id         TEXT REFERENCES jobs (id),
  kind           TEXT NOT NULL CHECK (kind IN ('reserve', 'refund', 'purchase', 'adjustment')),
  amount         INTEGER NOT NULL,
  balance_after  INTEGER NOT NULL,
  reason         TEXT,
  created_at     TEXT NOT NULL
);
CREATE INDEX credit_ledger_by_account ON credit_ledger (account_id, id DESC);
-- A job is reserved once and refunded at most once, whatever retries happen.
CREATE UNIQUE INDEX credit_ledger_once_per_job ON credit_ledger (job_id, kind) WHERE job_id IS NOT NULL;

CREATE TABLE job_feedback (
  job_id      TEXT PRIMARY KEY REFERENCES jobs (id),
  account_id  TEXT NOT NULL REFERENCES accounts (id),
  positive    INTEGER NOT NULL CHECK (positive IN (0, 1)),
  reason      TEXT CHECK (reason IN ('wrong_moments', 'timing_off', 'needs_editing', 'other')),
  notes       TEXT,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);
