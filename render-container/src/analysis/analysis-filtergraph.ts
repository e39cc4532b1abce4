/**
 * The single ffmpeg pass behind audio analysis. Everything runs on 8 kHz mono: speech and loudness
 * differences live well below 4 kHz and the pass becomes ~6x cheaper than at 48 kHz (ebur128's K-weighting
 * is computed for the actual rate, so momentary loudness stays meaningful relative to the stream's own level).
 *
 *   [0:a] -> 8 kHz mono -> ebur128 (100 ms frames + momentary loudness) -> silencedetect -> split
 *        -> ametadata print of lavfi.r128.M only to fd 3    (text, 2 lines per 100 ms frame)
 *        -> 300-3000 Hz band-pass -> s16le PCM on stdout     (16 KB per second, enveloped in Node)
 *
 * Cost on a 3-hour audio-only rendition (one core): decoding AAC alone 7.3 s; the former graph with per-frame
 * astats and every ebur128 key printed 20.9 s; this one about 13.5 s. What made the difference: astats with
 * reset per frame (+5 s; its RMS was not used by selection), printing one key instead of six (-0.7 s plus far
 * less text for Node to parse) and a short resampling filter (-2 s; analysis does not need a brick-wall
 * anti-alias filter). The metadata goes to its own pipe because ffmpeg writes a file in buffered blocks but
 * the log one line at a time (as stderr it cost the reading Node process 2.4 s of system time per 3 hours);
 * silencedetect's few marks are read from the log at level info.
 */
export interface AnalysisGraphOptions {
  sampleRate: number;
  /** Taps of the resampler's low-pass; ffmpeg's default is 32. */
  resampleFilterSize: number;
  silenceThresholdDb: number;
  silenceMinSeconds: number;
  /** File descriptor the metadata text is printed to. */
  metadataFd: number;
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
  metadataFd: 3,
};

/** `inputOptions` go before `-i` (e.g. HTTP headers, or `-stream_loop` for benchmarks). */
export function buildAnalysisArgs(inputPath: string, o: AnalysisGraphOptions = DEFAULT_ANALYSIS_GRAPH, inputOptions: readonly string[] = []): string[] {
  const trim = o.trim ? `atrim=start=${o.trim.start.toFixed(6)}:duration=${o.trim.duration.toFixed(6)},asetpts=PTS-STARTPTS,` : "";
  const graph = [
    `[0:a:0]${trim}aresample=${o.sampleRate}:filter_size=${o.resampleFilterSize},aformat=sample_fmts=flt:channel_layouts=mono,`,
    `ebur128=metadata=1,silencedetect=n=${o.silenceThresholdDb}dB:d=${o.silenceMinSeconds},asplit[lv][vb];`,
    // `\\:` survives both the graph and the option parser as a literal ':' in the pipe URL.
    `[lv]ametadata=mode=print:key=lavfi.r128.M:file='pipe\\:${o.metadataFd}'[meta];`,
    `[vb]highpass=f=300,lowpass=f=3000[voice]`,
  ].join("");
  return [
    "-hide_banner",
    "-nostdin",
    "-nostats",
    "-loglevel",
    "info",
    "-vn",
    "-sn",
    "-dn",
    ...inputOptions,
    "-i",
    inputPath,
    "-filter_complex",
    graph,
    "-map",
    "[meta]",
    "-f",
    "null",
    "-",
    "-map",
    "[voice]",
    "-c:a",
    "pcm_s16le",
    "-f",
    "s16le",
    // Without this every 100 ms frame is its own 1.6 KB write, and the reading Node process pays per write.
    "-flush_packets",
    "0",
    "pipe:1",
  ];
}
