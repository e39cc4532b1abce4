/** HLS playlists as Twitch writes them for VODs (master from usher, media playlists `index-dvr.m3u8`). */

export interface Variant {
  /** Display name, e.g. "720p60" or "Audio Only". */
  name: string;
  /** Twitch's rendition id: "chunked" (source), "720p60", "audio_only", ... */
  group_id: string;
  url: string;
  bandwidth: number;
  resolution: { width: number; height: number } | null;
  codecs: string | null;
  frame_rate: number | null;
  audio_only: boolean;
  source: boolean;
}

export interface MediaSegment {
  uri: string;
  duration: number;
  /** Seconds from the start of the VOD to this segment's first sample. */
  start: number;
  index: number;
  /** DMCA-muted: the segment's audio is silence. */
  muted: boolean;
  /**
   * Preceded by #EXT-X-DISCONTINUITY: its timestamps need not continue the previous segment's (the player's
   * timeline, and this one's `start`, still add up the #EXTINF durations). Set by the parser.
   */
  discontinuity?: boolean;
  /** Number of discontinuities up to and including this segment: segments with the same number run on. */
  discontinuity_sequence?: number;
  /**
   * fMP4 renditions (#EXT-X-MAP): the initialisation section this segment needs in front of it (`init-0.mp4`);
   * null for MPEG-TS. Set by the parser.
   */
  init_uri?: string | null;
}

export interface MediaPlaylist {
  target_duration: number;
  segments: MediaSegment[];
  total_duration: number;
  /** #EXT-X-ENDLIST seen: the recording is finished. */
  ended: boolean;
}

/** Parses an HLS attribute list (`A=1,B="x,y",C=0x1`), keeping quoted commas inside values. */
export function parseAttributes(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  const re = /([A-Z0-9-]+)=("[^"]*"|[^,]*)/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const raw = m[2]!;
    attrs[m[1]!.toUpperCase()] = raw.startsWith('"') ? raw.slice(1, -1) : raw;
  }
  return attrs;
}

function lines(text: string): string[] {
  return text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0);
}

function resolve(uri: string, baseUrl: string): string {
  return new URL(uri, baseUrl).toString();
}

export function parseMasterPlaylist(text: string, baseUrl: string): Variant[] {
  const all = lines(text);
  if (all[0] !== "#EXTM3U") throw new Error("not an HLS playlist (missing #EXTM3U)");
  const mediaNames = new Map<string, string>();
  for (const line of all) {
    if (line.startsWith("#EXT-X-MEDIA:")) {
      const a = parseAttributes(line.slice("#EXT-X-MEDIA:".length));
      if (a["GROUP-ID"]) mediaNames.set(a["GROUP-ID"], a.NAME ?? a["GROUP-ID"]);
    }
  }
  const variants: Variant[] = [];
  for (let i = 0; i < all.length; i++) {
    const line = all[i]!;
    if (!line.startsWith("#EXT-X-STREAM-INF:")) continue;
    const uri = all.slice(i + 1).find((l) => !l.startsWith("#"));
    if (!uri) break;
    const a = parseAttributes(line.slice("#EXT-X-STREAM-INF:".length));
    const url = resolve(uri, baseUrl);
    const group_id = a.VIDEO ?? a.AUDIO ?? pathRendition(url) ?? `variant${variants.length}`;
    const name = mediaNames.get(group_id) ?? group_id;
    const codecs = a.CODECS ?? null;
    const res = /^(\d+)x(\d+)$/.exec(a.RESOLUTION ?? "");
    const onlyAudioCodecs = codecs !== null && codecs.split(",").every((c) => c.trim().startsWith("mp4a"));
    const audio_only =
      group_id === "audio_only" || onlyAudioCodecs || /audio[ _]only/i.test(name) || /\/audio_only\//.test(url);
    variants.push({
      name,
      group_id,
      url,
      bandwidth: Number(a.BANDWIDTH ?? a["AVERAGE-BANDWIDTH"] ?? 0) || 0,
      resolution: res ? { width: Number(res[1]), height: Number(res[2]) } : null,
      codecs,
      frame_rate: a["FRAME-RATE"] ? Number(a["FRAME-RATE"]) : null,
      audio_only,
      source: !audio_only && (group_id === "chunked" || /\(source\)/i.test(name)),
    });
  }
  return variants;
}

function pathRendition(url: string): string | null {
  const parts = new URL(url).pathname.split("/");
  return parts.length >= 2 ? parts[parts.length - 2] || null : null;
}

export function parseMediaPlaylist(text: string, baseUrl: string): MediaPlaylist {
  const all = lines(text);
  if (all[0] !== "#EXTM3U") throw new Error("not an HLS playlist (missing #EXTM3U)");
  let target_duration = 0;
  let ended = false;
  let pendingDuration: number | null = null;
  let pendingDiscontinuity = false;
  let discontinuitySequence = 0;
  let initUri: string | null = null;
  let start = 0;
  const segments: MediaSegment[] = [];
  for (const line of all) {
    if (line.startsWith("#EXT-X-TARGETDURATION:")) {
      target_duration = Number(line.slice("#EXT-X-TARGETDURATION:".length)) || 0;
    } else if (line.startsWith("#EXTINF:")) {
      pendingDuration = Number.parseFloat(line.slice("#EXTINF:".length));
      if (!Number.isFinite(pendingDuration)) throw new Error(`bad #EXTINF line: ${line}`);
    } else if (line === "#EXT-X-ENDLIST") {
      ended = true;
    } else if (line.startsWith("#EXT-X-MAP:")) {
      const map = parseAttributes(line.slice("#EXT-X-MAP:".length));
      if (!map.URI) throw new Error(`#EXT-X-MAP without URI: ${line}`);
      // Applies to every later segment until the next one (RFC 8216 4.3.2.5).
      initUri = resolve(map.URI, baseUrl);
    } else if (line === "#EXT-X-DISCONTINUITY") {
      // A tag before the first segment changes nothing: there is nothing to continue from.
      if (segments.length > 0 && !pendingDiscontinuity) {
        pendingDiscontinuity = true;
        discontinuitySequence++;
      }
    } else if (!line.startsWith("#")) {
      if (pendingDuration === null) continue;
      // Twitch lists some muted parts as "N-unmuted.ts" although only "N-muted.ts" is served (as streamlink does);
      // fMP4 renditions name them N-muted.mp4 the same way.
      const unmuted = /-unmuted\.(ts|mp4)(\?|$)/.test(line);
      const uri = unmuted ? line.replace(/-unmuted\.(ts|mp4)/, "-muted.$1") : line;
      segments.push({
        uri: resolve(uri, baseUrl),
        duration: pendingDuration,
        start: round3(start),
        index: segments.length,
        muted: unmuted || /-muted\.(ts|mp4)(\?|$)/.test(uri),
        discontinuity: pendingDiscontinuity,
        discontinuity_sequence: discontinuitySequence,
        init_uri: initUri,
      });
      start += pendingDuration;
      pendingDuration = null;
      pendingDiscontinuity = false;
    }
  }
  return { target_duration, segments, total_duration: round3(start), ended };
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
