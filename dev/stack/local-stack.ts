import { mkdir } from "node:fs/promises";
import path from "node:path";
import { startTwitchServer, type TwitchServer } from "../twitch-server";
import { freePort, runToEnd, startProcess, waitForHttp, type Managed } from "./processes";

const ROOT = path.resolve(import.meta.dirname, "../..");
const WRANGLER = path.join(ROOT, "node_modules/.bin/wrangler");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");

export interface LocalStackOptions {
  /** Folder of VOD folders served by the local Twitch-compatible server. */
  vodRoot: string;
  /** Wrangler's local state (D1, R2, Durable Objects, Queues) and the logs. */
  stateDir: string;
  apiPort?: number;
  adminToken?: string;
  linkSigningKey?: string;
  /** Extra Worker vars, e.g. a short WATCHDOG_SECONDS in tests. */
  vars?: Record<string, string>;
  rendererEnv?: NodeJS.ProcessEnv;
  echo?: boolean;
}

export interface LocalStack {
  apiUrl: string;
  rendererUrl: string;
  adminToken: string;
  twitch: TwitchServer;
  worker: Managed;
  renderer: Managed;
  stop(): Promise<void>;
}

/**
 * Runs the whole service on this machine: the local Twitch-compatible server, the renderer as a plain Node
 * process, and the Worker under `wrangler dev` with Miniflare's local D1/R2/Queues/Durable Objects
 * (migrations applied first). Used by the quick start, the demo and the end-to-end tests.
 */
export async function startLocalStack(opts: LocalStackOptions): Promise<LocalStack> {
  await mkdir(opts.stateDir, { recursive: true });
  const adminToken = opts.adminToken ?? "dev-admin-token";
  const linkKey = opts.linkSigningKey ?? "dev-link-signing-key";
  const persist = path.join(opts.stateDir, "wrangler");
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    while (stops.length) await stops.pop()!().catch(() => undefined);
  };

  try {
    const twitch = await startTwitchServer({ root: opts.vodRoot, port: 0 });
    stops.push(() => twitch.close());

    const apiPort = opts.apiPort ?? (await freePort());
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const rendererPort = await freePort();
    const rendererUrl = `http://127.0.0.1:${rendererPort}`;
    const rendererToken = "dev-renderer-token";

    const renderer = startProcess("renderer", TSX, [path.join(ROOT, "render-container/src/main.ts")], {
      cwd: ROOT,
      env: { PORT: String(rendererPort), HOST: "127.0.0.1", WORK_DIR: path.join(opts.stateDir, "renderer-work"), RENDERER_TOKEN: rendererToken, ...opts.rendererEnv },
      logFile: path.join(opts.stateDir, "renderer.log"),
      echo: opts.echo,
    });
    stops.push(() => renderer.stop());

    await runToEnd(WRANGLER, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persist], { cwd: ROOT, env: { CI: "1", WRANGLER_SEND_METRICS: "false" } });

    const vars: Record<string, string> = {
      ADMIN_TOKEN: adminToken,
      LINK_SIGNING_KEY: linkKey,
      PUBLIC_BASE_URL: apiUrl,
      RENDER_URL: rendererUrl,
      // TEMPORARY until the renderer's task service lands: one renderer runs each job whole.
      RENDER_MODE: "job",
      RENDERER_TOKEN: rendererToken,
      TWITCH_GQL_URL: twitch.gqlUrl,
      TWITCH_USHER_URL: twitch.usherUrl,
      ...opts.vars,
    };
    const varArgs = Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
    const worker = startProcess(
      "worker",
      WRANGLER,
      ["dev", "--local", "--ip", "127.0.0.1", "--port", String(apiPort), "--persist-to", persist, "--enable-containers=false", "--show-interactive-dev-session=false", "--inspector-port", String(await freePort()), ...varArgs],
      { cwd: ROOT, env: { CI: "1", WRANGLER_SEND_METRICS: "false" }, logFile: path.join(opts.stateDir, "worker.log"), echo: opts.echo },
    );
    stops.push(() => worker.stop());

    await Promise.all([waitForHttp(`${rendererUrl}/health`, { proc: renderer }), waitForHttp(`${apiUrl}/pricing`, { proc: worker, timeoutMs: 90_000 })]);
    return { apiUrl, rendererUrl, adminToken, twitch, worker, renderer, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
