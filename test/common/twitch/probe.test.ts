import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  TwitchUnavailableError,
  fetchMasterPlaylist,
  getPlaybackToken,
  getVideoMetadata,
  probeVod,
  readTokenAccess,
} from "../../../common/twitch";
import { startTwitchServer, type TwitchServer } from "../../../dev/twitch-server";
import { VODS, writeMetadataVods } from "./metadata-vods";

let root: string;
let server: TwitchServer;
let opts: { gqlUrl: string; usherUrl: string; retryDelayMs: number };

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "twitch-probe-"));
  await writeMetadataVods(root);
  server = await startTwitchServer({ root });
  opts = { gqlUrl: server.gqlUrl, usherUrl: server.usherUrl, retryDelayMs: 5 };
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});
beforeEach(() => {
  server.faults.gqlStatus = null;
  server.faults.usherStatus = null;
  for (const kind of ["gql", "usher", "playlist"] as const) server.failRequests(kind, 0);
  server.stats.reset();
});

describe("getVideoMetadata", () => {
  it("reads the metadata fields", async () => {
    const meta = await getVideoMetadata(opts, VODS.ok);
    expect(meta).toEqual({
      id: VODS.ok,
      title: "Test stream 1001",
      lengthSeconds: 24,
      createdAt: "2026-01-02T03:04:05Z",
      status: "RECORDED",
      broadcastType: "ARCHIVE",
      owner: { id: "77", login: "teststreamer", displayName: "TestStreamer" },
      game: { id: "509658", displayName: "Just Chatting" },
      description: "a description",
      viewCount: 321,
      language: "en",
    });
  });

  it("returns null for deleted and unknown videos", async () => {
    expect(await getVideoMetadata(opts, VODS.deletedFlag)).toBeNull();
    expect(await getVideoMetadata(opts, VODS.missing)).toBeNull();
  });
});

describe("getPlaybackToken + fetchMasterPlaylist", () => {
  it("gets a signed token that usher accepts, and lists the variants", async () => {
    const token = await getPlaybackToken(opts, VODS.ok);
    expect(token).not.toBeNull();
    expect(readTokenAccess(token!.value)).toEqual({ forbidden: false, restrictedBitrates: [] });
    const master = await fetchMasterPlaylist(opts, VODS.ok, token!);
    expect(master.ok).toBe(true);
    if (!master.ok) return;
    expect(master.variants.map((v) => [v.group_id, v.source, v.audio_only])).toEqual([
      ["chunked", true, false],
      ["360p30", false, false],
      ["audio_only", false, true],
    ]);
    expect(master.variants[0]!.url).toBe(`${server.url}/media/${VODS.ok}/chunked/index-dvr.m3u8`);
  });

  it("usher refuses a tampered token", async () => {
    const token = await getPlaybackToken(opts, VODS.ok);
    const forged = { value: token!.value.replace('"forbidden":false', '"forbidden":false '), signature: token!.signature };
    const master = await fetchMasterPlaylist(opts, VODS.ok, forged);
    expect(master).toMatchObject({ ok: false, status: 403, restricted: "unknown", error_code: "unauthorized" });
  });

  it("usher refuses another VOD's token", async () => {
    const token = await getPlaybackToken(opts, VODS.ok);
    const master = await fetchMasterPlaylist(opts, VODS.zeroLength, token!);
    expect(master).toMatchObject({ ok: false, status: 403 });
  });

  it("a subscriber-only VOD answers 403 vod_manifest_restricted", async () => {
    const token = await getPlaybackToken(opts, VODS.subscriberOnly);
    expect(readTokenAccess(token!.value).restrictedBitrates).toEqual(expect.arrayContaining(["chunked", "360p30"]));
    const master = await fetchMasterPlaylist(opts, VODS.subscriberOnly, token!);
    expect(master).toEqual({ ok: false, restricted: "subscriber_only", status: 403, error_code: "vod_manifest_restricted" });
  });

  it("a deleted VOD has no token", async () => {
    expect(await getPlaybackToken(opts, VODS.deletedFlag)).toBeNull();
  });
});

