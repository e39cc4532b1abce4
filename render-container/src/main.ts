import { ConfigError, loadConfig, type RendererConfig } from "./config";
import { createLogger } from "./log";
import { runTask } from "./pipeline/run-task";
import { parseFacecamRegion } from "./render";
import { createRenderServer } from "./service/http-server";
import { TaskRegistry } from "./service/task-registry";

const log = createLogger();
let config: RendererConfig;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  // One clear line where the operator looks, then a non-zero exit: a renderer with unusable settings never listens.
  log.error(`renderer not started: ${err.message}`);
  process.exit(1);
}

const tasks = new TaskRegistry(config.workRoot, (req, ctx) => runTask(req, ctx, config), log, { maxTasks: config.maxTasks });
const server = createRenderServer(tasks, log, { token: config.token, version: process.env.RENDERER_VERSION });

server.listen(config.port, config.host, () =>
  log.info("renderer listening", { host: config.host, port: config.port, work_root: config.workRoot, max_tasks: config.maxTasks, dev_mode: config.devMode, token: config.token ? "set" : "none" }),
);
// A setting that is ignored must say so where the operator looks.
if (config.env.FACECAM_REGION && !parseFacecamRegion(config.env.FACECAM_REGION)) {
  log.warn("FACECAM_REGION ignored: expected x,y,w,h as shares of the frame (e.g. 0.75,0,0.25,0.25)", { value: config.env.FACECAM_REGION });
}

/**
 * A stop request (SIGTERM: a rollout or an eviction; SIGINT: Ctrl-C) first tells the Worker about every task
 * that is cut short (interrupted: it is retried elsewhere at once, not left to the watchdog), then stops their
 * FFmpeg processes, removes their folders, and exits.
 */
let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal, running_tasks: tasks.runningCount });
    server.close();
    await tasks.interruptAll(`renderer shutting down (${signal})`);
    log.info("stopped", { signal });
    process.exit(0);
  });
}
