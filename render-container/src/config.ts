import os from "node:os";
import path from "node:path";

/** Everything the renderer reads from its environment, in one place. */
export interface RendererConfig {
  port: number;
  host: string;
  workRoot: string;
  token: string | undefined;
  downloadConcurrency: number;
  /** Hard bound on the video bytes one job may download (disk guard). */
  maxVideoBytesPerJob: number;
  /** Shorts encoded at once; each x264 encode wants ~330 MB and a core. */
  encodeConcurrency: number;
  env: NodeJS.ProcessEnv;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): RendererConfig {
  const int = (name: string, fallback: number) => {
    const n = Number(env[name]);
    return Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
  };
  return {
    port: int("PORT", 8080),
    host: env.HOST ?? "0.0.0.0",
    workRoot: env.WORK_DIR ?? path.join(os.tmpdir(), "highlight-renderer"),
    token: env.RENDERER_TOKEN || undefined,
    downloadConcurrency: int("DOWNLOAD_CONCURRENCY", 6),
    maxVideoBytesPerJob: int("MAX_VIDEO_BYTES_PER_JOB", 8 * 1024 * 1024 * 1024),
    encodeConcurrency: int("ENCODE_CONCURRENCY", Math.max(1, Math.min(2, os.cpus().length))),
    env,
  };
}
