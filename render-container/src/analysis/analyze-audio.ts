import { spawn } from "node:child_process";
import { ProcessError } from "../ffmpeg/process";
import { FFMPEG_BIN } from "../ffmpeg/run-ffmpeg";
import { buildAnalysisArgs, DEFAULT_ANALYSIS_GRAPH, type AnalysisGraphOptions } from "./analysis-filtergraph";
import { createMetadataLineParser } from "./metadata-lines";
import { createPerSecondLevels } from "./per-second";
import { median } from "./stats";
import type { AudioAnalysis } from "./types";
import { createVoiceEnvelopeBuilder } from "./voice-envelope";
import { deriveVoiceFeatures, type VoiceFeatureOptions } from "./voice-features";

export interface AnalyzeAudioOptions {
  signal?: AbortSignal;
  /** Known length of the audio; enables progress fractions and fixes the length of the per-second arrays. */
  durationSeconds?: number;
  /** Fraction 0..1 of the input analysed so far (needs durationSeconds). */
  onProgress?: (fraction: number) => void;
  graph?: Partial<AnalysisGraphOptions>;
  voice?: VoiceFeatureOptions;
  /** ffmpeg input options placed before `-i` (HTTP headers, reconnect flags, `-stream_loop` in benchmarks). */
  inputOptions?: readonly string[];
  /** Called with the ffmpeg process id once it runs (benchmarks sample its memory). */
  onSpawn?: (pid: number) => void;
}

/** Loudness below this is gated out of the baseline (ebur128 reports -120 LUFS for digital silence). */
export const GATE_LUFS = -70;

/**
 * Analyses the audio of a file or playlist in one ffmpeg pass (see analysis-filtergraph.ts) and returns
 * per-second signals. Both outputs are consumed as they arrive; memory stays at a few numbers per second.
 */
export async function analyzeAudio(inputPath: string, opts: AnalyzeAudioOptions = {}): Promise<AudioAnalysis> {
  const graph = { ...DEFAULT_ANALYSIS_GRAPH, ...opts.graph };
  const levels = createPerSecondLevels();
  const envelope = createVoiceEnvelopeBuilder(graph.sampleRate);
  let lastReported = -1;
  const parser = createMetadataLineParser((frame) => {
    levels.addFrame(frame);
    if (opts.onProgress && opts.durationSeconds && opts.durationSeconds > 0) {
      const f = Math.min(1, frame.time / opts.durationSeconds);
      // A report per percent is plenty; per frame would be 36 000 callbacks an hour.
      if (f - lastReported >= 0.01) {
        lastReported = f;
        opts.onProgress(f);
      }
    }
  });

  await runAnalysisProcess(buildAnalysisArgs(inputPath, graph, opts.inputOptions), graph.metadataFd, {
    signal: opts.signal,
    onSpawn: opts.onSpawn,
    onPcm: (chunk) => envelope.push(chunk),
    onMetadataLine: (line) => parser.push(line),
  });
  parser.end();
  const env = envelope.finish();

  // The PCM branch carries every decoded sample, so its length is the audio's length.
  const measured = envelope.samples / graph.sampleRate || levels.seenSeconds;
  const durationSeconds = opts.durationSeconds && opts.durationSeconds > 0 ? opts.durationSeconds : measured;
  const { loudnessLufs, rmsDb, silences } = levels.finish(durationSeconds);
  const seconds = loudnessLufs.length;
  const gated = loudnessLufs.filter((v) => v > GATE_LUFS);
  const baselineLufs = gated.length > 0 ? median(gated) : GATE_LUFS;
  const voice = deriveVoiceFeatures(env, envelope.frameSeconds, seconds, silences, opts.voice);
  opts.onProgress?.(1);

  return {
    durationSeconds,
    rmsDb,
    loudnessLufs,
    baselineLufs,
    loudnessAboveBaselineDb: loudnessLufs.map((v) => Math.max(v, GATE_LUFS) - baselineLufs),
    voiceDb: voice.voiceDb,
    voiceFloorDb: voice.voiceFloorDb,
    speechActivity: voice.speechActivity,
    speechRate: voice.speechRate,
    silences,
    quietPoints: voice.quietPoints,
  };
}

interface AnalysisProcessHandlers {
  signal?: AbortSignal;
  onSpawn?: (pid: number) => void;
  onPcm: (chunk: Buffer) => void;
  onMetadataLine: (line: string) => void;
}

/** Runs ffmpeg with PCM on stdout and metadata text on an extra pipe; rejects like runProcess does. */
function runAnalysisProcess(args: string[], metadataFd: number, h: AnalysisProcessHandlers): Promise<void> {
  const { signal } = h;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise<void>((resolve, reject) => {
    const stdio: ("ignore" | "pipe")[] = ["ignore", "pipe", "pipe"];
    while (stdio.length <= metadataFd) stdio.push("pipe");
    const child = spawn(FFMPEG_BIN, args, { stdio });
    if (child.pid !== undefined) h.onSpawn?.(child.pid);
    let stderrTail = "";
    let rest = "";
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;

    child.stdout!.on("data", (c: Buffer) => h.onPcm(c));
    child.stderr!.on("data", (c: Buffer) => {
      stderrTail = (stderrTail + c.toString("utf8")).slice(-4000);
    });
    const meta = child.stdio[metadataFd] as NodeJS.ReadableStream;
    meta.setEncoding("utf8");
    meta.on("data", (text: string) => {
      const lines = (rest + text).split("\n");
      rest = lines.pop() ?? "";
      for (const l of lines) h.onMetadataLine(l);
    });

    const onAbort = () => {
      aborted = true;
      child.kill("SIGTERM");
      killTimer = setTimeout(() => child.kill("SIGKILL"), 2000);
      killTimer.unref();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    child.on("error", (err) => {
      signal?.removeEventListener("abort", onAbort);
      reject(new ProcessError(`ffmpeg could not start: ${err.message}`, FFMPEG_BIN, args, null, null, stderrTail));
    });
    child.on("close", (code, sig) => {
      signal?.removeEventListener("abort", onAbort);
      if (killTimer) clearTimeout(killTimer);
      if (rest) h.onMetadataLine(rest);
      if (aborted && signal) return reject(abortError(signal));
      if (code !== 0) {
        const last = stderrTail.trim().split("\n").slice(-3).join(" | ");
        return reject(new ProcessError(`audio analysis failed (${sig ?? `exit ${code}`}): ${last}`, FFMPEG_BIN, args, code, sig, stderrTail));
      }
      resolve();
    });
  });
}

function abortError(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  if (r instanceof Error) return r;
  const e = new Error(typeof r === "string" ? r : "The operation was aborted");
  e.name = "AbortError";
  return e;
}
