import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { TokenSigner } from "./access-token";
import { answerOperation, type ChatFaults, type GqlContext } from "./gql-handler";
import { VodFolderStore, type VideoFile } from "./vod-folder";
import { EMOTE_SCALES, emotePng } from "./emote-images";

export type RequestKind = "gql" | "usher" | "playlist" | "segment" | "emote" | "other";

export interface TwitchServerStats {
  requests: Record<RequestKind, number>;
  /** Body bytes actually written, per kind. */
  bytes: Record<RequestKind, number>;
  /** Segment paths served successfully (`<vodId>/<group>/<file>`), in order. */
  segmentsServed: string[];
  chatPages: number;
  /** Most requests of a kind open at the same time (from arrival until the answer is done or dropped). */
  maxConcurrent: Record<RequestKind, number>;
  reset(): void;
}

export interface TwitchServerFaults extends ChatFaults {
  /** Answer every GQL request with this HTTP status (e.g. 503) instead of data. */
  gqlStatus: number | null;
  /** Answer usher requests with this HTTP status. */
  usherStatus: number | null;
  /** Added before every answer, in milliseconds. */
  latencyMs: number;
}

export interface TwitchServer {
  url: string;
  gqlUrl: string;
  usherUrl: string;
  /** Base of the emote images, as Twitch's CDN https://static-cdn.jtvnw.net/emoticons/v2 (TWITCH_EMOTE_URL). */
  emoteUrl: string;
  root: string;
  stats: TwitchServerStats;
  /** Mutable at any time; tests switch failures on and off between requests. */
  faults: TwitchServerFaults;
  /**
   * The next `times` requests for a segment (`<vodId>/<group>/<file>`) fail: "status" answers 503, "reset" sends
   * half the body and drops the connection (a download that breaks mid-way).
   */
  failSegment(segmentPath: string, times: number, kind?: "status" | "reset", status?: number): void;
  /**
   * The next `times` requests of a kind fail before they are looked at: with HTTP `status`, or "reset" drops the
   * connection without an answer (a network error for the client).
   */
  failRequests(kind: "gql" | "usher" | "playlist", times: number, how?: number | "reset"): void;
  close(): Promise<void>;
}

export interface StartTwitchServerOptions {
  root: string;
  port?: number;
  host?: string;
  /** HMAC key for playback tokens. */
  secret?: string;
  chatPageSize?: number;
  faults?: Partial<TwitchServerFaults>;
}

const KINDS: RequestKind[] = ["gql", "usher", "playlist", "segment", "emote", "other"];

