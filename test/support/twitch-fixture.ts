import { afterAll, beforeAll } from "vitest";
import { generateSyntheticVod, type SyntheticVodOptions } from "../../dev/synth-vod";
import { startTwitchServer, type TwitchServer } from "../../dev/twitch-server";

/**
 * A test file's local Twitch: generates (or reuses) the VOD before its tests and serves its folder, closed after
 * them. Read the server through the getter once the tests run.
 */
export function serveVodForTests(vod: SyntheticVodOptions): () => TwitchServer {
  let server: TwitchServer | undefined;
  beforeAll(async () => {
    await generateSyntheticVod(vod);
    server = await startTwitchServer({ root: vod.root });
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error("the local Twitch server is not running (used outside a test?)");
    return server;
  };
}
