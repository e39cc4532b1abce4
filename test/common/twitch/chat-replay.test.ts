import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chatChunks, fetchChatReplay } from "../../../common/twitch";
import { startTwitchServer, type ChatNode, type TwitchServer } from "../../../dev/twitch-server";

const VOD = "2001";
const DENSE_VOD = "2002";
const DURATION = 600;

function node(i: number, offset: number, text: string, emote = false): ChatNode {
  return {
    id: `c-${offset}-${i}`,
    commenter: i % 7 === 0 ? null : { id: String(i % 50), login: `viewer${i % 50}`, displayName: `Viewer${i % 50}` },
    contentOffsetSeconds: offset,
    createdAt: new Date(Date.UTC(2026, 0, 1) + offset * 1000).toISOString(),
    message: {
      fragments: emote
        ? [{ text: `${text} `, emote: null }, { text: "KEKW", emote: { id: "e1", emoteID: "305954156", from: text.length + 1 } }]
        : [{ text, emote: null }],
      userBadges: [],
      // A colour as Twitch stores it for some senders, none for others, and junk once: only #RRGGBB is taken.
      userColor: i % 5 === 1 ? "#8a2be2" : i % 5 === 2 ? "red" : null,
    },
  };
}

/** ~1 comment every 2 s plus a 40-comment burst every 100 s; offsets are whole seconds as on Twitch. */
function chatLog(): ChatNode[] {
  const list: ChatNode[] = [];
  let i = 0;
  for (let t = 0; t < DURATION; t += 2) list.push(node(i++, t, `hello at ${t}`));
  for (let b = 50; b < DURATION; b += 100) for (let k = 0; k < 40; k++) list.push(node(i++, b + (k % 8), "no way", k % 2 === 0));
  return list.reverse(); // the server must not rely on file order
}

let root: string;
let server: TwitchServer;
let log: ChatNode[];

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "twitch-chat-"));
  log = chatLog();
  const video = { title: "chat test", lengthSeconds: DURATION, renditions: [] };
  for (const [id, comments] of [
    [VOD, log],
    // 150 comments in the same second: offset paging alone cannot get past one page of them.
    [DENSE_VOD, [...Array.from({ length: 150 }, (_, k) => node(k, 30, `spam ${k}`)), node(999, 200, "late")]],
  ] as const) {
    await mkdir(path.join(root, id), { recursive: true });
    await writeFile(path.join(root, id, "video.json"), JSON.stringify(video));
    await writeFile(path.join(root, id, "chat.json"), JSON.stringify({ comments }));
  }
  server = await startTwitchServer({ root });
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});
beforeEach(() => {
  server.faults.chatIntegrity = "off";
  server.faults.chatIntegrityAfterPages = 0;
  server.faults.chatServiceErrors = 0;
  server.faults.gqlStatus = null;
  server.failRequests("gql", 0);
  server.stats.reset();
});

const expectedIds = () =>
  log
    .slice()
    .sort((a, b) => a.contentOffsetSeconds - b.contentOffsetSeconds || (a.id < b.id ? -1 : 1))
    .map((n) => n.id);

describe("chatChunks", () => {
  it("covers the whole timeline without gaps", () => {
    const chunks = chatChunks(600, 8);
    expect(chunks).toHaveLength(8);
    expect(chunks[0]!.start).toBe(0);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.start).toBe(chunks[i - 1]!.end);
    expect(chunks.at(-1)!.end).toBe(Number.POSITIVE_INFINITY);
    expect(chatChunks(30, 8)).toHaveLength(1);
    expect(chatChunks(0, 8)).toEqual([{ start: 0, end: Number.POSITIVE_INFINITY }]);
  });
});

