import { cp, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { VideoFile } from "../twitch-server/vod-folder";
import { run } from "./exec";

export interface DiscontinuityOptions {
  /** Segment index (position in the playlist) that starts the new discontinuity sequence. */
  fromSegment: number;
  /** How far its timestamps (and all later ones) jump; below ffmpeg's 10 s auto-correction is the hard case. */
  jumpSeconds: number;
}

/** Segment file names of a rendition, in playlist order. */
async function segmentFiles(dir: string): Promise<string[]> {
  const text = await readFile(path.join(dir, "index-dvr.m3u8"), "utf8");
  return text.split("\n").map((l) => l.trim()).filter((l) => l.length > 0 && !l.startsWith("#"));
}

/**
 * Copies a VOD folder (as generateSyntheticVod writes it) to `destDir` with an #EXT-X-DISCONTINUITY before
 * segment `fromSegment` in every rendition, and that segment and all later ones remuxed (stream copy) with their
 * timestamps moved by `jumpSeconds`: the same pictures and sound at the same VOD times, on a broken clock, as
 * Twitch VODs with a discontinuity come. truth.json is left out (its byte counts would not hold).
 */
export async function writeDiscontinuityVariant(srcDir: string, destDir: string, opts: DiscontinuityOptions): Promise<void> {
  await rm(destDir, { recursive: true, force: true });
  await cp(srcDir, destDir, { recursive: true, filter: (p) => path.basename(p) !== "truth.json" });
  const video = JSON.parse(await readFile(path.join(destDir, "video.json"), "utf8")) as VideoFile;
  for (const r of video.renditions ?? []) {
    const dir = path.join(destDir, r.group_id);
    const files = await segmentFiles(dir);
    for (const file of files.slice(opts.fromSegment)) {
      const from = path.join(dir, file);
      const to = path.join(dir, `${file}.shifted`);
      await run("ffmpeg", [
        "-hide_banner", "-loglevel", "error", "-y", "-copyts", "-i", from,
        "-map", "0", "-c", "copy", "-output_ts_offset", String(opts.jumpSeconds), "-muxdelay", "0", "-muxpreload", "0",
        "-f", "mpegts", to,
      ]);
      await rename(to, from);
    }
    const playlist = path.join(dir, "index-dvr.m3u8");
    const lines = (await readFile(playlist, "utf8")).split("\n");
    const at = lines.findIndex((l) => l.trim() === files[opts.fromSegment]);
    if (at < 1) throw new Error(`segment ${opts.fromSegment} not found in ${playlist}`);
    lines.splice(at - 1, 0, "#EXT-X-DISCONTINUITY");
    await writeFile(playlist, lines.join("\n"));
  }
}

export interface Fmp4Options {
  /**
   * From this segment on the playlist names another initialisation section, init-1.mp4, after an
   * #EXT-X-DISCONTINUITY, and those segments come from a second packaging run whose clock starts again at 0
   * (as after a reconnect). `sameBytes`: init-1.mp4 is a copy of init-0.mp4; otherwise it differs (a trailing
   * `free` box: same media, other bytes).
   */
  initSwitch?: { fromSegment: number; sameBytes: boolean };
}

/** A `free` box: valid MP4 that players skip. */
const FREE_BOX = Buffer.from([0, 0, 0, 8, 0x66, 0x72, 0x65, 0x65]);

/** Packages TS segments as fMP4 HLS fragments `<first>.mp4`, ... plus `init`; returns their durations. */
async function packageFmp4(inputs: string[], dir: string, first: number, init: string): Promise<number[]> {
  const list = path.join(dir, `ffmpeg-${first}.m3u8`);
  await run("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y",
    "-i", `concat:${inputs.join("|")}`,
    "-map", "0", "-c", "copy", "-bsf:a", "aac_adtstoasc",
    "-f", "hls", "-hls_time", "10", "-hls_list_size", "0", "-hls_playlist_type", "vod",
    "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", init, "-start_number", String(first),
    "-hls_segment_filename", path.join(dir, "%d.mp4"), list,
  ]);
  const durations = (await readFile(list, "utf8"))
    .split("\n")
    .filter((l) => l.startsWith("#EXTINF:"))
    .map((l) => Number.parseFloat(l.slice("#EXTINF:".length)));
  await rm(list);
  if (durations.length !== inputs.length) throw new Error(`fMP4 packaging gave ${durations.length} segments, not ${inputs.length}`);
  return durations;
}

/**
 * Copies a VOD folder with every rendition repackaged (stream copy) as fMP4 HLS the way Twitch serves newer
 * VODs: `#EXT-X-MAP:URI="init-0.mp4"`, segments `N.mp4`, muted ones `N-muted.mp4`. Same media, same segment
 * times. truth.json is left out (its byte counts would not hold).
 */
