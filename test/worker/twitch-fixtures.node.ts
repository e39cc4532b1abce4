import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startTwitchServer, type VideoFile } from "../../dev/twitch-server";
import { FIXTURE_VODS } from "./fixture-vods";

/**
 * Global setup of the "worker" project (runs in Node): a local Twitch-compatible server over metadata-only VOD
 * folders, one per situation the API must tell apart. Its URLs become the Worker's TWITCH_* bindings.
 */

declare module "vitest" {
  export interface ProvidedContext {
    twitchGqlUrl: string;
    twitchUsherUrl: string;
  }
}

const renditions = [
  { group_id: "chunked", name: "720p30 (source)", bandwidth: 3_000_000, codecs: "avc1.64001F,mp4a.40.2", resolution: "1280x720", frame_rate: 30 },
  { group_id: "audio_only", name: "Audio Only", bandwidth: 160_000, codecs: "mp4a.40.2" },
];

function video(overrides: Partial<VideoFile>): VideoFile {
  return {
    title: "Speedrun Night: Any% attempts",
    lengthSeconds: 7200,
    createdAt: "2026-01-10T18:00:00Z",
    status: "RECORDED",
    broadcastType: "ARCHIVE",
    description: "",
    viewCount: 1234,
    language: "en",
    owner: { id: "77", login: "synthrunner", displayName: "SynthRunner" },
    game: { id: "504461", name: "Celeste", displayName: "Celeste" },
    access: { deleted: false, private: false, subscriber_only: false, restricted_bitrates: [] },
    renditions,
    ...overrides,
  };
}

const FOLDERS: Record<string, VideoFile> = {
  [FIXTURE_VODS.docsExample]: video({ lengthSeconds: 4 * 3600, title: "Example stream" }),
  [FIXTURE_VODS.hour]: video({
    lengthSeconds: 3600,
    title: "Warmup hour",
    owner: { id: "79", login: "hourcaster", displayName: "HourCaster" },
    game: { id: "1", name: "Tetris", displayName: "Tetris" },
  }),
  [FIXTURE_VODS.public]: video({}),
  [FIXTURE_VODS.invisibleText]: video({
    lengthSeconds: 3600,
    title: "Clutch \u202egnp.exe\u202c run\u200b\u0007\nnight \u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}",
    owner: { id: "80", login: "spoofer", displayName: "Spoo\u2066fer" },
    game: { id: "2", name: "Tetris", displayName: "\u200bTetris\u00ad" },
  }),
  [FIXTURE_VODS.deleted]: video({ access: { deleted: true } }),
  [FIXTURE_VODS.live]: video({ status: "RECORDING", title: "LIVE now" }),
  [FIXTURE_VODS.private]: video({ access: { private: true } }),
  [FIXTURE_VODS.subscriberOnly]: video({ access: { subscriber_only: true } }),
  [FIXTURE_VODS.tooLong]: video({ lengthSeconds: 30 * 3600, title: "30 hour subathon" }),
  [FIXTURE_VODS.short]: video({
    lengthSeconds: 600,
    title: "Café Chat Über Alles",
    owner: { id: "78", login: "zoe", displayName: "Zoë" },
    game: { id: "509658", name: "Just Chatting", displayName: "Just Chatting" },
  }),
};

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = await mkdtemp(path.join(tmpdir(), "worker-twitch-"));
  for (const [id, file] of Object.entries(FOLDERS)) {
    await mkdir(path.join(root, id), { recursive: true });
    await writeFile(path.join(root, id, "video.json"), JSON.stringify(file));
  }
  const server = await startTwitchServer({ root, port: 0, host: "127.0.0.1" });
  project.provide("twitchGqlUrl", server.gqlUrl);
  project.provide("twitchUsherUrl", server.usherUrl);
  return async () => {
    await server.close();
    await rm(root, { recursive: true, force: true });
  };
}
