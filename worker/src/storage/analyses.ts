import { and, desc, eq, gt, isNull, lt, or } from "drizzle-orm";
import { ANALYSIS_VERSION, type AnalysisReused } from "../../../common/contract/analysis-reuse";
import { workerConfig, type ConfigInput } from "../config";
import { analysisOptionsHash, PROBED_LENGTH_TOLERANCE_SECONDS, REUSE_MIN_REMAINING_MS } from "../domain/analysis-reuse";
import type { FindReusableFn } from "../domain/prepare-job";
import { openDb, type Db } from "./db";
import { jobs, vodAnalyses, type VodAnalysisRow } from "./schema";

/** What a lookup is for: this account's VOD with these analysis options, as Twitch reports its length now. */
export interface ReuseQuery {
  accountId: string;
  vodId: string;
  optionsHash: string;
  /** The probe's length; null (Twitch could not be reached) never matches: the VOD could not be checked. */
  probedDurationSeconds: number | null;
  now: number;
}

/**
 * The newest stored analysis a new job may reuse, or null. Valid when: same account, VOD, ANALYSIS_VERSION and
 * options; made by a job that completed and whose files the retention sweep has not deleted; not expiring within
 * REUSE_MIN_REMAINING_MS; and made on a VOD Twitch still reports at the same length.
 */
export async function findReusableAnalysis(db: Db, q: ReuseQuery): Promise<(AnalysisReused & { row: VodAnalysisRow }) | null> {
  if (q.probedDurationSeconds === null) return null;
  const rows = await db
    .select({ analysis: vodAnalyses })
    .from(vodAnalyses)
    .innerJoin(jobs, eq(jobs.id, vodAnalyses.jobId))
    .where(
      and(
        eq(vodAnalyses.accountId, q.accountId),
        eq(vodAnalyses.vodId, q.vodId),
        eq(vodAnalyses.analysisVersion, ANALYSIS_VERSION),
        eq(vodAnalyses.optionsHash, q.optionsHash),
        gt(vodAnalyses.expiresAt, new Date(q.now + REUSE_MIN_REMAINING_MS).toISOString()),
        eq(jobs.accountId, q.accountId),
        eq(jobs.status, "completed"),
        isNull(jobs.artifactsDeletedAt),
      ),
    )
    .orderBy(desc(vodAnalyses.analysedAt))
    .limit(5);
  const probed = q.probedDurationSeconds;
  const match = rows.map((r) => r.analysis).find((a) => a.probedDurationSeconds !== null && Math.abs(a.probedDurationSeconds - probed) <= PROBED_LENGTH_TOLERANCE_SECONDS);
  return match ? { from_job_id: match.jobId, analysed_at: match.analysedAt, row: match } : null;
}

/** How many jobs' shorts a re-cut's words may come from: the analysed job and the newest re-cuts that reused it. */
const HEARD_JOBS = 5;

/**
 * The shorts whose heard words a re-cut reusing `fromJobId`'s analysis may take (docs/TASK-MODEL.md, "A re-cut's
 * words heard once"): those of that job and of the account's later jobs that reused the same analysis (a client
 * moving a re-cut's bounds again), newest first; only completed jobs of the same account whose files the
 * retention sweep has not deleted. One indexed D1 query; the shorts are read from each job's stored result.
 */
export async function heardWordSources(db: Db, q: { accountId: string; fromJobId: string }): Promise<{ jobId: string; shorts: number[] }[]> {
  const rows = await db
    .select({ id: jobs.id, resultJson: jobs.resultJson })
    .from(jobs)
    .where(and(or(eq(jobs.id, q.fromJobId), eq(jobs.analysisReusedFrom, q.fromJobId)), eq(jobs.accountId, q.accountId), eq(jobs.status, "completed"), isNull(jobs.artifactsDeletedAt)))
    .orderBy(desc(jobs.createdAt))
    .limit(HEARD_JOBS);
  return rows.map((r) => ({ jobId: r.id, shorts: shortIndexes(r.resultJson) })).filter((r) => r.shorts.length > 0);
}

/** The indexes of the shorts a completed job's stored result lists (its `artifacts`, kind "short"). */
function shortIndexes(resultJson: string | null): number[] {
  try {
    const artifacts = (JSON.parse(resultJson ?? "null") as { artifacts?: { kind?: unknown; index?: unknown }[] } | null)?.artifacts ?? [];
    return artifacts.filter((a) => a.kind === "short" && Number.isInteger(a.index)).map((a) => a.index as number);
  } catch {
    return [];
  }
}

/** Indexes a completed job's stored analysis; a second call for the job changes nothing (duplicate completions). */
export async function registerAnalysis(db: Db, row: VodAnalysisRow): Promise<void> {
  await db.insert(vodAnalyses).values(row).onConflictDoNothing();
}

/** The hourly sweep: rows past their expiry are never offered again; their objects go with their jobs' files. */
export async function deleteExpiredAnalyses(db: Db, now: Date): Promise<number> {
  const gone = await db.delete(vodAnalyses).where(lt(vodAnalyses.expiresAt, now.toISOString())).returning({ jobId: vodAnalyses.jobId });
  return gone.length;
}

/** POST /jobs' and /jobs/estimate's lookup for one account; undefined when the deployment reuses nothing (ANALYSIS_REUSE_HOURS = 0). */
export function analysisFinder(env: { DB: D1Database } & ConfigInput, accountId: string): FindReusableFn | undefined {
  if (workerConfig(env).analysisReuseHours <= 0) return undefined;
  const db = openDb(env.DB);
  return async (request, probedSeconds) => {
    const found = await findReusableAnalysis(db, { accountId, vodId: request.vod_id, optionsHash: await analysisOptionsHash(request), probedDurationSeconds: probedSeconds, now: Date.now() });
    return found ? { from_job_id: found.from_job_id, analysed_at: found.analysed_at } : null;
  };
}
