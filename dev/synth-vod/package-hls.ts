import { readFile, rename, rm, stat, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { parseMediaPlaylist } from "../../common/twitch/m3u8";
import { run } from "./exec";
import { SEGMENT_SECONDS, type ScenePlan, type SceneName } from "./plan";

export interface SegmentInfo {
  index: number;
  file: string;
  start: number;
  duration: number;
  bytes: number;
  muted: boolean;
}

export interface PackageInput {
  outDir: string;
  workDir: string;
  duration: number;
  scenes: ScenePlan[];
  templates: Record<SceneName, string>;
  audioFile: string;
  mutedSegments: number[];
  createdAt: string;
}

function sceneAt(scenes: ScenePlan[], t: number): SceneName {
  return (scenes.find((s) => t >= s.start && t < s.end) ?? scenes[scenes.length - 1]!).scene;
}

async function hlsMux(inputs: string[], maps: string[], dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await run("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y",
    ...inputs,
    ...maps.flatMap((m) => ["-map", m]),
    "-c", "copy",
    "-f", "hls", "-hls_time", String(SEGMENT_SECONDS), "-hls_list_size", "0", "-hls_playlist_type", "vod",
    "-hls_segment_filename", path.join(dir, "%d.ts"),
    path.join(dir, "ffmpeg.m3u8"),
  ]);
}

/** Rewrites ffmpeg's playlist the way Twitch writes index-dvr.m3u8, renaming muted parts to N-muted.ts. */
async function twitchPlaylist(dir: string, muted: Set<number>, createdAt: string): Promise<SegmentInfo[]> {
  const ffmpegList = path.join(dir, "ffmpeg.m3u8");
  const parsed = parseMediaPlaylist(await readFile(ffmpegList, "utf8"), "file:///x/");
  const segments: SegmentInfo[] = [];
  for (const s of parsed.segments) {
    const plain = `${s.index}.ts`;
    const file = muted.has(s.index) ? `${s.index}-muted.ts` : plain;
    if (file !== plain) await rename(path.join(dir, plain), path.join(dir, file));
    segments.push({ index: s.index, file, start: s.start, duration: s.duration, bytes: (await stat(path.join(dir, file))).size, muted: muted.has(s.index) });
  }
  const total = segments.reduce((sum, s) => sum + s.duration, 0);
  const lines = [
    "#EXTM3U",
    "#EXT-X-VERSION:3",
    `#EXT-X-TARGETDURATION:${Math.ceil(Math.max(SEGMENT_SECONDS, ...segments.map((s) => s.duration)))}`,
    `#ID3-EQUIV-TDTG:${createdAt.replace(/\.\d+Z$|Z$/, "")}`,
    "#EXT-X-PLAYLIST-TYPE:EVENT",
    "#EXT-X-MEDIA-SEQUENCE:0",
    "#EXT-X-TWITCH-ELAPSED-SECS:0.000",
    `#EXT-X-TWITCH-TOTAL-SECS:${total.toFixed(3)}`,
    ...segments.flatMap((s) => [`#EXTINF:${s.duration.toFixed(3)},`, s.file]),
    "#EXT-X-ENDLIST",
  ];
  await writeFile(path.join(dir, "index-dvr.m3u8"), lines.join("\n") + "\n");
  await rm(ffmpegList);
  return segments;
}

/**
 * Builds both renditions by stream copy only: the source rendition concatenates scene templates (continuous
 * timestamps via the concat demuxer) with the one audio track; audio_only packages the same track alone.
 */
export async function packageRenditions(input: PackageInput): Promise<{ chunked: SegmentInfo[]; audio_only: SegmentInfo[] }> {
  const count = Math.ceil(input.duration / SEGMENT_SECONDS);
  const list: string[] = [];
  for (let i = 0; i < count; i++) {
    list.push(`file '${input.templates[sceneAt(input.scenes, i * SEGMENT_SECONDS)].replace(/'/g, "'\\''")}'`);
    const remaining = input.duration - i * SEGMENT_SECONDS;
    if (remaining < SEGMENT_SECONDS) list.push(`outpoint ${remaining.toFixed(3)}`);
  }
  const listFile = path.join(input.workDir, "templates.txt");
  await writeFile(listFile, list.join("\n") + "\n");
  const chunkedDir = path.join(input.outDir, "chunked");
  const audioDir = path.join(input.outDir, "audio_only");
  await Promise.all([
    hlsMux(["-f", "concat", "-safe", "0", "-i", listFile, "-i", input.audioFile], ["0:v:0", "1:a:0"], chunkedDir),
    hlsMux(["-i", input.audioFile], ["0:a:0"], audioDir),
  ]);
  const muted = new Set(input.mutedSegments);
  const [chunked, audio_only] = await Promise.all([
    twitchPlaylist(chunkedDir, muted, input.createdAt),
    twitchPlaylist(audioDir, muted, input.createdAt),
  ]);
  return { chunked, audio_only };
}
