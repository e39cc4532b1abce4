import { errorText, gqlRequest, type FetchLike, type GqlResult } from "./gql";
import { sleep } from "../sleep";

export const CHAT_REPLAY_OPERATION = "VideoCommentsByOffsetOrCursor";
export const CHAT_REPLAY_QUERY_HASH = "b70a3591ff0f4e0313d126c6a1502d79a1c02baebb288227c582044aa76adf6a";

export interface ChatFragment {
  text: string;
  emote_id: string | null;
}

export interface ChatComment {
  id: string;
  offset_seconds: number;
  commenter_login: string | null;
  commenter_name: string | null;
  /** The sender's chosen name colour as Twitch stores it ("#RRGGBB"); null when they never chose one. */
  user_color?: string | null;
  text: string;
  emote_count: number;
  fragments: ChatFragment[];
}

export interface ChatReplay {
  comments: ChatComment[];
  /** false when some part of the timeline could not be read; the comments are then a subset. */
  complete: boolean;
  warnings: string[];
}

export interface ChatReplayOptions {
  gqlUrl?: string;
  fetch?: FetchLike;
  /** Timeline chunks read at the same time. */
  concurrency?: number;
  /** Retries of a page after a transient failure (network, 5xx, 429, GraphQL "service timeout"; never after an integrity refusal or other 4xx). */
  retries?: number;
  retryDelayMs?: number;
  signal?: AbortSignal;
}

interface Page {
  comments: ChatComment[];
  lastCursor: string | null;
  hasNextPage: boolean;
}

type PageOutcome = { ok: true; page: Page | null } | { ok: false; error: string; integrity: boolean };

interface RawEdge {
  cursor?: unknown;
  node?: {
    id?: unknown;
    contentOffsetSeconds?: unknown;
    commenter?: { login?: unknown; displayName?: unknown } | null;
    message?: { fragments?: { text?: unknown; emote?: { emoteID?: unknown } | null }[] | null; userColor?: unknown } | null;
  } | null;
}

/** One comment node of a replay page (`edges[].node`), as the chat replay reads it; null when it is unusable. */
export function commentFromNode(node: RawEdge["node"]): ChatComment | null {
  return toComment({ node });
}

function toComment(edge: RawEdge): ChatComment | null {
  const node = edge.node;
  if (!node || typeof node.id !== "string" || typeof node.contentOffsetSeconds !== "number") return null;
  const fragments: ChatFragment[] = (node.message?.fragments ?? []).map((f) => ({
    text: typeof f.text === "string" ? f.text : "",
    emote_id: f.emote && typeof f.emote.emoteID === "string" ? f.emote.emoteID : null,
  }));
  return {
    id: node.id,
    offset_seconds: node.contentOffsetSeconds,
    commenter_login: typeof node.commenter?.login === "string" ? node.commenter.login : null,
    commenter_name: typeof node.commenter?.displayName === "string" ? node.commenter.displayName : null,
    user_color: typeof node.message?.userColor === "string" && /^#[0-9a-f]{6}$/i.test(node.message.userColor) ? node.message.userColor.toUpperCase() : null,
    text: fragments.map((f) => f.text).join(""),
    emote_count: fragments.filter((f) => f.emote_id !== null).length,
    fragments,
  };
}

function readPage(result: GqlResult): PageOutcome {
  const video = (result.data as { video?: unknown } | null)?.video;
  if (result.errors.length > 0 && !(video as { comments?: unknown } | null | undefined)?.comments) {
    const error = result.errors.map((e) => e.message).join("; ");
    return { ok: false, error, integrity: /integrity/i.test(error) };
  }
  if (video === null) return { ok: true, page: null };
  const comments = (video as { comments?: { edges?: RawEdge[]; pageInfo?: { hasNextPage?: unknown } } } | undefined)
    ?.comments;
  if (!comments || !Array.isArray(comments.edges)) return { ok: false, error: "answer without comments", integrity: false };
  const edges = comments.edges;
  const last = edges[edges.length - 1];
  return {
    ok: true,
    page: {
      comments: edges.map(toComment).filter((c): c is ChatComment => c !== null),
      lastCursor: typeof last?.cursor === "string" ? last.cursor : null,
      hasNextPage: comments.pageInfo?.hasNextPage === true,
    },
  };
}


/**
 * One page. Transport failures are retried inside gqlRequest (network, 5xx, 429; never other 4xx); GraphQL-level
 * errors such as "service timeout" are retried here, except "failed integrity check", which Twitch repeats for
 * the same request (the caller pages on by offset instead).
 */