describe("fetchChatReplay", () => {
  it("reads every comment once, in offset order, in parallel chunks", async () => {
    const replay = await fetchChatReplay({ gqlUrl: server.gqlUrl, concurrency: 3 }, VOD, DURATION);
    expect(replay.complete).toBe(true);
    expect(replay.warnings).toEqual([]);
    expect(replay.comments.map((c) => c.id)).toEqual(expectedIds());
    // Paging by cursor, ~60 a page: far fewer requests than comments, but more than one per chunk.
    expect(server.stats.chatPages).toBeGreaterThan(log.length / 60);
    expect(server.stats.chatPages).toBeLessThan(log.length / 60 + 2 * 6 + 2);
  });

  it("maps nodes to comments with text, emotes and commenters", async () => {
    const replay = await fetchChatReplay({ gqlUrl: server.gqlUrl }, VOD, DURATION);
    const withEmote = replay.comments.find((c) => c.emote_count > 0)!;
    expect(withEmote.text).toBe("no way KEKW");
    expect(withEmote.fragments).toEqual([
      { text: "no way ", emote_id: null },
      { text: "KEKW", emote_id: "305954156" },
    ]);
    const anonymous = replay.comments.find((c) => c.commenter_login === null)!;
    expect(anonymous.commenter_name).toBeNull();
    const named = replay.comments.find((c) => c.commenter_login !== null)!;
    expect(named.commenter_name).toMatch(/^Viewer\d+$/);
    // The sender's name colour, for the chat overlay: upper-cased #RRGGBB, or null.
    const colours = new Set(replay.comments.map((c) => c.user_color));
    expect(colours).toEqual(new Set(["#8A2BE2", null]));
  });

  it("survives 'failed integrity check' on cursor pages by paging on by offset", async () => {
    server.faults.chatIntegrity = "cursor";
    server.faults.chatIntegrityAfterPages = 2;
    const replay = await fetchChatReplay({ gqlUrl: server.gqlUrl, concurrency: 2 }, VOD, DURATION);
    expect(replay.warnings.join("\n")).toMatch(/failed integrity check/);
    expect(replay.comments.map((c) => c.id)).toEqual(expectedIds());
    expect(replay.complete).toBe(true);
  });

  it("returns what it has, complete:false, when offset paging cannot get past a dense second", async () => {
    server.faults.chatIntegrity = "cursor";
    const replay = await fetchChatReplay({ gqlUrl: server.gqlUrl, concurrency: 1 }, DENSE_VOD, 300);
    expect(replay.complete).toBe(false);
    expect(replay.warnings.join("\n")).toMatch(/skipped part of second 30/);
    expect(replay.comments.length).toBeGreaterThanOrEqual(60);
    expect(replay.comments.length).toBeLessThan(151);
    expect(replay.comments.at(-1)!.text).toBe("late");
  });

  it("does not throw when every chat request is refused", async () => {
    server.faults.chatIntegrity = "all";
    const replay = await fetchChatReplay({ gqlUrl: server.gqlUrl }, VOD, DURATION);
    expect(replay).toMatchObject({ comments: [], complete: false });
    expect(replay.warnings.join("\n")).toMatch(/failed integrity check/);
  });

  it("does not throw when GQL is down, after retrying", async () => {
    server.faults.gqlStatus = 503;
    const replay = await fetchChatReplay({ gqlUrl: server.gqlUrl, concurrency: 1, retries: 1, retryDelayMs: 5 }, VOD, 50);
    expect(replay.complete).toBe(false);
    expect(replay.comments).toEqual([]);
    expect(replay.warnings.join("\n")).toMatch(/HTTP 503/);
    expect(server.stats.requests.gql).toBe(2);
  });

  it("asks again after a GraphQL 'service timeout' and a dropped connection, and misses nothing", async () => {
    server.faults.chatServiceErrors = 2;
    server.failRequests("gql", 1, "reset");
    const replay = await fetchChatReplay({ gqlUrl: server.gqlUrl, concurrency: 1, retryDelayMs: 5 }, VOD, DURATION);
    expect(replay.complete).toBe(true);
    expect(replay.warnings).toEqual([]);
    expect(replay.comments.map((c) => c.id)).toEqual(expectedIds());
  });

  it("does not repeat a page Twitch refused for integrity, nor one answered with a 4xx", async () => {
    server.faults.chatIntegrity = "all";
    const refused = await fetchChatReplay({ gqlUrl: server.gqlUrl, concurrency: 1, retries: 3, retryDelayMs: 5 }, VOD, 50);
    expect(refused.complete).toBe(false);
    expect(server.stats.chatPages).toBe(1);
    server.faults.chatIntegrity = "off";
    server.stats.reset();
    server.failRequests("gql", 1, 400);
    const rejected = await fetchChatReplay({ gqlUrl: server.gqlUrl, concurrency: 1, retries: 3, retryDelayMs: 5 }, VOD, 50);
    expect(rejected.complete).toBe(false);
    expect(rejected.warnings.join("\n")).toMatch(/HTTP 400/);
    expect(server.stats.requests.gql).toBe(1);
  });

  it("reports a missing video as incomplete chat", async () => {
    const replay = await fetchChatReplay({ gqlUrl: server.gqlUrl }, "2999", 100);
    expect(replay).toMatchObject({ comments: [], complete: false });
  });
});
