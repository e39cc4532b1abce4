/**
 * The FFmpeg side of audio analysis: decode and resample to 8 kHz mono s16le PCM on stdout, nothing else.
 * Speech and loudness differences live well below 4 kHz, and every signal is computed in Node from this
 * stream (pcm-analyser.ts).
 *
 * Cost on a 3-hour audio-only rendition (one core, this machine): decoding AAC alone 5.2 s; decode + resample
 * 6.0 s. The earlier graph that also ran ebur128, silencedetect and the voice band-pass in FFmpeg took 12.0 s:
 * ebur128 recomputes integrated loudness and loudness range every 100 ms, and the biquads pay per small frame.
 * The short resampling filter (8 taps instead of 32) saves another 2 s: analysis needs no brick-wall
 * anti-alias filter.
 */
export interface AnalysisGraphOptions {
  sampleRate: number;
  /** Taps of the resampler's low-pass; ffmpeg's default is 32. */
  resampleFilterSize: number;
  silenceThresholdDb: number;
  silenceMinSeconds: number;
  /**
   * Analyse only this part of the input, on its own timestamps (with `-copyts`, absolute PTS seconds). For
   * inputs that cannot seek, such as segments piped in while they download.
   */
  trim?: { start: number; duration: number };
}

export const DEFAULT_ANALYSIS_GRAPH: AnalysisGraphOptions = {
  sampleRate: 8000,
  resampleFilterSize: 8,
  silenceThresholdDb: -45,
  silenceMinSeconds: 0.3,
};

/** `inputOptions` go before `-i` (e.g. HTTP headers, or `-stream_loop` for benchmarks). */
export function buildAnalysisArgs(inputPath: string, o: AnalysisGraphOptions = DEFAULT_ANALYSIS_GRAPH, inputOptions: readonly string[] = []): string[] {
  const trim = o.trim ? `atrim=start=${o.trim.start.toFixed(6)}:duration=${o.trim.duration.toFixed(6)},asetpts=PTS-STARTPTS,` : "";
  return [
    "-hide_banner",
    "-nostdin",
    "-nostats",
    "-loglevel",
    "error",
    "-vn",
    "-sn",
    "-dn",
    ...inputOptions,
    "-i",
    inputPath,
    "-map",
    "0:a:0",
    "-af",
    `${trim}aresample=${o.sampleRate}:filter_size=${o.resampleFilterSize},aformat=sample_fmts=s16:channel_layouts=mono`,
    "-c:a",
    "pcm_s16le",
    "-f",
    "s16le",
    // Without this every decoded frame is its own small write, and the reading Node process pays per write.
    "-flush_packets",
    "0",
    "pipe:1",
  ];
}
