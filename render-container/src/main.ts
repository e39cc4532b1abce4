import { loadConfig } from "./config";
import { createLogger } from "./log";
import { runRenderJob } from "./pipeline/run-job";
import { parseFacecamRegion } from "./render";
import { JobRegistry } from "./service/job-registry";
import { createRenderServer } from "./service/http-server";

const config = loadConfig();
const log = createLogger();
const registry = new JobRegistry(config.workRoot, (job, ctx) => runRenderJob(job, ctx, config), log);
const server = createRenderServer(registry, log, { token: config.token, version: process.env.RENDERER_VERSION });

server.listen(config.port, config.host, () => log.info("renderer listening", { port: config.port, work_root: config.workRoot }));
// A setting that is ignored must say so where the operator looks.
if (config.env.FACECAM_REGION && !parseFacecamRegion(config.env.FACECAM_REGION)) {
  log.warn("FACECAM_REGION ignored: expected x,y,w,h as shares of the frame (e.g. 0.75,0,0.25,0.25)", { value: config.env.FACECAM_REGION });
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, async () => {
    log.info("shutting down", { signal });
    server.close();
    await registry.shutdown();
    process.exit(0);
  });
}
