import path from "node:path";
import { freePort, startProcess, waitForHttp, type Managed } from "./processes";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");

/** Renderer processes of the local stack when no count is given (LOCAL_RENDERERS overrides it). */
export const DEFAULT_RENDERERS = 2;

export interface RendererPoolOptions {
  count: number;
  /** Logs (`renderer-<n>.log`) and work folders (`renderer-work-<n>/`) go here. */
  stateDir: string;
  /** Sent by the Worker as `Authorization: Bearer`; without one the processes run in development mode. */
  token?: string;
  env?: NodeJS.ProcessEnv;
  echo?: boolean;
}

export interface RendererPool {
  urls: string[];
  processes: Managed[];
  /** The value for the Worker's RENDER_URL: every renderer, comma-separated. */
  renderUrl: string;
  ready(): Promise<void>;
  /**
   * Starts renderer `i` (0-based) again on its own port, folder and log, with `env` added, once its process is
   * gone (stopped first if it still runs): tests that kill a renderer give the next test a whole pool again.
   */
  restart(i: number, env?: NodeJS.ProcessEnv): Promise<void>;
  stop(): Promise<void>;
}

/** How many renderers: an explicit count, else LOCAL_RENDERERS, else DEFAULT_RENDERERS. */
export function rendererCount(explicit?: number | string, env: NodeJS.ProcessEnv = process.env): number {
  for (const [source, raw] of [["--renderers", explicit], ["LOCAL_RENDERERS", env.LOCAL_RENDERERS]] as const) {
    if (raw === undefined || raw === "") continue;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1 || n > 16) throw new Error(`${source} must be a whole number from 1 to 16, got "${raw}"`);
    return n;
  }
  return DEFAULT_RENDERERS;
}

/**
 * N renderer processes on 127.0.0.1, each with its own port, work folder and log, so the tasks of one job
 * really run side by side (a busy renderer answers 503 and the Worker tries another).
 */
export async function startRendererPool(opts: RendererPoolOptions): Promise<RendererPool> {
  const processes: Managed[] = [];
  const urls: string[] = [];
  const auth: NodeJS.ProcessEnv = opts.token ? { RENDERER_TOKEN: opts.token } : { RENDERER_DEV_MODE: "1" };
  const launch = (n: number, port: number, extra: NodeJS.ProcessEnv = {}) =>
    startProcess(`renderer-${n}`, TSX, [path.join(ROOT, "render-container/src/main.ts")], {
      cwd: ROOT,
      env: { PORT: String(port), HOST: "127.0.0.1", WORK_DIR: path.join(opts.stateDir, `renderer-work-${n}`), ...auth, ...opts.env, ...extra },
      logFile: path.join(opts.stateDir, `renderer-${n}.log`),
      echo: opts.echo,
    });
  for (let n = 1; n <= opts.count; n++) {
    const port = await freePort();
    urls.push(`http://127.0.0.1:${port}`);
    processes.push(launch(n, port));
  }
  return {
    urls,
    processes,
    renderUrl: urls.join(","),
    ready: async () => {
      await Promise.all(urls.map((url, i) => waitForHttp(`${url}/health`, { proc: processes[i] })));
    },
    restart: async (i, env) => {
      const old = processes[i];
      if (!old) throw new Error(`no renderer ${i} in a pool of ${processes.length}`);
      await old.stop();
      const port = Number(new URL(urls[i]!).port);
      // Replaced in place: whoever holds `processes` (the local stack's `renderers`) sees the new process.
      processes[i] = launch(i + 1, port, env);
      await waitForHttp(`${urls[i]}/health`, { proc: processes[i] });
    },
    stop: async () => {
      await Promise.all(processes.map((p) => p.stop()));
    },
  };
}
