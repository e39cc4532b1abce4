import { readFile, stat } from "node:fs/promises";
import path from "node:path";

/**
 * The on-disk format of one VOD served by the local Twitch server (see dev/twitch-server/README.md):
 *   <root>/<vodId>/video.json                   VideoFile below (required)
 *   <root>/<vodId>/chat.json                    ChatFile below (optional: no file = no comments)
 *   <root>/<vodId>/<group_id>/index-dvr.m3u8    media playlist of each rendition listed in video.json
 *   <root>/<vodId>/<group_id>/<N>.ts | <N>-muted.ts
 */
export interface VideoFile {
  id?: string;
  title: string;
  lengthSeconds: number;
  createdAt?: string;
  /** RECORDED, or RECORDING while the stream is live. */
  status?: string;
  broadcastType?: string;
  description?: string | null;
  viewCount?: number;
  language?: string | null;
  owner?: { id: string; login: string; displayName: string } | null;
  game?: { id: string; name?: string; displayName: string } | null;
  access?: {
    /** Metadata and token answer null, as Twitch does for deleted or expired VODs. */
    deleted?: boolean;
    /** Token says authorization.forbidden; usher refuses. */
    private?: boolean;
    /** Usher answers 403 vod_manifest_restricted; the token lists every rendition as restricted. */
    subscriber_only?: boolean;
    /** Put into the token's chansub.restricted_bitrates as-is (subscriber_only fills it when empty). */
    restricted_bitrates?: string[];
  };
  renditions?: RenditionInfo[];
}

export interface RenditionInfo {
  /** Folder name and Twitch group id: "chunked" (source), "720p30", "audio_only", ... */
  group_id: string;
  name: string;
  bandwidth: number;
  codecs: string;
  resolution?: string | null;
  frame_rate?: number | null;
}

/** A chat comment exactly as VideoCommentsByOffsetOrCursor returns it in `edges[].node`. */
export interface ChatNode {
  id: string;
  commenter: { id: string; login: string; displayName: string } | null;
  contentOffsetSeconds: number;
  createdAt: string;
  message: {
    fragments: { text: string; emote: { id: string; emoteID: string; from: number } | null }[];
    userBadges: { id: string; setID: string; version: string }[];
    userColor: string | null;
  };
}

export interface ChatFile {
  comments: ChatNode[];
}

/** Reads VOD folders, re-reading a file only when it changed (tests rewrite video.json between cases). */
export class VodFolderStore {
  private readonly cache = new Map<string, { mtimeMs: number; value: unknown }>();
  constructor(readonly root: string) {}

  dir(vodId: string): string {
    return path.join(this.root, vodId);
  }

  private async readJson<T>(file: string): Promise<T | null> {
    let info;
    try {
      info = await stat(file);
    } catch {
      return null;
    }
    const hit = this.cache.get(file);
    if (hit && hit.mtimeMs === info.mtimeMs) return hit.value as T;
    const value = JSON.parse(await readFile(file, "utf8")) as T;
    this.cache.set(file, { mtimeMs: info.mtimeMs, value });
    return value;
  }

  async video(vodId: string): Promise<VideoFile | null> {
    if (!/^\d+$/.test(vodId)) return null;
    return this.readJson<VideoFile>(path.join(this.dir(vodId), "video.json"));
  }

  /** Comments sorted by offset (the file may not be). */
  async chat(vodId: string): Promise<ChatNode[]> {
    const file = path.join(this.dir(vodId), "chat.json");
    const hit = this.cache.get(`${file}#sorted`);
    const data = await this.readJson<ChatFile | ChatNode[]>(file);
    if (!data) return [];
    const raw = this.cache.get(file)!;
    if (hit && hit.mtimeMs === raw.mtimeMs) return hit.value as ChatNode[];
    const list = (Array.isArray(data) ? data : data.comments).slice();
    list.sort((a, b) => a.contentOffsetSeconds - b.contentOffsetSeconds || (a.id < b.id ? -1 : 1));
    this.cache.set(`${file}#sorted`, { mtimeMs: raw.mtimeMs, value: list });
    return list;
  }
}
