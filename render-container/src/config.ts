import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { TWITCH_EMOTE_CDN } from "./chat-overlay/emotes";

/**
 * Everything the renderer reads from its environment, validated in one place (the renderer's env module). A
 * value that is set but malformed stops the renderer at start with one clear line, rather than being replaced
 * by a default nobody notices. FACECAM_REGION is the exception: it is a hint, so a malformed one is logged as
 * ignored (main.ts) and the default region is used.
 */
export interface RendererConfig {
  port: number;
  /** 127.0.0.1 unless HOST says otherwise (the container image sets 0.0.0.0: its proxy connects from outside). */
  host: string;
  workRoot: string;
  /** Required unless devMode. */
  token: string | undefined;
  /** RENDERER_DEV_MODE=1: may run without RENDERER_TOKEN (local tools and tests only). */
  devMode: boolean;
  downloadConcurrency: number;
  /** Hard bound on the video bytes one job may download (disk guard). */
  maxVideoBytesPerJob: number;
  /** Shorts encoded at once; each x264 encode wants ~330 MB and a core. */
  encodeConcurrency: number;
  /** Tasks this process runs at once; one more is answered 503 (busy) so the Worker's queue retries it later. */
  maxTasks: number;
  /** Where emote images come from (TWITCH_EMOTE_URL; Twitch's CDN by default; the local Twitch server in development). */
  emoteBaseUrl: string;
  /** The raw environment, for the parts that read their own settings (transcriber, metadata writer, facecam). */
  env: NodeJS.ProcessEnv;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Unset and empty are the same: the default applies. */
const unset = (v: unknown) => (v === "" ? undefined : v);
const positiveInt = (fallback: number) =>
  z.preprocess(unset, z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").positive("must be greater than 0").default(fallback));
const text = z.preprocess(unset, z.string().optional());

const Env = z.object({
  PORT: positiveInt(8080).refine((p) => p < 65536, "must be a port number (1-65535)"),
  HOST: z.preprocess(unset, z.string().default("127.0.0.1")),
  WORK_DIR: text,
  RENDERER_TOKEN: text,
  RENDERER_DEV_MODE: z.preprocess(unset, z.enum(["0", "1"], { error: 'must be "1" (development mode) or "0"' }).default("0")),
  DOWNLOAD_CONCURRENCY: positiveInt(6),
  MAX_VIDEO_BYTES_PER_JOB: positiveInt(8 * 1024 * 1024 * 1024),
  ENCODE_CONCURRENCY: positiveInt(Math.max(1, Math.min(2, os.cpus().length))),
  MAX_TASKS: positiveInt(1),
  TWITCH_EMOTE_URL: z.preprocess(unset, z.url({ protocol: /^https?$/, error: "must be an http(s) URL (the emote CDN's base, e.g. https://static-cdn.jtvnw.net/emoticons/v2)" }).default(TWITCH_EMOTE_CDN)),
  // Read by the offline recogniser (captions/create-transcriber.ts); checked here so a typo stops the renderer.
  POCKETSPHINX_FAST: z.preprocess(unset, z.enum(["0", "1"], { error: 'must be "1" (fast search) or "0"' }).optional()),
  POCKETSPHINX_CROSS_CHECK: z.preprocess(unset, z.enum(["0", "1"], { error: 'must be "0" (no checking searches) or "1"' }).optional()),
});

/**
 * Reads and checks the renderer's settings; throws ConfigError (one sentence naming the setting) when they are
 * unusable. `service: false` is for tools that render in-process and listen on nothing (the render CLI, the
 * benchmark): they need no token.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, opts: { service?: boolean } = {}): RendererConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "environment");
    throw new ConfigError(`${name} ${issue.message} (got ${JSON.stringify(env[name] ?? null)}).`);
  }
  const e = parsed.data;
  const devMode = e.RENDERER_DEV_MODE === "1";
  if ((opts.service ?? true) && !e.RENDERER_TOKEN && !devMode) {
    throw new ConfigError("RENDERER_TOKEN is not set: the renderer refuses to start without it (set RENDERER_DEV_MODE=1 to run without a token on a development machine).");
  }
  return {
    port: e.PORT,
    host: e.HOST,
    workRoot: e.WORK_DIR ?? path.join(os.tmpdir(), "highlight-renderer"),
    token: e.RENDERER_TOKEN,
    devMode,
    downloadConcurrency: e.DOWNLOAD_CONCURRENCY,
    maxVideoBytesPerJob: e.MAX_VIDEO_BYTES_PER_JOB,
    encodeConcurrency: e.ENCODE_CONCURRENCY,
    maxTasks: e.MAX_TASKS,
    emoteBaseUrl: e.TWITCH_EMOTE_URL,
    env,
  };
}
