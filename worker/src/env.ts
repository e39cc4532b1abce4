import type { JobState } from "./durable/job-state";
import type { RateLimiter } from "./durable/rate-limiter";
import type { RenderContainer } from "./durable/render-container";

/** What the job queue carries: only the id; everything else is read from D1 when the message is handled. */
export interface JobQueueMessage {
  job_id: string;
}

/** Bindings, vars and secrets declared in wrangler.toml. */
export interface Env {
  DB: D1Database;
  ARTIFACTS: R2Bucket;
  JOBS_QUEUE: Queue<JobQueueMessage>;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  JOB_STATE: DurableObjectNamespace<JobState>;
  RENDER_CONTAINER: DurableObjectNamespace<RenderContainer>;

  TWITCH_GQL_URL: string;
  TWITCH_USHER_URL: string;
  /** Empty: derive links from the incoming request. */
  PUBLIC_BASE_URL: string;
  /** Empty: use the container binding. */
  RENDER_URL: string;
  R2_BUCKET_NAME: string;

  // Secrets: absent until `wrangler secret put` (or .dev.vars) provides them.
  ADMIN_TOKEN?: string;
  LINK_SIGNING_KEY?: string;
  R2_ACCOUNT_ID?: string;
  R2_ACCESS_KEY_ID?: string;
  R2_SECRET_ACCESS_KEY?: string;
}
