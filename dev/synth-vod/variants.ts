import { cp, readFile, rename, rm, writeFile } from "node:fs/promises";
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
