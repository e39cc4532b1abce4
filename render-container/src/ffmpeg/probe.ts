import { runProcess } from "./process";
import { FFPROBE_BIN } from "./run-ffmpeg";

export interface ProbedStream {
  index: number;
  codecType: "video" | "audio" | "subtitle" | "data" | string;
  codecName: string | null;
  width: number | null;
  height: number | null;
  pixFmt: string | null;
  /** Frames per second from r_frame_rate, e.g. 30. */
  frameRate: number | null;
  sampleRate: number | null;
  channels: number | null;
  durationSeconds: number | null;
  startSeconds: number | null;
}

export interface MediaInfo {
  formatName: string;
  durationSeconds: number;
  startSeconds: number;
  sizeBytes: number;
  bitRate: number | null;
  streams: ProbedStream[];
  video: ProbedStream | null;
  audio: ProbedStream | null;
}

interface RawStream {
  index?: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  r_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
  start_time?: string;
}
interface RawProbe {
  format?: { format_name?: string; duration?: string; start_time?: string; size?: string; bit_rate?: string };
  streams?: RawStream[];
}

function num(v: string | number | undefined): number | null {
  if (v === undefined) return null;
  const n = typeof v === "number" ? v : Number.parseFloat(v);
  return Number.isFinite(n) ? n : null;
}

function rate(v: string | undefined): number | null {
  if (!v) return null;
  const [a, b] = v.split("/").map(Number);
  if (a === undefined || !Number.isFinite(a)) return null;
  if (b === undefined) return a;
  return b > 0 ? a / b : null;
}

/** Reads container and stream facts with ffprobe's JSON output. */
export async function probeMedia(path: string, opts: { signal?: AbortSignal } = {}): Promise<MediaInfo> {
  const { stdout } = await runProcess(
    FFPROBE_BIN,
    ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path],
    { signal: opts.signal, collectStdout: true },
  );
  const raw = JSON.parse(stdout.toString("utf8")) as RawProbe;
  const streams: ProbedStream[] = (raw.streams ?? []).map((s, i) => ({
    index: s.index ?? i,
    codecType: s.codec_type ?? "unknown",
    codecName: s.codec_name ?? null,
    width: s.width ?? null,
    height: s.height ?? null,
    pixFmt: s.pix_fmt ?? null,
    frameRate: rate(s.r_frame_rate),
    sampleRate: num(s.sample_rate),
    channels: s.channels ?? null,
    durationSeconds: num(s.duration),
    startSeconds: num(s.start_time),
  }));
  return {
    formatName: raw.format?.format_name ?? "unknown",
    durationSeconds: num(raw.format?.duration) ?? 0,
    startSeconds: num(raw.format?.start_time) ?? 0,
    sizeBytes: num(raw.format?.size) ?? 0,
    bitRate: num(raw.format?.bit_rate),
    streams,
    video: streams.find((s) => s.codecType === "video") ?? null,
    audio: streams.find((s) => s.codecType === "audio") ?? null,
  };
}
