import { parseArgs } from "node:util";
import { startTwitchServer } from "./server";

// Serves a folder of VOD folders as a local Twitch: point TWITCH_GQL_URL / TWITCH_USHER_URL at it.
const { values } = parseArgs({
  options: {
    root: { type: "string" },
    port: { type: "string", default: "8790" },
    host: { type: "string", default: "127.0.0.1" },
  },
});
if (!values.root) {
  console.error("usage: npx tsx dev/twitch-server/cli.ts --root <dir> [--port 8790] [--host 127.0.0.1]");
  process.exit(2);
}
const server = await startTwitchServer({ root: values.root, port: Number(values.port), host: values.host });
console.log(`local Twitch serving ${server.root}`);
console.log(`TWITCH_GQL_URL=${server.gqlUrl}`);
console.log(`TWITCH_USHER_URL=${server.usherUrl}`);
const stop = () => void server.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
