import type { MediaInfo } from "../ffmpeg/probe";
import type { CutRange } from "./cut";
import type { Size } from "./types";

/**
 * The source's audio, or silence when it has none, so every output carries an audio track (players and the
 * concat of reel pieces expect one). The silence runs to the range's end so the same trim applies to both.
 */
export function audioSourceArgs(info: MediaInfo, range: CutRange): { args: string[]; label: string } {
  if (info.audio) return { args: [], label: "[0:a]" };
  return { args: ["-f", "lavfi", "-t", range.to.toFixed(3), "-i", "anullsrc=r=48000:cl=stereo"], label: "[1:a]" };
}

export function sourceSize(info: MediaInfo): Size {
  if (!info.video?.width || !info.video.height) throw new Error("source clip has no video stream");
  return { width: info.video.width, height: info.video.height };
}
