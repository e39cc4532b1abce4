import fs from "node:fs/promises";
import path from "node:path";
import { probeMedia } from "../ffmpeg/probe";
import { runFfmpeg } from "../ffmpeg/run-ffmpeg";

export interface Thumbnail {
  path: string;
  size_bytes: number;
}

/**
 * A JPEG of the frame at `atSeconds` (clamped into the video), at the video's own size. Seeking before the
 * input is exact here: the input is our own MP4 with an index, not joined TS.
 */
export async function makeThumbnail(videoPath: string, atSeconds: number, out: string, opts: { signal?: AbortSignal } = {}): Promise<Thumbnail> {
  const info = await probeMedia(videoPath, opts);
  const at = Math.max(0, Math.min(atSeconds, info.durationSeconds - 0.1));
  await fs.mkdir(path.dirname(out), { recursive: true });
  await runFfmpeg(["-ss", at.toFixed(3), "-i", videoPath, "-frames:v", "1", "-q:v", "3", "-update", "1", "-f", "image2", "-c:v", "mjpeg", out], {
    signal: opts.signal,
  });
  const { size } = await fs.stat(out);
  return { path: out, size_bytes: size };
}
