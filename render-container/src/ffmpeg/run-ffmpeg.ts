import { createProgressParser, type FfmpegProgress } from "./progress";
import { runProcess, type ProcessResult } from "./process";

export const FFMPEG_BIN = process.env.FFMPEG_PATH || "ffmpeg";
export const FFPROBE_BIN = process.env.FFPROBE_PATH || "ffprobe";

export interface RunFfmpegOptions {
  signal?: AbortSignal;
  cwd?: string;
  /** Progress reports parsed from `-progress pipe:1`. */
  onProgress?: (p: FfmpegProgress) => void;
  /**
   * Expected output duration: turns reports into a 0..1 fraction for `onFraction`
   * (ffmpeg itself does not know how long a filtered output will be).
   */
  expectedDurationSeconds?: number;
  onFraction?: (fraction: number) => void;
  /** Each stderr line, for callers that read filter output (astats, silencedetect, ...) from the log. */
  onStderrLine?: (line: string) => void;
  /** The ffmpeg log level; `error` unless the caller reads the log. */
  logLevel?: "error" | "warning" | "info" | "verbose";
}

/**
 * Runs ffmpeg with the given arguments (inputs, filters, outputs). Adds the flags every run needs:
 * no banner, no stdin (a stray read would hang a job), overwrite, and machine-readable progress on stdout.
 */
export function runFfmpeg(args: readonly string[], opts: RunFfmpegOptions = {}): Promise<ProcessResult> {
  const wantsProgress = Boolean(opts.onProgress || opts.onFraction);
  const expected = opts.expectedDurationSeconds;
  const parse = wantsProgress
    ? createProgressParser((p) => {
        opts.onProgress?.(p);
        if (opts.onFraction && expected && expected > 0) {
          opts.onFraction(p.done ? 1 : Math.min(1, Math.max(0, p.outTimeSeconds / expected)));
        }
      })
    : undefined;
  const full = [
    "-hide_banner",
    "-nostdin",
    "-y",
    "-loglevel",
    opts.logLevel ?? "error",
    ...(wantsProgress ? ["-progress", "pipe:1", "-nostats"] : ["-nostats"]),
    ...args,
  ];
  return runProcess(FFMPEG_BIN, full, {
    signal: opts.signal,
    cwd: opts.cwd,
    onStdoutLine: parse,
    onStderrLine: opts.onStderrLine,
  });
}
