import { createProgressParser } from "../ffmpeg/progress";
import { runProcess } from "../ffmpeg/process";
import { FFMPEG_BIN } from "../ffmpeg/run-ffmpeg";
import { createMetadataLineParser } from "./metadata-lines";

export interface DetectSceneCutsOptions {
  signal?: AbortSignal;
  /** scdet threshold (0-100); 10 is ffmpeg's default and catches hard cuts, not camera pans. */
  threshold?: number;
  /** Width frames are scaled to before comparison; detail does not matter for a cut. */
  width?: number;
  /** For progress fractions. */
  durationSeconds?: number;
  onProgress?: (fraction: number) => void;
}

/**
 * Scene cuts in a downloaded clip, in seconds from the file start. Only keyframes are decoded (125x realtime
 * vs 16x for every frame), so a cut is reported at the first keyframe after it: up to one GOP (2 s on Twitch)
 * late. That is enough to avoid starting a highlight a moment before a scene change.
 */
export async function detectSceneCuts(videoPath: string, opts: DetectSceneCutsOptions = {}): Promise<number[]> {
  const threshold = opts.threshold ?? 10;
  const width = opts.width ?? 160;
  const cuts: number[] = [];
  const meta = createMetadataLineParser((frame) => {
    const v = frame.values.get("lavfi.scd.time");
    if (v !== undefined) {
      const t = Number.parseFloat(v);
      if (Number.isFinite(t)) cuts.push(t);
    }
  });
  const duration = opts.durationSeconds;
  const progress =
    opts.onProgress && duration && duration > 0
      ? createProgressParser((p) => opts.onProgress!(p.done ? 1 : Math.min(1, p.outTimeSeconds / duration)))
      : undefined;
  await runProcess(
    FFMPEG_BIN,
    [
      "-hide_banner",
      "-nostdin",
      "-nostats",
      "-loglevel",
      "error",
      ...(progress ? ["-progress", "pipe:2"] : []),
      "-skip_frame",
      "nokey",
      "-an",
      "-sn",
      "-dn",
      "-i",
      videoPath,
      "-vf",
      `scale=${width}:-2,scdet=threshold=${threshold},metadata=mode=print:key=lavfi.scd.time:file='pipe\\:1'`,
      "-f",
      "null",
      "-",
    ],
    { signal: opts.signal, onStdoutLine: (l) => meta.push(l), onStderrLine: progress },
  );
  meta.end();
  return cuts.sort((a, b) => a - b);
}
