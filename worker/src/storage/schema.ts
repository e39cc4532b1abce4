import { integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Drizzle view of migrations/0001_init.sql (the SQL file is the source of truth; a test compares both). */

export const accounts = sqliteTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  plan: text("plan", { enum: ["free", "starter", "pro", "studio"] }).notNull(),
  credits: integer("credits").notNull().default(0),
  purchased: integer("purchased", { mode: "boolean" }).notNull().default(false),
  webhookSigningSecret: text("webhook_signing_secret").notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const apiKeys = sqliteTable("api_keys", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull(),
  keyHash: text("key_hash").notNull(),
  keyPrefix: text("key_prefix").notNull(),
  createdAt: text("created_at").notNull(),
  revokedAt: text("revoked_at"),
});

export const jobs = sqliteTable("jobs", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull(),
  status: text("status", { enum: ["pending", "running", "completed", "failed"] }).notNull(),
  progress: integer("progress").notNull().default(0),
  stage: text("stage"),
  vodUrl: text("vod_url").notNull(),
  vodId: text("vod_id").notNull(),
  vodTitle: text("vod_title"),
  vodDurationSeconds: real("vod_duration_seconds").notNull(),
  streamerName: text("streamer_name"),
  gameName: text("game_name"),
  vodJson: text("vod_json"),
  requestJson: text("request_json").notNull(),
  creditCost: integer("credit_cost").notNull(),
  refundedCredits: integer("refunded_credits").notNull().default(0),
  errorCode: text("error_code"),
  errorMessage: text("error_message"),
  webhookUrl: text("webhook_url"),
  resultJson: text("result_json"),
  searchText: text("search_text").notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  startedAt: text("started_at"),
  finishedAt: text("finished_at"),
  artifactsExpiresAt: text("artifacts_expires_at"),
  /** Set by the retention sweep (migrations/0002) once the job's files are deleted. */
  artifactsDeletedAt: text("artifacts_deleted_at"),
  /** The length the processing credits are for (migrations/0004); null on rows from before it. */
  billedVodSeconds: real("billed_vod_seconds"),
  /** The earlier job whose analysis this job reused, and when that analysis was made (migrations/0005). */
  analysisReusedFrom: text("analysis_reused_from"),
  analysisReusedAnalysedAt: text("analysis_reused_analysed_at"),
});

export const LEDGER_KINDS = ["reserve", "refund", "purchase", "adjustment"] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
/** What a job's movement is for (migrations/0004): null for the job's price, `vod_length` for the real-length difference. */
export const LEDGER_PURPOSES = ["vod_length"] as const;
export type LedgerPurpose = (typeof LEDGER_PURPOSES)[number];

export const creditLedger = sqliteTable("credit_ledger", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  accountId: text("account_id").notNull(),
  jobId: text("job_id"),
  kind: text("kind", { enum: LEDGER_KINDS }).notNull(),
  amount: integer("amount").notNull(),
  balanceAfter: integer("balance_after").notNull(),
  reason: text("reason"),
  createdAt: text("created_at").notNull(),
  purpose: text("purpose", { enum: LEDGER_PURPOSES }),
});

export const jobFeedback = sqliteTable("job_feedback", {
  jobId: text("job_id").primaryKey(),
  accountId: text("account_id").notNull(),
  positive: integer("positive", { mode: "boolean" }).notNull(),
  reason: text("reason", { enum: ["wrong_moments", "timing_off", "needs_editing", "other"] }),
  notes: text("notes"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export type AccountRow = typeof accounts.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type JobRow = typeof jobs.$inferSelect;
export type LedgerRow = typeof creditLedger.$inferSelect;

/** POST /jobs Idempotency-Key records (migrations/0003). */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    accountId: text("account_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    requestHash: text("request_hash").notNull(),
    jobId: text("job_id").notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.idempotencyKey] })],
);
export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

/** Stored analyses a later job of the same account on the same VOD may reuse (migrations/0005, analysis-reuse.ts). */
export const vodAnalyses = sqliteTable("vod_analyses", {
  jobId: text("job_id").primaryKey(),
  accountId: text("account_id").notNull(),
  vodId: text("vod_id").notNull(),
  analysisVersion: integer("analysis_version").notNull(),
  optionsHash: text("options_hash").notNull(),
  objectName: text("object_name").notNull(),
  probedDurationSeconds: real("probed_duration_seconds"),
  vodDurationSeconds: real("vod_duration_seconds").notNull(),
  analysedAt: text("analysed_at").notNull(),
  expiresAt: text("expires_at").notNull(),
});
export type VodAnalysisRow = typeof vodAnalyses.$inferSelect;