async function requestPage(
  opts: ChatReplayOptions,
  vodId: string,
  position: { offset: number } | { cursor: string },
): Promise<PageOutcome> {
  const variables =
    "cursor" in position ? { videoID: vodId, cursor: position.cursor } : { videoID: vodId, contentOffsetSeconds: position.offset };
  const retries = opts.retries ?? 2;
  for (let attempt = 0; ; attempt++) {
    let outcome: PageOutcome;
    try {
      const [result] = await gqlRequest(opts, [
        {
          operationName: CHAT_REPLAY_OPERATION,
          variables,
          extensions: { persistedQuery: { version: 1, sha256Hash: CHAT_REPLAY_QUERY_HASH } },
        },
      ]);
      outcome = readPage(result!);
    } catch (error) {
      if (opts.signal?.aborted) throw error;
      return { ok: false, error: errorText(error), integrity: false };
    }
    if (outcome.ok || outcome.integrity || attempt >= retries) return outcome;
    await sleep((opts.retryDelayMs ?? 500) * 2 ** attempt, opts.signal);
  }
}

interface ChunkResult {
  comments: ChatComment[];
  complete: boolean;
  warnings: string[];
}

/**
 * Reads one slice of the timeline: first page by offset, then by cursor. When Twitch refuses cursor paging
 * ("failed integrity check") it goes on by offset from the last comment seen, which Twitch usually still answers.
 */
async function readChunk(opts: ChatReplayOptions, vodId: string, start: number, end: number): Promise<ChunkResult> {
  const seen = new Set<string>();
  const comments: ChatComment[] = [];
  const warnings: string[] = [];
  let complete = true;
  let position: { offset: number } | { cursor: string } = { offset: start };
  let byOffsetOnly = false;
  let lastOffset = start;

  for (let guard = 0; guard < 100_000; guard++) {
    const outcome = await requestPage(opts, vodId, position);
    if (!outcome.ok) {
      if ("cursor" in position && !byOffsetOnly) {
        warnings.push(`chat cursor paging refused (${outcome.error}); continuing by offset`);
        byOffsetOnly = true;
        position = { offset: lastOffset };
        continue;
      }
      warnings.push(`chat replay stopped at ${Math.floor(lastOffset)} s of [${start}, ${end}) s: ${outcome.error}`);
      complete = false;
      break;
    }
    if (outcome.page === null) {
      warnings.push("chat replay: the video is gone");
      complete = false;
      break;
    }
    const page = outcome.page;
    let added = 0;
    for (const c of page.comments) {
      if (seen.has(c.id)) continue;
      seen.add(c.id);
      comments.push(c);
      added++;
      if (c.offset_seconds > lastOffset) lastOffset = c.offset_seconds;
    }
    if (!page.hasNextPage || lastOffset >= end) break;
    if (!byOffsetOnly && page.lastCursor) {
      position = { cursor: page.lastCursor };
    } else if (added > 0) {
      position = { offset: lastOffset };
    } else {
      // A whole page inside one second that we already have: step past it, possibly losing a few comments.
      complete = false;
      warnings.push(`chat replay skipped part of second ${Math.floor(lastOffset)} (offset paging could not advance)`);
      lastOffset = Math.floor(lastOffset) + 1;
      position = { offset: lastOffset };
    }
  }
  return { comments, complete, warnings };
}

/** Splits [0, duration) into `count` slices read in parallel, as download tools do. */
export function chatChunks(durationSeconds: number, count: number): { start: number; end: number }[] {
  const duration = Math.max(0, durationSeconds);
  const n = Math.max(1, Math.min(count, Math.ceil(duration / 60)));
  const size = duration / n;
  return Array.from({ length: n }, (_, i) => ({
    start: Math.floor(i * size),
    end: i === n - 1 ? Number.POSITIVE_INFINITY : Math.floor((i + 1) * size),
  }));
}

/**
 * Fetches the chat replay of a VOD. Never throws for a chat failure (only when aborted): what could be read is
 * returned with complete:false and a warning, because a job can still score on audio alone.
 */
export async function fetchChatReplay(
  opts: ChatReplayOptions,
  vodId: string,
  durationSeconds: number,
): Promise<ChatReplay> {
  const concurrency = Math.max(1, opts.concurrency ?? 4);
  const chunks = chatChunks(durationSeconds, concurrency * 2);
  const results: ChunkResult[] = new Array(chunks.length);
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const i = next++;
      results[i] = await readChunk(opts, vodId, chunks[i]!.start, chunks[i]!.end);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));

  const byId = new Map<string, ChatComment>();
  for (const r of results) for (const c of r.comments) byId.set(c.id, c);
  const comments = [...byId.values()].sort((a, b) => a.offset_seconds - b.offset_seconds || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const warnings = [...new Set(results.flatMap((r) => r.warnings))];
  return { comments, complete: results.every((r) => r.complete), warnings };
}
