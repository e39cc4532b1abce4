import { z } from "zod";
import { DEFAULT_GQL_URL, DEFAULT_USHER_URL } from "../../common/twitch/gql";
import { R2_MIN_PART_BYTES, WORKER_MAX_REQUEST_BYTES } from "./artifacts/platform-limits";

/**
 * The Worker's vars (wrangler.toml [vars], .dev.vars, test bindings), validated in one place and read as typed
 * settings everywhere else. A value that is set but malformed is refused with one line naming the setting,
 * rather than replaced by a default nobody notices. Unset and empty are the same: the default applies.
 * Bindings and secrets stay on `Env` (env.ts); the renderer's own settings are render-container/src/config.ts.
 */

export const DEFAULT_WATCHDOG_SECONDS = 600;
export const DEFAULT_WEBHOOK_RETRY_BASE_SECONDS = 30;
export const DEFAULT_LINK_TTL_SECONDS = 24 * 60 * 60;
export const DEFAULT_UPLOAD_PART_BYTES = 64 * 1024 * 1024;
export const DEFAULT_BUCKET_NAME = "highlight-artifacts";
/** How long a job's analysis of a VOD is reused by the same account's later jobs (docs/PRICING-AND-RULES.md). */
export const DEFAULT_ANALYSIS_REUSE_HOURS = 168;
/**
 * Titles, descriptions, tags and stories: Llama 3.3 70B (fp8, "fast"), multilingual, JSON mode, a 24,000-token
 * context window. WORKERS_AI_TEXT_MODEL may name another instruct model taking `messages`.
 */
export const DEFAULT_TEXT_MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

export interface WorkerConfig {
  twitchGqlUrl: string;
  twitchUsherUrl: string;
  /** Without trailing slashes; null: derive links from the incoming request (none to derive from off a request). */
  publicBaseUrl: string | null;
  /** RENDER_URL's renderers, without trailing slashes; empty: one Cloudflare Container instance per task. */
  rendererUrls: string[];
  /** RECUT_RENDER_URL's renderers (local stand-in for the re-cut Container class, orchestration/recut-route.ts); empty: none. */
  recutRendererUrls: string[];
  r2BucketName: string;
  watchdogSeconds: number;
  webhookRetryBaseSeconds: number;
  /** Loopback webhook receivers allowed (local development and tests only). */
  webhookAllowLoopback: boolean;
  linkTtlSeconds: number;
  uploadPartBytes: number;
  /** False: the AI binding stays unused even when bound. */
  workersAi: boolean;
  workersAiTextModel: string;
  /** Without a trailing slash; null: R2's `<account>.r2.cloudflarestorage.com`. */
  r2S3Endpoint: string | null;
  /** Hours a stored analysis is reused (never past its job's file retention); 0: analyses are never reused. */
  analysisReuseHours: number;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

const unset = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v);
const withoutTrailingSlashes = (u: string) => u.replace(/\/+$/, "");
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).transform(withoutTrailingSlashes);
const optionalUrl = z.preprocess(unset, httpUrl.optional());
const seconds = (fallback: number) =>
  z.preprocess(unset, z.coerce.number({ error: "must be a number of seconds" }).positive("must be greater than 0").finite("must be a number of seconds").default(fallback));
const flag = (fallback: boolean, on: string, off: string) =>
  z.preprocess(
    (v) => (typeof unset(v) === "string" ? (unset(v) as string).toLowerCase() : unset(v)),
    z
      .enum([on, off], { error: `must be "${on}" or "${off}"` })
      .optional()
      .transform((v) => (v === undefined ? fallback : v === on)),
  );

const rendererUrlList = z.preprocess(
  (v) =>
    typeof v === "string"
      ? v
          .split(",")
          .map((u) => u.trim())
          .filter(Boolean)
      : [],
  z.array(httpUrl, { error: "must be renderer URLs separated by commas" }),
);

