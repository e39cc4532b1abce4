import { randomUUID } from "node:crypto";
import type { TokenSigner } from "./access-token";
import { parseQuery, project, validate, type Field, type Schema } from "./graphql-lite";
import type { ChatNode, VideoFile, VodFolderStore } from "./vod-folder";

export const CHAT_PERSISTED_QUERY_HASH = "b70a3591ff0f4e0313d126c6a1502d79a1c02baebb288227c582044aa76adf6a";

const SCHEMA: Schema = {
  Query: { video: "Video", videoPlaybackAccessToken: "PlaybackAccessToken" },
  Video: {
    id: "ID",
    title: "String",
    lengthSeconds: "Int",
    createdAt: "Time",
    publishedAt: "Time",
    status: "VideoStatus",
    broadcastType: "BroadcastType",
    description: "String",
    viewCount: "Int",
    language: "String",
    owner: "User",
    game: "Game",
  },
  User: { id: "ID", login: "String", displayName: "String" },
  Game: { id: "ID", name: "String", displayName: "String" },
  PlaybackAccessToken: { value: "String", signature: "String" },
};

export interface ChatFaults {
  /** "cursor": cursor pages fail with "failed integrity check" (as Twitch does); "all": every chat page fails. */
  chatIntegrity: "off" | "cursor" | "all";
  /** Cursor pages let through before "cursor" integrity failures start. */
  chatIntegrityAfterPages: number;
  /** The next this many chat pages answer "service timeout" (a transient GraphQL-level error); counts down. */
  chatServiceErrors: number;
}

export interface GqlContext {
  store: VodFolderStore;
  signer: TokenSigner;
  faults: ChatFaults;
  chatPageSize: number;
  counters: { chatPages: number; cursorPages: number };
}

type Json = Record<string, unknown>;

function extensions(operationName?: string): Json {
  return { durationMilliseconds: 3, ...(operationName ? { operationName } : {}), requestID: randomUUID() };
}

function isVisible(video: VideoFile | null): video is VideoFile {
  return video !== null && video.access?.deleted !== true;
}

function restrictedBitrates(video: VideoFile): string[] {
  const listed = video.access?.restricted_bitrates ?? [];
  if (video.access?.subscriber_only && listed.length === 0) {
    return (video.renditions ?? []).map((r) => r.group_id).filter((g) => g !== "audio_only").concat("archives");
  }
  return listed;
}

async function resolveRootField(ctx: GqlContext, field: Field): Promise<unknown> {
  const id = String(field.args.id ?? "");
  const video = await ctx.store.video(id);
  if (field.name === "video") {
    if (!isVisible(video)) return null;
    return {
      id,
      title: video.title,
      lengthSeconds: video.lengthSeconds,
      createdAt: video.createdAt ?? null,
      publishedAt: video.createdAt ?? null,
      status: video.status ?? "RECORDED",
      broadcastType: video.broadcastType ?? "ARCHIVE",
      description: video.description ?? null,
      viewCount: video.viewCount ?? 0,
      language: video.language ?? null,
      owner: video.owner ?? null,
      game: video.game ? { name: video.game.displayName, ...video.game } : null,
    };
  }
  if (!isVisible(video)) return null;
  return ctx.signer.issue(id, { forbidden: video.access?.private === true, restrictedBitrates: restrictedBitrates(video) });
}

async function rawQuery(ctx: GqlContext, op: Json): Promise<Json> {
  let fields: Field[];
  try {
    fields = parseQuery(String(op.query), (op.variables as Json | undefined) ?? {});
  } catch (error) {
    return { errors: [{ message: `Syntax Error: ${(error as Error).message}` }], extensions: extensions() };
  }
  const problems = validate(SCHEMA, "Query", fields);
  if (problems.length > 0) {
    return { errors: problems.map((message) => ({ message })), extensions: extensions() };
  }
  const data: Json = {};
  for (const field of fields) data[field.alias] = project(await resolveRootField(ctx, field), field.selections);
  return { data, extensions: extensions() };
}

