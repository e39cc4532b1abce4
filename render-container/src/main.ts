import { loadConfig } from "./config";
import { createLogger } from "./log";
import { runRenderJob } from "./pipeline/run-job";
import { JobRegistry } from "./service/job-registry";
import { createRenderServer } from "./service/http-server";

const config = loadConfig();
const log = createLogger();
const registry = new JobRegistry(config.workRoot, (job, ctx) => runRenderJob(job, ctx, config), log);
const server = createRenderServer(registry, log, { token: config.token, version: process.env.RENDERER_VERSION });

server.listen(config.port, config.host, () => log.info("renderer listening", { port: config.port, work_root: config.workRoot }));

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, async () => {
    log.info("shutting down", { signal });
    server.close();
    await registry.shutdown();
    process.exit(0);
  });
}
