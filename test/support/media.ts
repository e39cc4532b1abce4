/**
 * Test media made with real ffmpeg/espeak-ng (or flite), packaged like the renderer's source clips: 10 s MPEG-TS segments
 * of H.264/AAC, byte-joined into one file. Results are cached under the OS temp folder by their parameters, so
 * repeated runs (and several test files) share one encode.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runFfmpeg } from "../../render-container/src/ffmpeg/run-ffmpeg";
import { runProcess } from "../../render-container/src/ffmpeg/process";

export const MEDIA_CACHE_DIR = path.join(os.tmpdir(), "highlight-test-media");

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface SpokenLine {
  /** Seconds from the clip's start. */
  at: number;
  text: string;
  /** How espeak-ng (or flite) speaks the line (speakWav's defaults when absent). */
  speak?: SpeakOptions;
  /** Louder or softer than the engine speaks it, dB (a shout: +10). */
  gainDb?: number;
}

export interface SourceClipOptions {
  durationSeconds: number;
  width?: number;
  height?: number;
  fps?: number;
  /** VOD time of the clip's first byte (what the source layer reports as media_start_seconds). */
  mediaStartSeconds?: number;
  segmentSeconds?: number;
  /** A solid coloured box standing in for a facecam, in source pixels. */
  facecam?: Rect & { color: string };
  speech?: SpokenLine[];
  /** Background tone so silent stretches are not digital silence. */
  toneHz?: number;
  /** Game-like noise under everything: pink noise at this amplitude (0.05: a busy game under calm talk). */
  noise?: number;
}

export interface TestClip {
  path: string;
  media_start_seconds: number;
  media_end_seconds: number;
  bytes: number;
}

function cacheKey(kind: string, value: unknown): string {
  return createHash("sha256").update(kind + JSON.stringify(value)).digest("hex").slice(0, 16);
}

