/**
 * The single ffmpeg pass behind audio analysis. Everything runs on 8 kHz mono: speech and loudness
 * differences live well below 4 kHz and the pass becomes ~6x cheaper than at 48 kHz (ebur128's K-weighting
 * is computed for the actual rate, so momentary loudness stays meaningful relative to the stream's own level).
 *
 *   [0:a] -> 8 kHz mono -> ebur128 (100 ms frames + momentary loudness) -> silencedetect -> split
 *        -> astats per frame (RMS) -> ametadata print to fd 3          (text, 10 lines per second)
 *        -> 300-3000 Hz band-pass -> s16le PCM on stdout                (16 KB per second, enveloped in Node)
 */
export interface AnalysisGraphOptions {
  sampleRate: number;
  silenceThresholdDb: number;
  silenceMinSeconds: number;
  /** File descriptor the metadata text is printed to. */
  metadataFd: number;
}

export const DEFAULT_ANALYSIS_GRAPH: AnalysisGraphOptions = {
  sampleRate: 8000,
  silenceThresholdDb: -45,
  silenceMinSeconds: 0.3,
  metadataFd: 3,
};

/** `inputOptions` go before `-i` (e.g. HTTP headers, or `-stream_loop` for benchmarks). */
export function buildAnalysisArgs(inputPath: string, o: AnalysisGraphOptions = DEFAULT_ANALYSIS_GRAPH, inputOptions: readonly string[] = []): string[] {
  const graph = [
    `[0:a:0]aresample=${o.sampleRate},aformat=sample_fmts=flt:channel_layouts=mono,`,
    `ebur128=metadata=1,silencedetect=n=${o.silenceThresholdDb}dB:d=${o.silenceMinSeconds},asplit[lv][vb];`,
    // `\\:` survives both the graph and the option parser as a literal ':' in the pipe URL.
    `[lv]astats=metadata=1:reset=1:measure_perchannel=RMS_level:measure_overall=none,`,
    `ametadata=mode=print:file='pipe\\:${o.metadataFd}'[meta];`,
    `[vb]highpass=f=300,lowpass=f=3000[voice]`,
  ].join("");
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
    "pipe:1",
  ];
}
