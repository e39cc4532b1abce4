/** One `-progress` report from ffmpeg (a block of key=value lines ending with `progress=`). */
export interface FfmpegProgress {
  /** Output time written so far, seconds. */
  outTimeSeconds: number;
  frame: number | null;
  /** Encoding speed as a multiple of realtime (ffmpeg's `speed=1.7x`). */
  speed: number | null;
  totalSizeBytes: number | null;
  /** True on the final block (`progress=end`). */
  done: boolean;
}

function num(v: string | undefined): number | null {
  if (v === undefined) return null;
  const n = Number.parseFloat(v);
  return Number.isFinite(n) ? n : null;
}

/**
 * Stateful parser for `-progress pipe:1` output: feed it lines, it emits a report per completed block.
 * ffmpeg prints `N/A` before the first frame is out, which is reported as time 0.
 */
export function createProgressParser(onProgress: (p: FfmpegProgress) => void): (line: string) => void {
  let block = new Map<string, string>();
  return (line) => {
    const eq = line.indexOf("=");
    if (eq <= 0) return;
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    if (key !== "progress") {
      block.set(key, value);
      return;
    }
    // out_time_us is the precise field; out_time_ms is also microseconds (a long-standing ffmpeg misnomer).
    const us = num(block.get("out_time_us")) ?? num(block.get("out_time_ms"));
    const speed = block.get("speed");
    onProgress({
      outTimeSeconds: us !== null && us > 0 ? us / 1e6 : 0,
      frame: num(block.get("frame")),
      speed: speed ? num(speed.replace(/x$/, "")) : null,
      totalSizeBytes: num(block.get("total_size")),
      done: value === "end",
    });
    block = new Map();
  };
}