/** Builds `target` with `build(tmpPath)` unless it exists; the rename makes concurrent builders safe. */
async function cached(target: string, build: (tmp: string) => Promise<void>): Promise<string> {
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.part${path.extname(target)}`;
  await build(tmp);
  fs.renameSync(tmp, target);
  return target;
}

export interface SpeakOptions {
  /** Words per minute. The defaults (female en-us variant, 150 wpm) were the ones pocketsphinx understood best. */
  speed?: number;
  voice?: string;
  amplitude?: number;
  /**
   * flite instead of espeak-ng: `voice` is one of `flite -lv` (kal, kal16, awb, rms, slt), `speed` on the same
   * scale (170 is the voice's own pace), `pitch` its mean F0 in Hz; `amplitude` is not used.
   */
  flite?: { pitch?: number };
}

/** espeak-ng (or flite) speaks `text` into a wav (espeak-ng: 22.05 kHz mono; flite: 8 or 16 kHz mono). */
export function speakWav(text: string, opts: SpeakOptions = {}): Promise<string> {
  const flite = opts.flite;
  if (flite) {
    const o = { speed: 170, voice: "slt", ...opts };
    const target = path.join(MEDIA_CACHE_DIR, `speech-${cacheKey("flite", { text, ...o })}.wav`);
    const pitch = flite.pitch === undefined ? [] : ["--setf", `int_f0_target_mean=${flite.pitch}`];
    return cached(target, async (tmp) => {
      await runProcess("flite", ["-voice", o.voice, "--setf", `duration_stretch=${(170 / o.speed).toFixed(2)}`, ...pitch, "-t", text, "-o", tmp]);
    });
  }
  const o = { speed: 150, voice: "en-us+f2", amplitude: 100, ...opts };
  const target = path.join(MEDIA_CACHE_DIR, `speech-${cacheKey("speech", { text, ...o })}.wav`);
  return cached(target, async (tmp) => {
    await runProcess("espeak-ng", ["-v", o.voice, "-s", String(o.speed), "-a", String(o.amplitude), "-w", tmp, text]);
  });
}

/** Makes (or reuses) a source-like clip: byte-joined MPEG-TS segments, keyframes every 2 s. */
export async function makeSourceClip(options: SourceClipOptions): Promise<TestClip> {
  const o = {
    width: 1280,
    height: 720,
    fps: 30,
    mediaStartSeconds: 0,
    segmentSeconds: 10,
    toneHz: 220,
    speech: [] as SpokenLine[],
    ...options,
  };
  const dir = path.join(MEDIA_CACHE_DIR, `clip-${cacheKey("clip-v1", o)}`);
  const file = path.join(dir, "joined.ts");
  await cached(file, async (tmp) => {
    const segDir = `${tmp}.segments`;
    fs.mkdirSync(segDir, { recursive: true });
    const speechWavs = await Promise.all(o.speech.map((s) => speakWav(s.text, s.speak)));

    const inputs = [
      "-f", "lavfi", "-i", `testsrc2=size=${o.width}x${o.height}:rate=${o.fps}:duration=${o.durationSeconds}`,
      "-f", "lavfi", "-i", `sine=frequency=${o.toneHz}:sample_rate=48000:duration=${o.durationSeconds}`,
      ...speechWavs.flatMap((w) => ["-i", w]),
      ...(o.noise ? ["-f", "lavfi", "-i", `anoisesrc=color=pink:amplitude=${o.noise}:sample_rate=48000:duration=${o.durationSeconds}:seed=7`] : []),
    ];
    const fc = o.facecam;
    const video = fc
      ? `[0:v]drawbox=x=${fc.x}:y=${fc.y}:w=${fc.w}:h=${fc.h}:color=${fc.color}:t=fill,format=yuv420p[v]`
      : `[0:v]format=yuv420p[v]`;
    const speechChains = o.speech.map(
      (s, i) => `[${i + 2}:a]aresample=48000,${s.gainDb ? `volume=${s.gainDb}dB,` : ""}adelay=${Math.round(s.at * 1000)}:all=1,apad[s${i}]`,
    );
    const noise = o.noise ? [`[${o.speech.length + 2}:a]anull[noise]`] : [];
    const mixInputs = ["[bg]", ...o.speech.map((_, i) => `[s${i}]`), ...(o.noise ? ["[noise]"] : [])].join("");
    const audio = [
      `[1:a]volume=0.05[bg]`,
      ...speechChains,
      ...noise,
      `${mixInputs}amix=inputs=${o.speech.length + 1 + noise.length}:duration=first:normalize=0,aformat=channel_layouts=stereo[a]`,
    ].join(";");

    await runFfmpeg([
      ...inputs,
      "-filter_complex", `${video};${audio}`,
      "-map", "[v]", "-map", "[a]",
      "-c:v", "libx264", "-preset", "veryfast", "-crf", "26", "-g", String(o.fps * 2),
      "-force_key_frames", `expr:gte(t,n_forced*2)`,
      "-c:a", "aac", "-b:a", "128k", "-ar", "48000",
      "-output_ts_offset", String(o.mediaStartSeconds),
      "-f", "segment", "-segment_time", String(o.segmentSeconds), "-segment_format", "mpegts",
      path.join(segDir, "%05d.ts"),
    ]);
    const segments = fs.readdirSync(segDir).filter((f) => f.endsWith(".ts")).sort();
    const out = fs.openSync(tmp, "w");
    try {
      for (const s of segments) fs.writeSync(out, fs.readFileSync(path.join(segDir, s)));
    } finally {
      fs.closeSync(out);
    }
    fs.rmSync(segDir, { recursive: true, force: true });
  });
  return {
    path: file,
    media_start_seconds: o.mediaStartSeconds,
    media_end_seconds: o.mediaStartSeconds + o.durationSeconds,
    bytes: fs.statSync(file).size,
  };
}

export interface RgbFrame {
  width: number;
  height: number;
  data: Buffer;
}

/** Decodes one frame at `atSeconds` to raw RGB24. */
export async function readFrameRgb(videoPath: string, atSeconds: number, size: { width: number; height: number }): Promise<RgbFrame> {
  const { stdout } = await runProcess(
    "ffmpeg",
    ["-hide_banner", "-nostdin", "-loglevel", "error", "-ss", String(atSeconds), "-i", videoPath,
      "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"],
    { collectStdout: true },
  );
  if (stdout.length !== size.width * size.height * 3) {
    throw new Error(`frame has ${stdout.length} bytes, expected ${size.width}x${size.height}x3`);
  }
  return { ...size, data: stdout };
}

export function pixelAt(frame: RgbFrame, x: number, y: number): [number, number, number] {
  const i = (Math.round(y) * frame.width + Math.round(x)) * 3;
  return [frame.data[i]!, frame.data[i + 1]!, frame.data[i + 2]!];
}

/** Mean absolute difference of two frames' bytes inside a rectangle (0..255). */
export function regionDifference(a: RgbFrame, b: RgbFrame, r: Rect): number {
  let sum = 0;
  let n = 0;
  for (let y = r.y; y < r.y + r.h; y++) {
    for (let x = r.x; x < r.x + r.w; x++) {
      const i = (y * a.width + x) * 3;
      for (let c = 0; c < 3; c++) sum += Math.abs(a.data[i + c]! - b.data[i + c]!);
      n += 3;
    }
  }
  return n ? sum / n : 0;
}

/** Mean RGB of a rectangle. */
export function regionMean(frame: RgbFrame, r: Rect): [number, number, number] {
  const acc = [0, 0, 0];
  let n = 0;
  for (let y = r.y; y < r.y + r.h; y++) {
    for (let x = r.x; x < r.x + r.w; x++) {
      const i = (y * frame.width + x) * 3;
      acc[0]! += frame.data[i]!;
      acc[1]! += frame.data[i + 1]!;
      acc[2]! += frame.data[i + 2]!;
      n++;
    }
  }
  return [acc[0]! / n, acc[1]! / n, acc[2]! / n];
}

export function colorDistance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
}
