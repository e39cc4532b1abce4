import { NormalizedJobRequest, VodInfo, type UploadTarget } from "../../../common/contract";
import type { JobPlan, RenderTaskRequest } from "../../../common/contract/job-plan";
import { TASK_CONTRACT_VERSION } from "../../../common/contract/task-contract";
import { MAX_HEARD_LINKS, STORED_ANALYSIS_NAME, type AnalysisReuseSource } from "../../../common/contract/analysis-reuse";
import { heardWordsName } from "../../../common/contract/heard-words";
import { heardWordSources } from "../storage/analyses";
import { openDb } from "../storage/db";
import { artifactLink, rendererTaskToken, s3Configured } from "../artifacts/links";
import { workersAi } from "../ai/workers-ai";
import { workerConfig } from "../config";
import type { Env } from "../env";
import type { JobRow } from "../storage/schema";
import { watchdogMs } from "./watchdog";

/** A setting the Worker needs before it can hand a job to the renderer is missing: nothing will fix it by retrying. */
export class DispatchConfigError extends Error {
  constructor(readonly missing: string[]) {
    super(`the Worker is not configured for rendering: ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not set`);
    this.name = "DispatchConfigError";
  }
}

export interface DispatchSettings {
  /** Where the renderer reaches this Worker: callbacks and uploads. */
  baseUrl: string;
  linkSigningKey: string;
}

export function dispatchSettings(env: Env): DispatchSettings {
  const baseUrl = workerConfig(env).publicBaseUrl;
  const missing: string[] = [];
  // The renderer runs elsewhere and calls back; there is no incoming request to derive the address from.
  if (!baseUrl) missing.push("PUBLIC_BASE_URL");
  if (!env.LINK_SIGNING_KEY) missing.push("LINK_SIGNING_KEY");
  if (missing.length) throw new DispatchConfigError(missing);
  return { baseUrl: baseUrl!, linkSigningKey: env.LINK_SIGNING_KEY! };
}

/** The probe result, or what the row knows when vod_length_hours skipped the probe. */
export function vodInfoOf(row: JobRow, request: NormalizedJobRequest): VodInfo {
  if (row.vodJson) return VodInfo.parse(JSON.parse(row.vodJson));
  return {
    vod_id: row.vodId,
    title: row.vodTitle ?? `VOD ${row.vodId}`,
    duration_seconds: row.vodDurationSeconds,
    streamer_login: null,
    streamer_display_name: row.streamerName,
    game_name: row.gameName,
    created_at: null,
    language: request.stream_language,
  };
}

/** Where everything one task attempt calls lives (routes/internal-*.ts, task-events.ts), and the token it takes there. */
interface AttemptAccess {
  url: string;
  token: string;
}

/**
 * One attempt's own path and token (links.ts' rendererTaskToken): its events, its Workers AI calls and its files
 * are served there only while the attempt is current, and its files only those the task makes or reads
 * (orchestration/task-call-scope.ts, task-storage-scope.ts). The renderer parses media from the internet, so what
 * it holds speaks for that attempt alone, never for the job's other tasks.
 */
async function attemptAccess(settings: DispatchSettings, jobId: string, task: RenderTaskRequest["task"]): Promise<AttemptAccess> {
  return {
    url: `${settings.baseUrl}/internal/jobs/${encodeURIComponent(jobId)}/tasks/${encodeURIComponent(task.id)}/attempts/${task.attempt}`,
    token: await rendererTaskToken({ LINK_SIGNING_KEY: settings.linkSigningKey }, jobId, task.id, task.attempt),
  };
}

/**
 * Where the task's files go. With R2 API credentials the renderer asks for a presigned URL per object and
 * operation (routes/internal-storage.ts), so the secret key never reaches a process that parses media from the
 * internet; without them, files go through the Worker. The renderer only appends `/{name}` to the URL, so
 * renderers of contract 2 built before per-task scope use it unchanged.
 */
function uploadTarget(env: Env, access: AttemptAccess): UploadTarget {
  if (s3Configured(env)) return { mode: "presigned", url: `${access.url}/storage`, token: access.token };
  return { mode: "worker", url: `${access.url}/artifacts`, token: access.token };
}

/**
 * One task of the job for the renderer: the job's fields (everything it needs; it never reads D1 or the API), the
 * task, the stored plan, and the attempt's own callback, upload target and AI endpoint. The renderer treats their
 * URLs and token as opaque (it only appends its own path to them), so moving them needs no task contract change.
 */
export async function buildTaskRequest(env: Env, settings: DispatchSettings, row: JobRow, task: RenderTaskRequest["task"], plan: JobPlan | null): Promise<RenderTaskRequest> {
  const request = NormalizedJobRequest.parse(JSON.parse(row.requestJson));
  const access = await attemptAccess(settings, row.id, task);
  return {
    // Which task contract this Worker speaks: a renderer of another image answers 409 and the task waits for one that knows it.
    contract: TASK_CONTRACT_VERSION,
    job_id: row.id,
    request,
    vod: vodInfoOf(row, request),
    callback: {
      url: `${access.url}/events`,
      token: access.token,
      // Up to three missed heartbeats are forgiven before the watchdog gives the task up as lost.
      heartbeat_seconds: Math.max(1, Math.floor(watchdogMs(env) / 4000)),
    },
    upload: uploadTarget(env, access),
    twitch: { gql_url: workerConfig(env).twitchGqlUrl, usher_url: workerConfig(env).twitchUsherUrl },
    // Workers AI through this Worker (routes/internal-ai.ts), for this attempt only.
    ai: workersAi(env) ? { url: `${access.url}/ai/v1`, token: access.token } : null,
    // Only the analysis task reads a reused analysis; render tasks work from the plan it made.
    reuse: task.kind === "analyse" ? await reuseSource(env, settings, row) : null,
    task,
    plan,
  };
}

/** The renderer reads the stored object at the start of its task: a link valid this long is plenty, and is minted per dispatch. */
const REUSE_LINK_TTL_SECONDS = 3600;

/** Where the analysis task of a job that reuses an earlier analysis reads it (a signed link into that job's files). */
async function reuseSource(env: Env, settings: DispatchSettings, row: JobRow): Promise<AnalysisReuseSource | null> {
  if (!row.analysisReusedFrom) return null;
  const expiresAt = Math.floor(Date.now() / 1000) + REUSE_LINK_TTL_SECONDS;
  const linkEnv = { ...env, LINK_SIGNING_KEY: settings.linkSigningKey };
  const url = await artifactLink(linkEnv, settings.baseUrl, row.analysisReusedFrom, STORED_ANALYSIS_NAME, expiresAt);
  // The words earlier shorts heard, for a re-cut's short to hear only what none of them did (heard-words.ts).
  const sources = await heardWordSources(openDb(env.DB), { accountId: row.accountId, fromJobId: row.analysisReusedFrom });
  const names = sources.flatMap((s) => s.shorts.map((i) => ({ jobId: s.jobId, name: heardWordsName(i) }))).slice(0, MAX_HEARD_LINKS);
  const heard = await Promise.all(names.map((n) => artifactLink(linkEnv, settings.baseUrl, n.jobId, n.name, expiresAt)));
  return { from_job_id: row.analysisReusedFrom, analysed_at: row.analysisReusedAnalysedAt ?? "", url, heard };
}
