import { closeSync, openSync, writeSync } from "node:fs";
import { ProcessError, runProcess, type RunProcessOptions } from "../ffmpeg/process";
import { FFMPEG_BIN } from "../ffmpeg/run-ffmpeg";
import { buildAnalysisArgs, DEFAULT_ANALYSIS_GRAPH, type AnalysisGraphOptions } from "./analysis-filtergraph";
import { createPcmAnalyser } from "./pcm-analyser";
import { createPerSecondLevels } from "./per-second";
import { aboveBaseline, GATE_LUFS, loudnessBaseline } from "./local-baseline";
import type { AudioAnalysis } from "./types";
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
  /** Writes the input to ffmpeg's stdin (input path `pipe:0`), e.g. segments as they download. */
  feedStdin?: RunProcessOptions["feedStdin"];
  /** Called with the ffmpeg process id once it runs (benchmarks sample its memory). */
  onSpawn?: (pid: number) => void;
  /**
   * Keeps the decoded 8 kHz PCM in this file (s16le, the samples the signals were computed from), `startSeconds`
   * being the VOD time of its first sample: the voice-activity model reads its candidate stretches from it
   * later without decoding the audio again (16 KB per second of audio: 345 MB for 6 hours, on disk).
   */
  keepPcm?: { file: string; startSeconds: number };
}

export { GATE_LUFS } from "./local-baseline";

/**
 * Analyses the audio of a file or playlist: one ffmpeg pass decodes it to 8 kHz PCM (analysis-filtergraph.ts),
 * pcm-analyser.ts turns the samples into signals as they arrive, folded to per-second values: memory stays at
 * a few numbers per second.
 */
export async function analyzeAudio(inputPath: string, opts: AnalyzeAudioOptions = {}): Promise<AudioAnalysis> {
  const graph = { ...DEFAULT_ANALYSIS_GRAPH, ...opts.graph };
  const levels = createPerSecondLevels();
  const progressEvery = opts.onProgress && opts.durationSeconds && opts.durationSeconds > 0 ? Math.max(1, Math.round(opts.durationSeconds / 10)) : 0;
  let blocks = 0;
  const pcm = createPcmAnalyser({
    sampleRate: graph.sampleRate,
    silenceThresholdDb: graph.silenceThresholdDb,
    silenceMinSeconds: graph.silenceMinSeconds,
    onBlock: (time, momentary) => {
      levels.addBlock(time, momentary);
      // A report per percent of the audio (duration / 10 blocks); per block would be 36 000 calls an hour.
      if (progressEvery > 0 && ++blocks % progressEvery === 0) opts.onProgress!(Math.min(1, (time + 0.1) / opts.durationSeconds!));
    },
    onSilence: (start, end) => levels.addSilence(start, end),
  });

  // Synchronous writes: ~16 KB per audio second, far below what the disk takes, and no backpressure to manage.
  const kept = opts.keepPcm ? openSync(opts.keepPcm.file, "w") : null;
  try {
    await runProcess(FFMPEG_BIN, buildAnalysisArgs(inputPath, graph, opts.inputOptions), {
      signal: opts.signal,
      onSpawn: opts.onSpawn,
      feedStdin: opts.feedStdin,
      onStdoutData: (chunk) => {
        pcm.push(chunk);
        if (kept !== null) writeSync(kept, chunk);
      },
    });
  } catch (err) {
    if (err instanceof ProcessError) {
      const last = err.stderrTail.trim().split("\n").slice(-3).join(" | ");
      throw new ProcessError(`audio analysis failed (${err.exitSignal ?? `exit ${err.exitCode}`}): ${last}`, err.command, err.args, err.exitCode, err.exitSignal, err.stderrTail);
    }
    throw err;
  } finally {
    if (kept !== null) closeSync(kept);
  }
  const env = pcm.finish();

  // Every decoded sample reaches the analyser, so its count is the audio's length.
  const measured = pcm.samples / graph.sampleRate || levels.seenSeconds;
  const durationSeconds = opts.durationSeconds && opts.durationSeconds > 0 ? opts.durationSeconds : measured;
  const { loudnessLufs, silences } = levels.finish(durationSeconds);
  const seconds = loudnessLufs.length;
  const baseline = loudnessBaseline(loudnessLufs, GATE_LUFS);
  const voice = deriveVoiceFeatures(env, pcm.envelopeFrameSeconds, seconds, silences, opts.voice);
  opts.onProgress?.(1);

  return {
    durationSeconds,
    loudnessLufs,
    baselineLufs: baseline.overallLufs,
    loudnessAboveBaselineDb: aboveBaseline(loudnessLufs, baseline, GATE_LUFS),
    voiceDb: voice.voiceDb,
    voiceFloorDb: voice.voiceFloorDb,
    speechActivity: voice.speechActivity,
    speechRate: voice.speechRate,
    silences,
    quietPoints: voice.quietPoints,
    pauses: voice.pauses,
    ...(opts.keepPcm ? { pcm: [{ file: opts.keepPcm.file, start: opts.keepPcm.startSeconds, sampleRate: graph.sampleRate, samples: pcm.samples }] } : {}),
  };
}