const Vars = z.object({
  TWITCH_GQL_URL: optionalUrl,
  TWITCH_USHER_URL: optionalUrl,
  PUBLIC_BASE_URL: optionalUrl,
  RENDER_URL: rendererUrlList,
  RECUT_RENDER_URL: rendererUrlList,
  R2_BUCKET_NAME: z.preprocess(unset, z.string().default(DEFAULT_BUCKET_NAME)),
  WATCHDOG_SECONDS: seconds(DEFAULT_WATCHDOG_SECONDS),
  WEBHOOK_RETRY_BASE_SECONDS: seconds(DEFAULT_WEBHOOK_RETRY_BASE_SECONDS),
  WEBHOOK_ALLOW_LOOPBACK: flag(false, "true", "false"),
  LINK_TTL_SECONDS: z.preprocess(unset, z.coerce.number({ error: "must be a whole number of seconds" }).int("must be a whole number of seconds").positive("must be greater than 0").default(DEFAULT_LINK_TTL_SECONDS)),
  UPLOAD_PART_BYTES: z.preprocess(
    unset,
    z.coerce
      .number({ error: "must be a whole number of bytes" })
      .int("must be a whole number of bytes")
      .min(R2_MIN_PART_BYTES, `must be at least ${R2_MIN_PART_BYTES} (R2's smallest part)`)
      .max(WORKER_MAX_REQUEST_BYTES, `must be at most ${WORKER_MAX_REQUEST_BYTES} (Cloudflare's request body limit)`)
      .default(DEFAULT_UPLOAD_PART_BYTES),
  ),
  WORKERS_AI: flag(true, "on", "off"),
  WORKERS_AI_TEXT_MODEL: z.preprocess(unset, z.string().default(DEFAULT_TEXT_MODEL)),
  R2_S3_ENDPOINT: optionalUrl,
  ANALYSIS_REUSE_HOURS: z.preprocess(
    unset,
    z.coerce
      .number({ error: "must be a number of hours" })
      .min(0, "must be 0 (off) or more")
      .max(24 * 30, "must be at most 720 (the 30-day retention of a job's files)")
      .default(DEFAULT_ANALYSIS_REUSE_HOURS),
  ),
});

/** The vars config.ts reads; `Env` and any part of it qualify. */
export type ConfigInput = { readonly [K in keyof typeof Vars.shape]?: string | undefined };
const VAR_NAMES = Object.keys(Vars.shape) as (keyof typeof Vars.shape)[];

/** Parsed once per env object: the runtime hands the same object to every request of an isolate. */
const cache = new WeakMap<object, WorkerConfig>();

/** The Worker's settings from its vars; throws ConfigError naming every malformed one. */
export function workerConfig(env: ConfigInput): WorkerConfig {
  const cached = cache.get(env);
  if (cached) return cached;
  // Only the vars: the env object also holds bindings, which are not for zod to walk.
  const input = Object.fromEntries(VAR_NAMES.map((name) => [name, env[name]]));
  const parsed = Vars.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "vars") as keyof ConfigInput;
      return `${name} ${issue.message} (got ${JSON.stringify(env[name] ?? null)})`;
    });
    throw new ConfigError(`The Worker's vars are invalid: ${problems.join("; ")}.`);
  }
  const v = parsed.data;
  const config: WorkerConfig = {
    twitchGqlUrl: v.TWITCH_GQL_URL ?? DEFAULT_GQL_URL,
    twitchUsherUrl: v.TWITCH_USHER_URL ?? DEFAULT_USHER_URL,
    publicBaseUrl: v.PUBLIC_BASE_URL ?? null,
    rendererUrls: v.RENDER_URL,
    recutRendererUrls: v.RECUT_RENDER_URL,
    r2BucketName: v.R2_BUCKET_NAME,
    watchdogSeconds: v.WATCHDOG_SECONDS,
    webhookRetryBaseSeconds: v.WEBHOOK_RETRY_BASE_SECONDS,
    webhookAllowLoopback: v.WEBHOOK_ALLOW_LOOPBACK,
    linkTtlSeconds: v.LINK_TTL_SECONDS,
    uploadPartBytes: v.UPLOAD_PART_BYTES,
    workersAi: v.WORKERS_AI,
    workersAiTextModel: v.WORKERS_AI_TEXT_MODEL,
    r2S3Endpoint: v.R2_S3_ENDPOINT ?? null,
    analysisReuseHours: v.ANALYSIS_REUSE_HOURS,
  };
  cache.set(env, config);
  return config;
}