describe("probeVod", () => {
  const base = {
    title: expect.any(String),
    streamer_login: "teststreamer",
    streamer_name: "TestStreamer",
    game_name: "Just Chatting",
    created_at: "2026-01-02T03:04:05Z",
    language: "en",
    broadcast_type: "ARCHIVE",
  };

  it("a public VOD is usable", async () => {
    expect(await probeVod(opts, VODS.ok)).toEqual({
      ...base,
      vod_id: VODS.ok,
      title: "Test stream 1001",
      duration_seconds: 24,
      usable: true,
      reason: null,
    });
  });

  it("lengthSeconds 0 falls back to the playlist's total", async () => {
    const probe = await probeVod(opts, VODS.zeroLength);
    expect(probe).toMatchObject({ usable: true, duration_seconds: 24.5 });
  });

  it.each([
    [VODS.deletedFlag, "deleted"],
    [VODS.missing, "deleted"],
    [VODS.live, "live"],
    [VODS.private, "private"],
    [VODS.subscriberOnly, "subscriber_only"],
    [VODS.restrictedAll, "subscriber_only"],
  ])("VOD %s is unusable: %s", async (id, reason) => {
    const probe = await probeVod(opts, id);
    expect(probe.usable).toBe(false);
    expect(probe.reason).toBe(reason);
    expect(probe.vod_id).toBe(id);
  });

  it("keeps the metadata of an unusable but existing VOD", async () => {
    expect(await probeVod(opts, VODS.live)).toMatchObject({ ...base, title: "Test stream 1005", duration_seconds: 24 });
  });

  it("a VOD with only some qualities restricted is still usable", async () => {
    expect(await probeVod(opts, VODS.restrictedSome)).toMatchObject({ usable: true, reason: null });
  });

  it("throws TwitchUnavailableError when GQL fails with 5xx", async () => {
    server.faults.gqlStatus = 503;
    const error = await probeVod(opts, VODS.ok).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TwitchUnavailableError);
    expect((error as TwitchUnavailableError).status).toBe(503);
    expect((error as Error).message).toMatch(/HTTP 503/);
  });

  it("throws TwitchUnavailableError when usher fails with 5xx", async () => {
    server.faults.usherStatus = 502;
    await expect(probeVod(opts, VODS.ok)).rejects.toThrow(TwitchUnavailableError);
  });

  it("throws TwitchUnavailableError when GQL answers something that is not JSON", async () => {
    const notJson = (async () => new Response("<html>maintenance</html>", { status: 200 })) as typeof fetch;
    await expect(probeVod({ ...opts, fetch: notJson }, VODS.ok)).rejects.toThrow(/not JSON/);
  });

  it("throws TwitchUnavailableError when nothing listens", async () => {
    const dead = await startTwitchServer({ root });
    const gqlUrl = dead.gqlUrl;
    await dead.close();
    const error = await probeVod({ gqlUrl, usherUrl: opts.usherUrl, retryDelayMs: 5 }, VODS.ok).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TwitchUnavailableError);
    expect((error as Error).message).toMatch(/unreachable/);
  });

  it("sends the web Client-ID (the server rejects requests without one)", async () => {
    const res = await fetch(server.gqlUrl, { method: "POST", body: "{}" });
    expect(res.status).toBe(400);
    expect(await getVideoMetadata(opts, VODS.ok)).not.toBeNull();
  });
});

describe("transient failures are retried, definite answers are not", () => {
  it("GQL: two 503s (metadata and token, sent in parallel) are asked again", async () => {
    server.failRequests("gql", 2, 503);
    expect(await probeVod(opts, VODS.ok)).toMatchObject({ usable: true });
    expect(server.stats.requests.gql).toBe(4);
  });

  it("GQL: a dropped connection is asked again", async () => {
    server.failRequests("gql", 1, "reset");
    expect(await probeVod(opts, VODS.ok)).toMatchObject({ usable: true });
    expect(server.stats.requests.gql).toBe(3);
  });

  it("GQL: a 4xx is not repeated", async () => {
    server.failRequests("gql", 1, 400);
    const error = await getVideoMetadata(opts, VODS.ok).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TwitchUnavailableError);
    expect(error).toMatchObject({ status: 400, transient: false });
    expect(server.stats.requests.gql).toBe(1);
  });

  it("GQL: gives up after `retries` attempts", async () => {
    server.faults.gqlStatus = 502;
    const error = await getVideoMetadata({ ...opts, retries: 3 }, VODS.ok).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, transient: true });
    expect(server.stats.requests.gql).toBe(4);
  });

  it("usher: a 503 and a 429 are asked again; a refusal (403) is a definite answer, asked once", async () => {
    const token = await getPlaybackToken(opts, VODS.ok);
    server.failRequests("usher", 2, 503);
    expect(await fetchMasterPlaylist(opts, VODS.ok, token!)).toMatchObject({ ok: true });
    expect(server.stats.requests.usher).toBe(3);
    server.failRequests("usher", 1, 429);
    expect(await fetchMasterPlaylist(opts, VODS.ok, token!)).toMatchObject({ ok: true });
    server.stats.reset();
    const sub = await getPlaybackToken(opts, VODS.subscriberOnly);
    expect(await fetchMasterPlaylist(opts, VODS.subscriberOnly, sub!)).toMatchObject({ ok: false, status: 403 });
    expect(server.stats.requests.usher).toBe(1);
  });

  it("media playlist: a dropped connection and a 502 are asked again (lengthSeconds 0 reads the playlist)", async () => {
    server.failRequests("playlist", 1, "reset");
    expect(await probeVod(opts, VODS.zeroLength)).toMatchObject({ usable: true, duration_seconds: 24.5 });
    server.stats.reset();
    server.failRequests("playlist", 1, 502);
    expect(await probeVod(opts, VODS.zeroLength)).toMatchObject({ usable: true, duration_seconds: 24.5 });
    expect(server.stats.requests.playlist).toBe(2);
  });

  it("media playlist: a 404 is not repeated", async () => {
    server.failRequests("playlist", 1, 404);
    const error = await probeVod(opts, VODS.zeroLength).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, transient: false });
    expect(server.stats.requests.playlist).toBe(1);
  });

  it("an abort during the backoff ends the wait at once", async () => {
    server.faults.gqlStatus = 503;
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("job cancelled")), 50);
    const started = Date.now();
    const error = await getVideoMetadata({ ...opts, retryDelayMs: 10_000, signal: controller.signal }, VODS.ok).catch((e: unknown) => e);
    expect((error as Error).message).toBe("job cancelled");
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