export async function writeFmp4Variant(srcDir: string, destDir: string, opts: Fmp4Options = {}): Promise<void> {
  await rm(destDir, { recursive: true, force: true });
  await cp(srcDir, destDir, { recursive: true, filter: (p) => !/\.ts$|index-dvr\.m3u8$|truth\.json$/.test(p) });
  const video = JSON.parse(await readFile(path.join(destDir, "video.json"), "utf8")) as VideoFile;
  const cut = opts.initSwitch?.fromSegment;
  for (const r of video.renditions ?? []) {
    const from = path.join(srcDir, r.group_id);
    const dir = path.join(destDir, r.group_id);
    await mkdir(dir, { recursive: true });
    const files = await segmentFiles(from);
    const inputs = files.map((f) => path.join(from, f));
    const durations =
      cut === undefined
        ? await packageFmp4(inputs, dir, 0, "init-0.mp4")
        : [...(await packageFmp4(inputs.slice(0, cut), dir, 0, "init-0.mp4")), ...(await packageFmp4(inputs.slice(cut), dir, cut, "init-1.mp4"))];
    const lines = ["#EXTM3U", "#EXT-X-VERSION:6", `#EXT-X-TARGETDURATION:${Math.ceil(Math.max(...durations))}`, "#EXT-X-PLAYLIST-TYPE:EVENT", "#EXT-X-MEDIA-SEQUENCE:0", '#EXT-X-MAP:URI="init-0.mp4"'];
    for (let i = 0; i < files.length; i++) {
      const name = files[i]!.replace(/\.ts$/, ".mp4");
      if (name !== `${i}.mp4`) await rename(path.join(dir, `${i}.mp4`), path.join(dir, name));
      if (i === cut) lines.push("#EXT-X-DISCONTINUITY", '#EXT-X-MAP:URI="init-1.mp4"');
      lines.push(`#EXTINF:${durations[i]!.toFixed(3)},`, name);
    }
    lines.push("#EXT-X-ENDLIST");
    await writeFile(path.join(dir, "index-dvr.m3u8"), lines.join("\n") + "\n");
    if (opts.initSwitch) {
      const init = await readFile(path.join(dir, "init-0.mp4"));
      await writeFile(path.join(dir, "init-1.mp4"), opts.initSwitch.sameBytes ? init : Buffer.concat([await readFile(path.join(dir, "init-1.mp4")), FREE_BOX]));
    }
  }
}

export interface LowRenditionOptions {
  /** Twitch group id of the added rendition, e.g. "160p30" or "360p30". */
  groupId: string;
  width: number;
  height: number;
  /** Video bitrate; Twitch's 160p30 runs at about 230 kb/s, 360p30 at about 630 kb/s. */
  videoKbps: number;
}

/**
 * Copies a VOD folder and adds a lower video rendition, as Twitch lists 160p30 ... 720p60 beside the source: the
 * source's pictures re-encoded at `width`x`height` (keyframe every 2 s) segment by segment with the same audio and
 * timestamps, so its segments cover the same VOD times and carry the same names (N.ts, N-muted.ts) and playlist.
 * truth.json is left out.
 */
export async function writeLowRenditionVariant(srcDir: string, destDir: string, opts: LowRenditionOptions): Promise<void> {
  await rm(destDir, { recursive: true, force: true });
  await cp(srcDir, destDir, { recursive: true, filter: (p) => path.basename(p) !== "truth.json" });
  const video = JSON.parse(await readFile(path.join(destDir, "video.json"), "utf8")) as VideoFile;
  const source = path.join(destDir, "chunked");
  const files = await segmentFiles(source);
  const dir = path.join(destDir, opts.groupId);
  await mkdir(dir, { recursive: true });
  const chunked = video.renditions?.find((r) => r.group_id === "chunked");
  const gop = String(Math.round(2 * (chunked?.frame_rate ?? 30)));
  // Segment by segment, keeping each one's timestamps: the same VOD times as the source's segments.
  let bytes = 0;
  for (const file of files) {
    await run("ffmpeg", [
      "-hide_banner", "-loglevel", "error", "-y", "-copyts", "-i", path.join(source, file),
      "-map", "0:v:0", "-map", "0:a:0", "-vf", `scale=${opts.width}:${opts.height}`,
      "-c:v", "libx264", "-preset", "veryfast", "-b:v", `${opts.videoKbps}k`, "-maxrate", `${opts.videoKbps}k`, "-bufsize", `${opts.videoKbps * 2}k`,
      "-g", gop, "-keyint_min", gop, "-sc_threshold", "0", "-c:a", "copy", "-muxdelay", "0", "-muxpreload", "0",
      "-f", "mpegts", path.join(dir, file),
    ]);
    bytes += (await stat(path.join(dir, file))).size;
  }
  await cp(path.join(source, "index-dvr.m3u8"), path.join(dir, "index-dvr.m3u8"));
  const total = video.lengthSeconds;
  video.renditions = [
    ...(video.renditions ?? []),
    {
      group_id: opts.groupId,
      name: opts.groupId,
      bandwidth: Math.round((bytes * 8) / Math.max(1, total)),
      codecs: chunked?.codecs ?? "avc1.4D401E,mp4a.40.2",
      resolution: `${opts.width}x${opts.height}`,
      frame_rate: chunked?.frame_rate ?? 30,
    },
  ];
  await writeFile(path.join(destDir, "video.json"), JSON.stringify(video, null, 2));
}