interface ChatCursor {
  v: string;
  i: number;
}

function encodeCursor(vodId: string, nextIndex: number): string {
  return Buffer.from(JSON.stringify({ v: vodId, i: nextIndex } satisfies ChatCursor)).toString("base64");
}

function decodeCursor(cursor: string): ChatCursor | null {
  try {
    const c = JSON.parse(Buffer.from(cursor, "base64").toString("utf8")) as ChatCursor;
    return typeof c.v === "string" && Number.isInteger(c.i) ? c : null;
  } catch {
    return null;
  }
}

function firstAtOrAfter(comments: ChatNode[], offset: number): number {
  let lo = 0;
  let hi = comments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (comments[mid]!.contentOffsetSeconds < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

async function chatPage(ctx: GqlContext, op: Json): Promise<Json> {
  const operationName = "VideoCommentsByOffsetOrCursor";
  const hash = ((op.extensions as Json | undefined)?.persistedQuery as Json | undefined)?.sha256Hash;
  if (hash !== CHAT_PERSISTED_QUERY_HASH) {
    return { errors: [{ message: "PersistedQueryNotFound" }], extensions: extensions(operationName) };
  }
  const vars = (op.variables as Json | undefined) ?? {};
  const vodId = String(vars.videoID ?? "");
  const cursor = typeof vars.cursor === "string" ? vars.cursor : null;
  ctx.counters.chatPages++;
  // Twitch answers such refusals with partial data: the video, but comments null.
  const refusal = (message: string) => ({
    errors: [{ message, path: ["video", "comments"] }],
    data: { video: { id: vodId, comments: null, __typename: "Video" } },
    extensions: extensions(operationName),
  });
  const integrity = () => refusal("failed integrity check");
  if (ctx.faults.chatServiceErrors > 0) {
    ctx.faults.chatServiceErrors--;
    return refusal("service timeout");
  }
  if (ctx.faults.chatIntegrity === "all") return integrity();
  if (cursor !== null) {
    ctx.counters.cursorPages++;
    if (ctx.faults.chatIntegrity === "cursor" && ctx.counters.cursorPages > ctx.faults.chatIntegrityAfterPages) {
      return integrity();
    }
  }
  const video = await ctx.store.video(vodId);
  if (!isVisible(video)) return { data: { video: null }, extensions: extensions(operationName) };
  const comments = await ctx.store.chat(vodId);
  let start: number;
  if (cursor !== null) {
    const decoded = decodeCursor(cursor);
    if (!decoded || decoded.v !== vodId) {
      return { errors: [{ message: "invalid cursor", path: ["video", "comments"] }], data: null, extensions: extensions(operationName) };
    }
    start = decoded.i;
  } else {
    start = firstAtOrAfter(comments, Number(vars.contentOffsetSeconds ?? 0));
  }
  const page = comments.slice(start, start + ctx.chatPageSize);
  return {
    data: {
      video: {
        id: vodId,
        creator: video.owner ? { id: video.owner.id, channel: { id: video.owner.id, __typename: "Channel" }, __typename: "User" } : null,
        comments: {
          edges: page.map((node, k) => ({ cursor: encodeCursor(vodId, start + k + 1), node, __typename: "VideoCommentEdge" })),
          pageInfo: { hasNextPage: start + page.length < comments.length, hasPreviousPage: start > 0, __typename: "PageInfo" },
          __typename: "VideoCommentConnection",
        },
        __typename: "Video",
      },
    },
    extensions: extensions(operationName),
  };
}

export async function answerOperation(ctx: GqlContext, op: unknown): Promise<Json> {
  if (op === null || typeof op !== "object") return { errors: [{ message: "invalid operation" }] };
  const o = op as Json;
  if (typeof o.query === "string") return rawQuery(ctx, o);
  if (o.operationName === "VideoCommentsByOffsetOrCursor") return chatPage(ctx, o);
  return { errors: [{ message: "PersistedQueryNotFound" }], extensions: extensions(String(o.operationName ?? "")) };
}
