/**
 * `npm run start:local`: the whole service on this machine — local Twitch-compatible server with a generated
 * sample VOD, a pool of renderer processes (--renderers N or LOCAL_RENDERERS, default 2), and the Worker
 * under wrangler dev with local D1/R2/Queues/Durable Objects — plus a
 * development account. With --demo it then runs the demo job end to end; with --exit it stops afterwards.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { ensureDevAccount } from "./dev-account";
import { startLocalStack } from "./local-stack";
import { rendererCount } from "./renderer-pool";
import { ensureSampleVod, SAMPLE_VOD_ID } from "./sample-vod";

const ROOT = path.resolve(import.meta.dirname, "../..");
const { values } = parseArgs({
  options: {
    demo: { type: "boolean", default: false },
    exit: { type: "boolean", default: false },
    port: { type: "string", default: process.env.PORT ?? "8787" },
    state: { type: "string", default: path.join(ROOT, ".local") },
    verbose: { type: "boolean", default: false },
    renderers: { type: "string" },
  },
});

const stateDir = path.resolve(values.state!);
let renderers: number;
try {
  renderers = rendererCount(values.renderers);
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}
await mkdir(stateDir, { recursive: true });
const step = (msg: string) => process.stdout.write(`\n▸ ${msg}\n`);

step("Generating the sample VOD (cached after the first run)...");
const vodRoot = path.join(stateDir, "vods");
const t0 = performance.now();
await ensureSampleVod(vodRoot);
console.log(`  sample VOD ${SAMPLE_VOD_ID} ready in ${((performance.now() - t0) / 1000).toFixed(1)} s (${vodRoot})`);

step(`Starting the local Twitch server, ${renderers} renderer process${renderers === 1 ? "" : "es"} and the Worker (wrangler dev, local bindings)...`);
const stack = await startLocalStack({ vodRoot, stateDir, apiPort: Number(values.port), renderers, echo: values.verbose });
const shutdown = async () => {
  await stack.stop();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);

const account = await ensureDevAccount(stack.apiUrl, stack.adminToken, path.join(stateDir, "dev-account.json"));
console.log(`
  API            ${stack.apiUrl}          (OpenAPI: ${stack.apiUrl}/openapi.json, reference: ${stack.apiUrl}/docs)
  Renderers      ${stack.rendererUrls.join(", ")}
  Twitch (local) ${stack.twitch.url}
  Admin token    ${stack.adminToken}
  Account        ${account.account_id}
  API key        ${account.api_key}
  Webhook secret ${account.webhook_signing_secret}
  Sample VOD     https://www.twitch.tv/videos/${SAMPLE_VOD_ID}
  Logs           ${path.join(stateDir, "worker.log")}, ${stack.renderers.map((r) => path.join(stateDir, `${r.name}.log`)).join(", ")}
  (saved in ${path.join(stateDir, "dev-account.json")})`);

if (values.demo) {
  step("Running the demo job...");
  const { runDemo } = await import("../demo/run-demo");
  const ok = await runDemo({ apiUrl: stack.apiUrl, apiKey: account.api_key, webhookSecret: account.webhook_signing_secret, vodId: SAMPLE_VOD_ID, outDir: path.join(ROOT, "out") }).catch((err: unknown) => {
    console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
    return false;
  });
  if (values.exit) {
    await stack.stop();
    process.exit(ok ? 0 : 1);
  }
}
if (values.exit) {
  await stack.stop();
  process.exit(0);
}
console.log(`\nThe service is running. Try: npm run demo   (Ctrl-C stops everything)`);
