import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import type { AnalysisReused, JobRecord, ListJobsQuery, NormalizedJobRequest, VodInfo } from "../../../common/contract";
import type { JobLifecycle } from "../domain/job-transition";
import { movementStatements } from "./credits";
import type { Db } from "./db";
import { jobs, type JobRow } from "./schema";

/** Everything known about a job when it is accepted. */
export interface NewJob {
  job_id: string;
  account_id: string;
  vod_url: string;
  vod_id: string;
  vod_title: string | null;
  vod_duration_seconds: number;
  streamer_name: string | null;
  game_name: string | null;
  vod: VodInfo | null;
  request: NormalizedJobRequest;
  credit_cost: number;
  /** The length credit_cost's processing part is for (vod-length.ts). */
  billed_vod_seconds: number;
  webhook_url: string | null;
  /** The earlier job whose stored analysis this job reuses (analysis-reuse.ts), or null. */
  analysis_reused: AnalysisReused | null;
}

/**
 * Job row + reservation (balance update and ledger entry) as one batch: D1 runs a batch as a transaction, and
 * the accounts CHECK (credits >= 0) makes an overdraft abort all three statements.
 */
export function jobCreationBatch(db: Db, job: NewJob, state: JobLifecycle) {
  const insert = db.insert(jobs).values({
    id: job.job_id,
    accountId: job.account_id,
    status: state.status,
    progress: state.progress,
    stage: state.stage,
    vodUrl: job.vod_url,
    vodId: job.vod_id,
    vodTitle: job.vod_title,
    vodDurationSeconds: job.vod_duration_seconds,
    streamerName: job.streamer_name,
    gameName: job.game_name,
    vodJson: job.vod === null ? null : JSON.stringify(job.vod),
    requestJson: JSON.stringify(job.request),
    creditCost: job.credit_cost,
    billedVodSeconds: job.billed_vod_seconds,
    refundedCredits: 0,
    webhookUrl: job.webhook_url,
    analysisReusedFrom: job.analysis_reused?.from_job_id ?? null,
    analysisReusedAnalysedAt: job.analysis_reused?.analysed_at ?? null,
    searchText: searchText([job.job_id, job.vod_url, job.vod_title, job.streamer_name, job.game_name]),
    createdAt: state.created_at,
    updatedAt: state.updated_at,
  });
  const { update, entry } = movementStatements(db, {
    accountId: job.account_id,
    amount: -job.credit_cost,
    kind: "reserve",
    jobId: job.job_id,
    reason: "job accepted",
    at: state.created_at,
  });
  return [insert, update, entry] as const;
}

/**
 * The D1 mirror of a lifecycle change; `resultJson` is written once, on completion. credit_cost and the billed
 * length change when the real VOD length is settled; the real length, once measured, is the record's length.
 */
export function lifecycleUpdate(db: Db, s: JobLifecycle, resultJson?: string) {
  return db
    .update(jobs)
    .set({
      status: s.status,
      creditCost: s.credit_cost,
      ...(s.billed_vod_seconds == null ? {} : { billedVodSeconds: s.billed_vod_seconds }),
      ...(s.real_vod_seconds == null ? {} : { vodDurationSeconds: s.real_vod_seconds }),
      progress: s.progress,
      stage: s.stage,
      refundedCredits: s.refunded_credits,
      errorCode: s.error?.code ?? null,
      errorMessage: s.error?.message ?? null,
      updatedAt: s.updated_at,
      startedAt: s.started_at,
      finishedAt: s.finished_at,
      artifactsExpiresAt: s.artifacts_expires_at,
      ...(resultJson === undefined ? {} : { resultJson }),
    })
    .where(eq(jobs.id, s.job_id));
}

/** Joined with newlines (a search term cannot match across fields unless it contains one, which is stripped). */
export function searchText(parts: ReadonlyArray<string | null>): string {
  return parts
    .filter((p): p is string => p !== null && p !== "")
    .map((p) => p.toLowerCase())
    .join("\n");
}

export async function findJob(db: Db, accountId: string, jobId: string): Promise<JobRow | null> {
  const row = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.accountId, accountId)))
    .get();
  return row ?? null;
}

export async function findJobById(db: Db, jobId: string): Promise<JobRow | null> {
  return (await db.select().from(jobs).where(eq(jobs.id, jobId)).get()) ?? null;
}

export async function listJobs(db: Db, accountId: string, q: ListJobsQuery): Promise<{ rows: JobRow[]; total: number }> {
  const conditions: SQL[] = [eq(jobs.accountId, accountId)];
  if (q.status) conditions.push(eq(jobs.status, q.status));
  // eslint-disable-next-line no-control-regex
  const term = q.search?.replace(/[\u0000-\u001f]/g, "").toLowerCase() ?? "";
  // instr, not LIKE: D1 refuses LIKE patterns longer than 50 bytes ("LIKE or GLOB pattern too complex"), which a
  // 17-character CJK term already is; instr has no such limit and needs no escaping. Both sides are lower-cased
  // by JavaScript (SQLite's lower() only knows ASCII), so the match is case-insensitive in every script.
  if (term !== "") conditions.push(sql`instr(${jobs.searchText}, ${term}) > 0`);
  const where = and(...conditions);
  const [rows, count] = await db.batch([
    db
      .select()
      .from(jobs)
      .where(where)
      .orderBy(desc(jobs.id))
      .limit(q.page_size)
      .offset((q.page - 1) * q.page_size),
    db.select({ n: sql<number>`count(*)` }).from(jobs).where(where),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

export function toJobRecord(row: JobRow): JobRecord {
  const self = `/jobs/${row.id}`;
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    stage: row.stage,
    vod_url: row.vodUrl,
    vod_id: row.vodId,
    vod_title: row.vodTitle,
    vod_duration_seconds: row.vodDurationSeconds,
    streamer_name: row.streamerName,
    game_name: row.gameName,
    request: JSON.parse(row.requestJson) as NormalizedJobRequest,
    credit_cost: row.creditCost,
    // Rows from before the column was added were billed on their stored length.
    billed_vod_seconds: row.billedVodSeconds ?? row.vodDurationSeconds,
    refunded_credits: row.refundedCredits,
    error: row.errorCode === null ? null : { code: row.errorCode, message: row.errorMessage ?? "" },
    webhook_url: row.webhookUrl,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    started_at: row.startedAt,
    finished_at: row.finishedAt,
    artifacts_expires_at: row.artifactsExpiresAt,
    analysis_reused: row.analysisReusedFrom ? { from_job_id: row.analysisReusedFrom, analysed_at: row.analysisReusedAnalysedAt ?? "" } : null,
    links: { self, results: `${self}/results`, cancel: `${self}/cancel` },
  };
}
