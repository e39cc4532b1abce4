import { NormalizedJobRequest, VodInfo, type UploadTarget } from "../../../common/contract";
import type { JobPlan, RenderTaskRequest } from "../../../common/contract/job-plan";
import { TASK_CONTRACT_VERSION } from "../../../common/contract/task-contract";
import { STORED_ANALYSIS_NAME, type AnalysisReuseSource } from "../../../common/contract/analysis-reuse";
import { artifactLink, rendererJobToken, rendererTaskToken, s3Configured } from "../artifacts/links";
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

/**
 * Where the task's files go: this attempt's own storage path and token, which open only the files the task makes
 * (and reads) while the attempt is current (orchestration/task-storage-scope.ts). With R2 API credentials the
 * renderer asks there for a presigned URL per object and operation (routes/internal-storage.ts), so the secret
 * key never reaches a process that parses media from the internet; without them, files go through the Worker.
 * The renderer only appends `/{name}` to the URL, so renderers of contract 2 built before per-task scope use it
 * unchanged.
 */
async function uploadTarget(env: Env, settings: DispatchSettings, jobId: string, task: RenderTaskRequest["task"]): Promise<UploadTarget> {
  const attempt = `${settings.baseUrl}/internal/jobs/${encodeURIComponent(jobId)}/tasks/${encodeURIComponent(task.id)}/attempts/${task.attempt}`;
  const token = await rendererTaskToken({ LINK_SIGNING_KEY: settings.linkSigningKey }, jobId, task.id, task.attempt);
  if (s3Configured(env)) return { mode: "presigned", url: `${attempt}/storage`, token };
  return { mode: "worker", url: `${attempt}/artifacts`, token };
}

/**
 * One task of the job for the renderer: the job's fields (everything it needs; it never reads D1 or the API), the
 * task, the stored plan, and the task's own callback URL.
 */
export async function buildTaskRequest(env: Env, settings: DispatchSettings, row: JobRow, task: RenderTaskRequest["task"], plan: JobPlan | null): Promise<RenderTaskRequest> {
  const request = NormalizedJobRequest.parse(JSON.parse(row.requestJson));
  const token = await rendererJobToken({ LINK_SIGNING_KEY: settings.linkSigningKey }, row.id);
  const job = `${settings.baseUrl}/internal/jobs/${encodeURIComponent(row.id)}`;
  return {
    // Which task contract this Worker speaks: a renderer of another image answers 409 and the task waits for one that knows it.
    contract: TASK_CONTRACT_VERSION,
    job_id: row.id,
    request,
    vod: vodInfoOf(row, request),
    callback: {
      url: `${job}/tasks/${encodeURIComponent(task.id)}/events`,
      token,
      // Up to three missed heartbeats are forgiven before the watchdog gives the task up as lost.
      heartbeat_seconds: Math.max(1, Math.floor(watchdogMs(env) / 4000)),
    },
    upload: await uploadTarget(env, settings, row.id, task),
    twitch: { gql_url: workerConfig(env).twitchGqlUrl, usher_url: workerConfig(env).twitchUsherUrl },
    // Workers AI through this Worker (routes/internal-ai.ts), with the same per-job token as callbacks (files have their own).
    ai: workersAi(env) ? { url: `${job}/ai/v1`, token } : null,
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
  const url = await artifactLink({ ...env, LINK_SIGNING_KEY: settings.linkSigningKey }, settings.baseUrl, row.analysisReusedFrom, STORED_ANALYSIS_NAME, expiresAt);
  return { from_job_id: row.analysisReusedFrom, analysed_at: row.analysisReusedAnalysedAt ?? "", url };
}
