/**
 * `npm run demo`: runs the demo against a running local stack (`npm run start:local` or `npm run quickstart`),
 * using the development account it saved, or HIGHLIGHT_API_URL / HIGHLIGHT_API_KEY / HIGHLIGHT_WEBHOOK_SECRET.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { SAMPLE_VOD_ID } from "../stack/sample-vod";
import { runDemo } from "./run-demo";

const ROOT = path.resolve(import.meta.dirname, "../..");
let saved: { api_url?: string; api_key?: string; webhook_signing_secret?: string } = {};
try {
  saved = JSON.parse(await readFile(path.join(ROOT, ".local/dev-account.json"), "utf8"));
} catch {
  /* use the environment */
}
const apiUrl = process.env.HIGHLIGHT_API_URL ?? saved.api_url;
const apiKey = process.env.HIGHLIGHT_API_KEY ?? saved.api_key;
const webhookSecret = process.env.HIGHLIGHT_WEBHOOK_SECRET ?? saved.webhook_signing_secret;
if (!apiUrl || !apiKey || !webhookSecret) {
  console.error("No local stack account found. Start the service first: npm run start:local (or npm run quickstart).");
  process.exit(2);
}
const ok = await runDemo({ apiUrl, apiKey, webhookSecret, vodId: process.env.DEMO_VOD_ID ?? SAMPLE_VOD_ID, outDir: path.join(ROOT, "out") }).catch((err: unknown) => {
  console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
  return false;
});
process.exit(ok ? 0 : 1);