function newStats(onReset: () => void): TwitchServerStats {
  const stats: TwitchServerStats = {
    requests: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<RequestKind, number>,
    bytes: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<RequestKind, number>,
    segmentsServed: [],
    chatPages: 0,
    maxConcurrent: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<RequestKind, number>,
    reset() {
      for (const k of KINDS) {
        stats.requests[k] = 0;
        stats.bytes[k] = 0;
        stats.maxConcurrent[k] = 0;
      }
      stats.segmentsServed.length = 0;
      stats.chatPages = 0;
      onReset();
    },
  };
  return stats;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function masterPlaylist(base: string, vodId: string, video: VideoFile): string {
  const lines = [
    "#EXTM3U",
    `#EXT-X-TWITCH-INFO:ORIGIN="s3",B="false",REGION="LOCAL",USER-IP="127.0.0.1",SERVING-ID="local",CLUSTER="local",USER-COUNTRY="ZZ",MANIFEST-CLUSTER="local"`,
  ];
  for (const r of video.renditions ?? []) {
    const audioOnly = r.group_id === "audio_only";
    lines.push(
      `#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="${r.group_id}",NAME="${r.name}",AUTOSELECT=${audioOnly ? "NO" : "YES"},DEFAULT=${r.group_id === "chunked" ? "YES" : "NO"}`,
    );
    const attrs = [`BANDWIDTH=${r.bandwidth}`, `CODECS="${r.codecs}"`];
    if (r.resolution) attrs.push(`RESOLUTION=${r.resolution}`);
    attrs.push(`VIDEO="${r.group_id}"`);
    if (r.frame_rate) attrs.push(`FRAME-RATE=${r.frame_rate.toFixed(3)}`);
    lines.push(`#EXT-X-STREAM-INF:${attrs.join(",")}`);
    lines.push(`${base}/media/${vodId}/${r.group_id}/index-dvr.m3u8`);
  }
  return lines.join("\n") + "\n";
}

const mediaType = (file: string) => (file.endsWith(".mp4") ? "video/mp4" : "video/mp2t");

function usherError(url: string, code: string, message: string): string {
  return JSON.stringify([{ url, error: message, error_code: code, type: "error" }]);
}

/**
 * A local server speaking Twitch's VOD protocol (GQL, usher, media playlists and segments) over a folder of
 * VOD folders. Everything a client sees is what real Twitch would send for the same situation.
 */
export async function startTwitchServer(options: StartTwitchServerOptions): Promise<TwitchServer> {
  const store = new VodFolderStore(path.resolve(options.root));
  const signer = new TokenSigner(options.secret ?? "local-twitch-secret");
  const counters = { chatPages: 0, cursorPages: 0 };
  // Page counters restart with the stats, so "after N cursor pages" counts from the last reset.
  const stats = newStats(() => {
    counters.chatPages = 0;
    counters.cursorPages = 0;
  });
  const faults: TwitchServerFaults = {
    chatIntegrity: "off",
    chatIntegrityAfterPages: 0,
    chatServiceErrors: 0,
    gqlStatus: null,
    usherStatus: null,
    latencyMs: 0,
    ...options.faults,
  };
  const segmentFailures = new Map<string, { times: number; kind: "status" | "reset"; status: number }>();
  const requestFailures = new Map<RequestKind, { times: number; how: number | "reset" }>();
  const open = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<RequestKind, number>;
  const ctx: GqlContext = { store, signer, faults, chatPageSize: options.chatPageSize ?? 60, counters };

  const send = (res: ServerResponse, kind: RequestKind, status: number, body: string | Buffer, type: string) => {
    const buf = typeof body === "string" ? Buffer.from(body) : body;
    if (!res.headersSent) res.writeHead(status, { "content-type": type, "content-length": buf.length });
    res.end(buf);
    stats.bytes[kind] += buf.length;
  };

  async function handleGql(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (faults.gqlStatus !== null) return send(res, "gql", faults.gqlStatus, "upstream unavailable", "text/plain");
    if (!req.headers["client-id"]) {
      return send(res, "gql", 400, JSON.stringify({ error: "Bad Request", status: 400, message: 'The "Client-ID" header is missing from the request.' }), "application/json");
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readBody(req));
    } catch {
      return send(res, "gql", 400, JSON.stringify({ error: "Bad Request", status: 400, message: "body is not JSON" }), "application/json");
    }
    const answer = Array.isArray(parsed)
      ? await Promise.all(parsed.map((op) => answerOperation(ctx, op)))
      : await answerOperation(ctx, parsed);
    stats.chatPages = counters.chatPages;
    send(res, "gql", 200, JSON.stringify(answer), "application/json");
  }

  async function handleUsher(res: ServerResponse, url: URL, vodId: string, base: string): Promise<void> {
    if (faults.usherStatus !== null) return send(res, "usher", faults.usherStatus, "upstream unavailable", "text/plain");
    const video = await store.video(vodId);
    const here = url.toString();
    if (!video || video.access?.deleted) {
      return send(res, "usher", 404, usherError(here, "vod_manifest_not_found", "vod manifest not found"), "application/json");
    }
    const claims = signer.verify(vodId, url.searchParams.get("token") ?? "", url.searchParams.get("sig") ?? "");
    if (!claims) {
      return send(res, "usher", 403, usherError(here, "unauthorized", "Unauthorized"), "application/json");
    }
    if (video.access?.private) {
      return send(res, "usher", 403, usherError(here, "vod_forbidden", "Forbidden"), "application/json");
    }
    if (video.access?.subscriber_only) {
      return send(res, "usher", 403, usherError(here, "vod_manifest_restricted", "vod_manifest_restricted"), "application/json");
    }
    send(res, "usher", 200, masterPlaylist(base, vodId, video), "application/vnd.apple.mpegurl");
  }

  async function handleMedia(res: ServerResponse, vodId: string, group: string, file: string): Promise<void> {
    const video = await store.video(vodId);
    const kind: RequestKind = file === "index-dvr.m3u8" ? "playlist" : "segment";
    const known = video && !video.access?.deleted && (video.renditions ?? []).some((r) => r.group_id === group);
    if (!known || !/^(index-dvr\.m3u8|\d+(-muted|-unmuted)?\.(ts|mp4)|init-\d+\.mp4)$/.test(file)) {
      return send(res, kind, 404, "not found", "text/plain");
    }
    const filePath = path.join(store.dir(vodId), group, file);
    let size: number;
    try {
      size = (await stat(filePath)).size;
    } catch {
      // Twitch answers 403 for parts that do not exist under that name (e.g. the unmuted original of a muted part).
      return send(res, kind, 403, "Access Denied", "text/plain");
    }
    if (kind === "playlist") return send(res, kind, 200, await readFile(filePath), "application/vnd.apple.mpegurl");

    const key = `${vodId}/${group}/${file}`;
    const failure = segmentFailures.get(key);
    if (failure && failure.times > 0) {
      failure.times--;
      if (failure.kind === "status") return send(res, kind, failure.status, `HTTP ${failure.status}`, "text/plain");
      const half = (await readFile(filePath)).subarray(0, Math.floor(size / 2));
      res.writeHead(200, { "content-type": mediaType(file), "content-length": size });
      res.write(half);
      stats.bytes.segment += half.length;
      // Give the half body time to leave before the connection drops, like a real mid-transfer failure.
      await new Promise((r) => setTimeout(r, 20));
      res.socket?.destroy();
      return;
    }
    res.writeHead(200, { "content-type": mediaType(file), "content-length": size });
    await new Promise<void>((resolve) => {
      const stream = createReadStream(filePath);
      stream.on("data", (chunk) => {
        stats.bytes.segment += chunk.length;
      });
      stream.on("error", () => {
        res.destroy();
        resolve();
      });
      res.on("close", () => {
        stream.destroy();
        resolve();
      });
      res.on("finish", () => {
        stats.segmentsServed.push(key);
        resolve();
      });
      stream.pipe(res);
    });
  }

  const server = createServer((req, res) => {
    void (async () => {
      const base = `http://${req.headers.host ?? "127.0.0.1"}`;
      const url = new URL(req.url ?? "/", base);
      const p = url.pathname;
      let kind: RequestKind = "other";
      const usher = /^\/vod\/(\d+)\.m3u8$/.exec(p);
      const media = /^\/media\/(\d+)\/([A-Za-z0-9_]+)\/([^/]+)$/.exec(p);
      const emote = /^\/emoticons\/v2\/([^/]+)\/(default|static|animated)\/(dark|light)\/(1\.0|2\.0|3\.0)$/.exec(p);
      if (p === "/gql" || p === "/gql/") kind = "gql";
      else if (usher) kind = "usher";
      else if (media) kind = media[3] === "index-dvr.m3u8" ? "playlist" : "segment";
      else if (p.startsWith("/emoticons/")) kind = "emote";
      stats.requests[kind]++;
      open[kind]++;
      stats.maxConcurrent[kind] = Math.max(stats.maxConcurrent[kind], open[kind]);
      res.once("close", () => open[kind]--);
      if (faults.latencyMs > 0) await new Promise((r) => setTimeout(r, faults.latencyMs));
      const failure = requestFailures.get(kind);
      if (failure && failure.times > 0) {
        failure.times--;
        if (failure.how === "reset") return void req.socket.destroy();
        return send(res, kind, failure.how, `HTTP ${failure.how}`, "text/plain");
      }
      try {
        if (kind === "gql" && req.method === "POST") await handleGql(req, res);
        else if (usher && req.method === "GET") await handleUsher(res, url, usher[1]!, base);
        else if (media && req.method === "GET") await handleMedia(res, media[1]!, media[2]!, media[3]!);
        else if (emote && req.method === "GET") {
          // Twitch's CDN: one PNG per emote and scale (no animated images here); 404 for an unknown emote.
          const png = emotePng(decodeURIComponent(emote[1]!), EMOTE_SCALES[emote[4]!]!);
          if (png) send(res, kind, 200, png, "image/png");
          else send(res, kind, 404, "Not Found", "text/plain");
        }
        else send(res, kind, 404, "not found", "text/plain");
      } catch (error) {
        send(res, kind, 500, `internal error: ${(error as Error).message}`, "text/plain");
      }
    })();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${options.host ?? "127.0.0.1"}:${address.port}`;
  return {
    url,
    gqlUrl: `${url}/gql`,
    usherUrl: url,
    emoteUrl: `${url}/emoticons/v2`,
    root: store.root,
    stats,
    faults,
    failSegment(segmentPath, times, kind = "status", status = 503) {
      segmentFailures.set(segmentPath, { times, kind, status });
    },
    failRequests(kind, times, how = 503) {
      requestFailures.set(kind, { times, how });
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
