import { mkdir } from "node:fs/promises";
import path from "node:path";
import { startTwitchServer, type TwitchServer } from "../twitch-server";
import { freePort, runToEnd, startProcess, waitForHttp, type Managed } from "./processes";
import { rendererCount, startRendererPool } from "./renderer-pool";

const ROOT = path.resolve(import.meta.dirname, "../..");
const WRANGLER = path.join(ROOT, "node_modules/.bin/wrangler");

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
  /** Renderer processes (each its own port, work folder and log); default LOCAL_RENDERERS or 2. */
  renderers?: number;
  /**
   * Renderer `i` of the pool (0-based) is also the re-cut class's stand-in (RECUT_RENDER_URL): a re-cut's tasks try
   * it first, the whole pool when it is busy (worker/src/orchestration/recut-route.ts). Default: none.
   */
  recutRenderer?: number;
  rendererEnv?: NodeJS.ProcessEnv;
  /**
   * Address the Worker and the local Twitch server listen on and are reached at (default 127.0.0.1). Renders
   * in Docker containers need one the containers can reach: Docker's bridge gateway.
   */
  host?: string;
  /**
   * Render in Cloudflare Containers instead of renderer processes: `wrangler dev --enable-containers` builds
   * render-container/Dockerfile and every job goes through the RenderContainer Durable Object (no RENDER_URL).
   * `env` is added to wrangler's environment (WRANGLER_DOCKER_BIN, MINIFLARE_CONTAINER_EGRESS_IMAGE).
   */
  containers?: { env?: NodeJS.ProcessEnv };
  /**
   * Put something between the Worker and the renderer processes: given the pool's URLs, the RENDER_URL the
   * Worker gets (the chaos run's scripted front, dev/chaos/renderer-front.ts).
   */
  renderFront?: (rendererUrls: string[]) => Promise<string>;
  /** Another Worker entry for `wrangler dev` than wrangler.toml's `main` (the chaos run's dev/chaos/chaos-worker.ts). */
  workerEntry?: string;
  /** How long the Worker may take to answer (container mode builds the image first). */
  readyTimeoutMs?: number;
  /** Aborting while the stack starts stops whatever was started (e.g. Ctrl-C during a long image build). */
  signal?: AbortSignal;
  echo?: boolean;
}

export interface LocalStack {
  apiUrl: string;
  /** Every renderer process (none in container mode). */
  rendererUrls: string[];
  renderers: Managed[];
  /** Starts renderer `i` again (same URL, folder and log) with `env` added; see RendererPool.restart. */
  restartRenderer(i: number, env?: NodeJS.ProcessEnv): Promise<void>;
  rendererToken: string;
  adminToken: string;
  twitch: TwitchServer;
  worker: Managed;
  stop(): Promise<void>;
}

/**
 * Runs the whole service on this machine: the local Twitch-compatible server, a pool of renderer processes
 * (or, in container mode, the renderer image in Docker), and the Worker under `wrangler dev` with Miniflare's
 * local D1/R2/Queues/Durable Objects (migrations applied first). Used by the quick start, the demo, the
 * end-to-end tests and `npm run test:containers`.
 */
export async function startLocalStack(opts: LocalStackOptions): Promise<LocalStack> {
  await mkdir(opts.stateDir, { recursive: true });
  const adminToken = opts.adminToken ?? "dev-admin-token";
  const linkKey = opts.linkSigningKey ?? "dev-link-signing-key";
  const rendererToken = "dev-renderer-token";
  const host = opts.host ?? "127.0.0.1";
  const persist = path.join(opts.stateDir, "wrangler");
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    while (stops.length) await stops.pop()!().catch(() => undefined);
  };

  try {
    const twitch = await startTwitchServer({ root: opts.vodRoot, port: 0, host });
    stops.push(() => twitch.close());

    const apiPort = opts.apiPort ?? (await freePort());
    const apiUrl = `http://${host}:${apiPort}`;

    const pool = opts.containers
      ? null
      : await startRendererPool({ count: rendererCount(opts.renderers), stateDir: opts.stateDir, token: rendererToken, env: { TWITCH_EMOTE_URL: twitch.emoteUrl, ...opts.rendererEnv }, echo: opts.echo });
    if (pool) stops.push(() => pool.stop());

    await runToEnd(WRANGLER, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persist], { cwd: ROOT, env: { CI: "1", WRANGLER_SEND_METRICS: "false" } });

    const vars: Record<string, string> = {
      ADMIN_TOKEN: adminToken,
      LINK_SIGNING_KEY: linkKey,
      PUBLIC_BASE_URL: apiUrl,
      ...(pool ? { RENDER_URL: opts.renderFront ? await opts.renderFront(pool.urls) : pool.renderUrl } : {}),
      ...(pool && opts.recutRenderer !== undefined ? { RECUT_RENDER_URL: pool.urls[opts.recutRenderer]! } : {}),
      RENDERER_TOKEN: rendererToken,
      TWITCH_GQL_URL: twitch.gqlUrl,
      TWITCH_USHER_URL: twitch.usherUrl,
      // Local webhook receivers (the demo's, the end-to-end tests') listen on 127.0.0.1.
      WEBHOOK_ALLOW_LOOPBACK: "true",
      // The AI binding only works against Cloudflare (login, billing): offline, the renderer transcribes with
      // pocketsphinx and writes texts from templates.
      WORKERS_AI: "off",
      ...opts.vars,
    };
    const varArgs = Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
    const worker = startProcess(
      "worker",
      WRANGLER,
      [
        "dev",
        ...(opts.workerEntry ? [opts.workerEntry] : []),
        "--local",
        "--ip",
        host,
        "--port",
        String(apiPort),
        "--persist-to",
        persist,
        `--enable-containers=${opts.containers ? "true" : "false"}`,
        "--show-interactive-dev-session=false",
        "--inspector-port",
        String(await freePort()),
        ...varArgs,
      ],
      { cwd: ROOT, env: { CI: "1", WRANGLER_SEND_METRICS: "false", ...opts.containers?.env }, logFile: path.join(opts.stateDir, "worker.log"), echo: opts.echo },
    );
    stops.push(() => worker.stop());

    const aborted = new Promise<never>((_, reject) => {
      if (opts.signal?.aborted) reject(new Error("stack start aborted"));
      opts.signal?.addEventListener("abort", () => reject(new Error("stack start aborted")), { once: true });
    });
    aborted.catch(() => undefined);
    await Promise.race([Promise.all([pool?.ready(), waitForHttp(`${apiUrl}/pricing`, { proc: worker, timeoutMs: opts.readyTimeoutMs ?? 90_000 })]), aborted]);
    const renderers = pool?.processes ?? [];
    return {
      apiUrl,
      rendererUrls: pool?.urls ?? [],
      renderers,
      restartRenderer: async (i, env) => {
        if (!pool) throw new Error("container mode has no renderer processes");
        await pool.restart(i, env);
      },
      rendererToken,
      adminToken,
      twitch,
      worker,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
