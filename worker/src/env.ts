import type { JobState } from "./orchestration/job-state";
import type { RateLimiter } from "./durable/rate-limiter";
import type { RecutContainer } from "./durable/recut-container";
import type { RenderContainer } from "./durable/render-container";

/**
 * What the job queue carries: one task of one job (task_id absent: the analysis task, as POST /jobs sends it);
 * everything else is read from D1 and the job's Durable Object when the message is handled.
 */
export interface JobQueueMessage {
  job_id: string;
  task_id?: string;
}

/**
 * Bindings, vars and secrets declared in wrangler.toml. The vars are read through `workerConfig(env)`
 * (config.ts), which validates them once per env object; nothing parses them here or where they are used.
 */
export interface Env {
  DB: D1Database;
  ARTIFACTS: R2Bucket;
  JOBS_QUEUE: Queue<JobQueueMessage>;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  JOB_STATE: DurableObjectNamespace<JobState>;
  RENDER_CONTAINER: DurableObjectNamespace<RenderContainer>;
  /** The re-cut Container class (`standard-4`, wrangler.toml): a re-cut's tasks start there first (orchestration/recut-route.ts). */
  RECUT_CONTAINER?: DurableObjectNamespace<RecutContainer>;
  /** Workers AI ([ai] in wrangler.toml): transcription and titles for the renderer (routes/internal-ai.ts). */
  AI?: Ai;

  TWITCH_GQL_URL: string;
  TWITCH_USHER_URL: string;
  /** Empty: derive links from the incoming request. */
  PUBLIC_BASE_URL: string;
  /** Renderer URL, or several comma-separated (a local pool); empty: one Cloudflare Container instance per task. */
  RENDER_URL: string;
  /** Locally: renderers a re-cut's tasks try first, standing in for RECUT_CONTAINER (comma-separated); empty: none. */
  RECUT_RENDER_URL?: string;
  R2_BUCKET_NAME: string;
  /** Seconds a running job may go without a renderer report before it fails (default 600). */
  WATCHDOG_SECONDS?: string;
  /** First webhook retry delay; later retries wait 4x and 16x as long (default 30). */
  WEBHOOK_RETRY_BASE_SECONDS?: string;
  /**
   * "true" lets webhook_url point to loopback receivers (127.0.0.0/8, ::1, localhost): for local development and
   * tests only. Unset (the default), every non-public address is refused.
   */
  WEBHOOK_ALLOW_LOOPBACK?: string;
  /** Lifetime of download links and the download-all token (default 86400). */
  LINK_TTL_SECONDS?: string;
  /** Hours a stored analysis is reused by the account's later jobs on the VOD (default 168; 0: never). */
  ANALYSIS_REUSE_HOURS?: string;
  /**
   * Part size handed to the renderer for uploads through the Worker (default 64 MiB; 5 MiB to 100 MB: R2's
   * smallest part and Cloudflare's request body limit). Tests use 5 MiB.
   */
  UPLOAD_PART_BYTES?: string;
  /**
   * "off" leaves the AI binding unused: jobs get no `ai` endpoint and the renderer transcribes offline and writes
   * texts from templates (the local dev stack and `npm run dev`, where the binding would need a Cloudflare login).
   * Unset or "on": the binding serves every job when it is bound.
   */
  WORKERS_AI?: string;
  /** Workers AI text model for titles and stories (default @cf/meta/llama-3.3-70b-instruct-fp8-fast). */
  WORKERS_AI_TEXT_MODEL?: string;
  /** S3 endpoint of the artifact bucket when it is not R2's `<account>.r2.cloudflarestorage.com` (tests, other stores). */
  R2_S3_ENDPOINT?: string;

  // Secrets: absent until `wrangler secret put` (or .dev.vars) provides them.
  ADMIN_TOKEN?: string;
  /** Bearer token the renderer service requires (sent on start and cancel). */
  RENDERER_TOKEN?: string;
  LINK_SIGNING_KEY?: string;
  /** The signing key before the last rotation: still accepted when verifying links, zip tokens and renderer tokens. */
  LINK_SIGNING_KEY_PREVIOUS?: string;
  R2_ACCOUNT_ID?: string;
  R2_ACCESS_KEY_ID?: string;
  R2_SECRET_ACCESS_KEY?: string;
}
