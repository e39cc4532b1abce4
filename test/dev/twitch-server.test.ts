import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CHAT_REPLAY_QUERY_HASH, TWITCH_WEB_CLIENT_ID, getPlaybackToken, masterPlaylistUrl } from "../../common/twitch";
import { generateSyntheticVod } from "../../dev/synth-vod";
import { startTwitchServer, type TwitchServer } from "../../dev/twitch-server";
import { SMALL_VOD } from "./fixture-vods";

const VOD = SMALL_VOD.vodId;
let server: TwitchServer;

beforeAll(async () => {
  await generateSyntheticVod(SMALL_VOD);
  server = await startTwitchServer({ root: SMALL_VOD.root });
});
afterAll(() => server.close());
beforeEach(() => server.stats.reset());

const gql = async (body: unknown) => {
  const res = await fetch(server.gqlUrl, { method: "POST", headers: { "Client-ID": TWITCH_WEB_CLIENT_ID }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as any };
};

describe("GQL", () => {
  it("answers a batch in order, with aliases and only the selected fields", async () => {
    const { json } = await gql([
      { query: `query{video(id:"${VOD}"){title,owner{login}}}` },
      { query: `query Named { v: video(id:"${VOD}") { lengthSeconds game { displayName } } }` },
    ]);
    expect(json[0].data).toEqual({ video: { title: `Synthetic stream ${VOD}`, owner: { login: "synthstreamer" } } });
    expect(json[1].data).toEqual({ v: { lengthSeconds: 95, game: { displayName: "Synthetic Quest" } } });
  });

  it("takes variables like a GraphQL server", async () => {
    const { json } = await gql({ query: "query($id: ID!){video(id:$id){lengthSeconds}}", variables: { id: VOD } });
    expect(json.data.video.lengthSeconds).toBe(95);
  });

  it("rejects unknown fields and bad syntax the way GraphQL does", async () => {
    const unknown = await gql({ query: `query{video(id:"${VOD}"){title,secretField}}` });
    expect(unknown.json.data).toBeUndefined();
    expect(unknown.json.errors[0].message).toBe('Cannot query field "secretField" on type "Video".');
    const noSubfields = await gql({ query: `query{video(id:"${VOD}"){owner}}` });
    expect(noSubfields.json.errors[0].message).toMatch(/must have a selection of subfields/);
    const syntax = await gql({ query: "query{video(id:" });
    expect(syntax.json.errors[0].message).toMatch(/^Syntax Error/);
  });

  it("needs the right persisted query hash for chat", async () => {
    const wrong = await gql({
      operationName: "VideoCommentsByOffsetOrCursor",
      variables: { videoID: VOD, contentOffsetSeconds: 0 },
      extensions: { persistedQuery: { version: 1, sha256Hash: "0".repeat(64) } },
    });
    expect(wrong.json.errors[0].message).toBe("PersistedQueryNotFound");
    const right = await gql({
      operationName: "VideoCommentsByOffsetOrCursor",
      variables: { videoID: VOD, contentOffsetSeconds: 60 },
      extensions: { persistedQuery: { version: 1, sha256Hash: CHAT_REPLAY_QUERY_HASH } },
    });
    const edges = right.json.data.video.comments.edges;
    expect(edges.length).toBeGreaterThan(0);
    expect(edges.length).toBeLessThanOrEqual(60);
    expect(edges[0].node.contentOffsetSeconds).toBeGreaterThanOrEqual(60);
    expect(right.json.data.video.comments.pageInfo.hasPreviousPage).toBe(true);
  });

  it("rejects requests without Client-ID", async () => {
    const res = await fetch(server.gqlUrl, { method: "POST", body: "{}" });
    expect(res.status).toBe(400);
  });
});

describe("usher and media", () => {
  it("refuses a master playlist request without a valid token", async () => {
    const res = await fetch(`${server.usherUrl}/vod/${VOD}.m3u8`);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error_code: string }[])[0]!.error_code).toBe("unauthorized");
  });

  it("serves the master playlist for a signed token, with absolute media URLs", async () => {
    const token = await getPlaybackToken({ gqlUrl: server.gqlUrl }, VOD);
    const res = await fetch(masterPlaylistUrl(server.usherUrl, VOD, token!));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(`${server.url}/media/${VOD}/chunked/index-dvr.m3u8`);
    expect(text).toContain('CODECS="mp4a.40.2",VIDEO="audio_only"');
    expect(server.stats.requests.usher).toBe(1);
  });

  it("answers like Twitch's CDN for muted parts, unknown names and paths outside the VOD", async () => {
    const get = (p: string) => fetch(`${server.url}${p}`).then(async (r) => (await r.arrayBuffer(), r.status));
    expect(await get(`/media/${VOD}/chunked/5-muted.ts`)).toBe(200);
    expect(await get(`/media/${VOD}/chunked/5.ts`)).toBe(403);
    expect(await get(`/media/${VOD}/chunked/5-unmuted.ts`)).toBe(403);
    expect(await get(`/media/${VOD}/chunked/video.json`)).toBe(404);
    expect(await get(`/media/${VOD}/chunked/..%2Fvideo.json`)).toBe(404);
    expect(await get(`/media/${VOD}/720p60/0.ts`)).toBe(404);
    expect(server.stats.segmentsServed).toEqual([`${VOD}/chunked/5-muted.ts`]);
  });

  it("counts playlist and segment bytes separately", async () => {
    const playlist = await (await fetch(`${server.url}/media/${VOD}/audio_only/index-dvr.m3u8`)).arrayBuffer();
    const segment = await (await fetch(`${server.url}/media/${VOD}/audio_only/0.ts`)).arrayBuffer();
    expect(server.stats.bytes.playlist).toBe(playlist.byteLength);
    expect(server.stats.bytes.segment).toBe(segment.byteLength);
    expect(server.stats.requests).toMatchObject({ playlist: 1, segment: 1 });
  });

  it("serves emote images on the paths of Twitch's emote CDN, and 404 for an emote it does not have", async () => {
    for (const [scale, size] of [["1.0", 28], ["2.0", 56], ["3.0", 112]] as const) {
      const res = await fetch(`${server.emoteUrl}/25/static/dark/${scale}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      const png = Buffer.from(await res.arrayBuffer());
      expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
    }
    expect((await fetch(`${server.emoteUrl}/25/default/light/1.0`)).status).toBe(200);
    expect((await fetch(`${server.emoteUrl}/424242/static/dark/2.0`)).status).toBe(404);
    expect((await fetch(`${server.emoteUrl}/25/static/dark/4.0`)).status).toBe(404);
    expect(server.stats.requests.emote).toBe(6);
  });
});
