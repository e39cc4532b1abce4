import { execFile } from "node:child_process";
import { promisify } from "node:util";

const exec = promisify(execFile);

export async function ffprobeJson(input: string, args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await exec("ffprobe", ["-v", "error", "-of", "json", ...args, input], { maxBuffer: 256 * 1024 * 1024 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

export interface StreamInfo {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
}

export async function streams(input: string): Promise<StreamInfo[]> {
  return ((await ffprobeJson(input, ["-show_streams"])).streams as StreamInfo[]) ?? [];
}

/** Presentation times of every packet of one stream type, sorted. */
export async function packetTimes(input: string, stream: "v" | "a"): Promise<number[]> {
  const json = await ffprobeJson(input, ["-select_streams", stream, "-show_entries", "packet=pts_time"]);
  return ((json.packets as { pts_time?: string }[]) ?? [])
    .map((p) => Number(p.pts_time))
    .filter((t) => Number.isFinite(t))
    .sort((a, b) => a - b);
}

/** Largest and smallest step between consecutive packet times. */
export function steps(times: number[]): { min: number; max: number } {
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  for (let i = 1; i < times.length; i++) {
    const d = times[i]! - times[i - 1]!;
    min = Math.min(min, d);
    max = Math.max(max, d);
  }
  return { min, max };
}

/** Per-second RMS level in dBFS (-Infinity for digital silence) of the first audio stream. */
export async function rmsPerSecond(input: string): Promise<number[]> {
  const { stderr } = await exec(
    "ffmpeg",
    ["-hide_banner", "-nostats", "-i", input, "-map", "0:a:0", "-af", "aresample=48000,asetnsamples=48000,astats=metadata=1:reset=1,ametadata=print:key=lavfi.astats.Overall.RMS_level", "-f", "null", "-"],
    { maxBuffer: 256 * 1024 * 1024 },
  );
  return [...stderr.matchAll(/lavfi\.astats\.Overall\.RMS_level=(\S+)/g)].map((m) => (m[1] === "-inf" ? Number.NEGATIVE_INFINITY : Number(m[1])));
}

/** One decoded frame as raw RGB24 at the given VOD time. */
export async function frameRgb(input: string, seconds: number, width: number, height: number): Promise<Buffer> {
  const { stdout } = await exec(
    "ffmpeg",
    ["-hide_banner", "-loglevel", "error", "-i", input, "-vf", `trim=start=${seconds},setpts=PTS-STARTPTS`, "-frames:v", "1", "-s", `${width}x${height}`, "-pix_fmt", "rgb24", "-f", "rawvideo", "-"],
    { encoding: "buffer", maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

export function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
