import { highpass, kWeightingHighpass, kWeightingShelf, lowpass, type Biquad } from "./biquad";
import { powerToDb } from "./stats";

/**
 * Every audio signal of the analysis from one stream of 8 kHz mono s16le PCM, in one loop over the samples:
 *
 * - EBU R128 momentary loudness (K-weighted mean square over the last 400 ms, LUFS) every 100 ms block, as
 *   FFmpeg's `ebur128` reports it;
 * - silences (every sample's level below a threshold for at least a minimum time), as `silencedetect` finds them;
 * - a 20 ms energy envelope of the voice band (2-pole 300 Hz high-pass and 3 kHz low-pass), in dBFS.
 *
 * These used to be FFmpeg filters in the decoding pass; there they cost as much CPU as decoding the AAC itself
 * (ebur128 recomputes integrated loudness and range every 100 ms, and each filter pays per small frame), here
 * about a tenth of that. FFmpeg now only decodes and resamples.
 */
export interface PcmAnalyserOptions {
  sampleRate: number;
  silenceThresholdDb: number;
  silenceMinSeconds: number;
  /** Length of a voice envelope frame. */
  envelopeFrameSeconds?: number;
  /** A 100 ms block ended: `time` is its start, seconds from the first sample. */
  onBlock(time: number, momentaryLufs: number): void;
  onSilence(start: number, end: number): void;
}

export interface PcmAnalyser {
  push(chunk: Buffer): void;
  /** Flushes the last partial frame and an open silence; returns the voice envelope. */
  finish(): Float32Array;
  readonly envelopeFrameSeconds: number;
  /** Samples seen so far. */
  readonly samples: number;
}

/** ffmpeg's ebur128 floor for digital silence. */
const FLOOR_LUFS = -120;

// Filter state and sums between calls, in one Float64Array so the hot loop keeps everything in registers.
const S1 = 0, S2 = 1, R1 = 2, R2 = 3, P1 = 4, P2 = 5, Q1 = 6, Q2 = 7, BLOCK_SUM = 8, ENV_SUM = 9, SILENT_RUN = 10;

/** Coefficients of the four sections, flattened: K shelf, K high-pass, voice high-pass, voice low-pass. */
function flatten(sections: Biquad[]): Float64Array {
  return Float64Array.from(sections.flatMap((q) => [q.b0, q.b1, q.b2, q.a1, q.a2]));
}

/**
 * The inner loop over samples [from, to) of one block/frame: filters, sums of squares, silent-run counting.
 * No calls and no closures inside, which is what lets V8 keep it at a few ns per sample. A silence that ends
 * in here is written to `ended` as (start, end) sample offsets relative to `from`; returns how many.
 */
function filterSpan(pcm: Int16Array, from: number, to: number, st: Float64Array, c: Float64Array, silenceAmp: number, silenceMin: number, ended: Float64Array): number {
  let s1 = st[S1]!, s2 = st[S2]!, r1 = st[R1]!, r2 = st[R2]!, p1 = st[P1]!, p2 = st[P2]!, q1 = st[Q1]!, q2 = st[Q2]!;
  let bSum = st[BLOCK_SUM]!, eSum = st[ENV_SUM]!, run = st[SILENT_RUN]!;
  const sb0 = c[0]!, sb1 = c[1]!, sb2 = c[2]!, sa1 = c[3]!, sa2 = c[4]!;
  const rb0 = c[5]!, rb1 = c[6]!, rb2 = c[7]!, ra1 = c[8]!, ra2 = c[9]!;
  const hb0 = c[10]!, hb1 = c[11]!, hb2 = c[12]!, ha1 = c[13]!, ha2 = c[14]!;
  const lb0 = c[15]!, lb1 = c[16]!, lb2 = c[17]!, la1 = c[18]!, la2 = c[19]!;
  let n = 0;
  for (let i = from; i < to; i++) {
    const x = pcm[i]! / 32768;
    const y1 = sb0 * x + s1;
    s1 = sb1 * x - sa1 * y1 + s2;
    s2 = sb2 * x - sa2 * y1;
    const y2 = rb0 * y1 + r1;
    r1 = rb1 * y1 - ra1 * y2 + r2;
    r2 = rb2 * y1 - ra2 * y2;
    bSum += y2 * y2;
    const v1 = hb0 * x + p1;
    p1 = hb1 * x - ha1 * v1 + p2;
    p2 = hb2 * x - ha2 * v1;
    const v2 = lb0 * v1 + q1;
    q1 = lb1 * v1 - la1 * v2 + q2;
    q2 = lb2 * v1 - la2 * v2;
    eSum += v2 * v2;
    if ((x < 0 ? -x : x) < silenceAmp) run++;
    else {
      if (run >= silenceMin && n < ended.length / 2) {
        ended[2 * n] = i - from - run;
        ended[2 * n + 1] = i - from;
        n++;
      }
      run = 0;
    }
  }
  st[S1] = s1; st[S2] = s2; st[R1] = r1; st[R2] = r2; st[P1] = p1; st[P2] = p2; st[Q1] = q1; st[Q2] = q2;
  st[BLOCK_SUM] = bSum; st[ENV_SUM] = eSum; st[SILENT_RUN] = run;
  return n;
}


export function createPcmAnalyser(o: PcmAnalyserOptions): PcmAnalyser {
  const rate = o.sampleRate;
  const blockSamples = Math.round(rate / 10);
  const windowBlocks = 4;
  const envSamples = Math.max(1, Math.round(rate * (o.envelopeFrameSeconds ?? 0.02)));
  const silenceAmp = 10 ** (o.silenceThresholdDb / 20);
  const silenceMin = Math.ceil(o.silenceMinSeconds * rate);
  const coefficients = flatten([kWeightingShelf(rate), kWeightingHighpass(rate), highpass(300, rate), lowpass(3000, rate)]);
  const st = new Float64Array(11);
  // A span is at most one envelope frame long, and a silence lasts at least silenceMin samples.
  const ended = new Float64Array(2 * (Math.floor(envSamples / Math.max(1, silenceMin)) + 1));

  let blockFill = 0;
  let blockIndex = 0;
  const recent = new Float64Array(windowBlocks); // mean squares of the last four blocks
  let envFill = 0;
  let env = new Float32Array(4096);
  let envCount = 0;
  let samples = 0;
  let carry: number | null = null;

  const endBlock = () => {
    recent[blockIndex % windowBlocks] = st[BLOCK_SUM]! / blockSamples;
    let sum = 0;
    for (let i = 0; i < windowBlocks; i++) sum += recent[i]!;
    const mean = sum / windowBlocks;
    // Like ebur128, nothing is reported before the first 400 ms window is full.
    const full = blockIndex >= windowBlocks - 1;
    o.onBlock(blockIndex / 10, full && mean > 0 ? Math.max(FLOOR_LUFS, -0.691 + 10 * Math.log10(mean)) : FLOOR_LUFS);
    blockIndex++;
    st[BLOCK_SUM] = 0;
    blockFill = 0;
  };
  const endEnvelopeFrame = () => {
    if (envCount === env.length) {
      const grown = new Float32Array(env.length * 2);
      grown.set(env);
      env = grown;
    }
    env[envCount++] = powerToDb(st[ENV_SUM]! / envFill);
    st[ENV_SUM] = 0;
    envFill = 0;
  };

  const run = (pcm: Int16Array) => {
    let i = 0;
    while (i < pcm.length) {
      // Up to the next block or envelope-frame boundary, whichever comes first.
      const to = Math.min(pcm.length, i + Math.min(blockSamples - blockFill, envSamples - envFill));
      const n = filterSpan(pcm, i, to, st, coefficients, silenceAmp, silenceMin, ended);
      for (let k = 0; k < n; k++) o.onSilence((samples + i + ended[2 * k]!) / rate, (samples + i + ended[2 * k + 1]!) / rate);
      blockFill += to - i;
      envFill += to - i;
      i = to;
      if (envFill === envSamples) endEnvelopeFrame();
      if (blockFill === blockSamples) endBlock();
    }
    samples += pcm.length;
  };

  return {
    envelopeFrameSeconds: envSamples / rate,
    get samples() {
      return samples;
    },
    push(chunk) {
      let i = 0;
      if (carry !== null && chunk.length > 0) {
        run(Int16Array.of(((chunk[0]! << 8) | carry) << 16 >> 16));
        carry = null;
        i = 1;
      }
      const end = chunk.length - ((chunk.length - i) % 2);
      const n = (end - i) / 2;
      if (n > 0) {
        // An Int16Array view needs 2-byte alignment; pooled pipe chunks are not always aligned, so copy then.
        const aligned = (chunk.byteOffset + i) % 2 === 0;
        run(aligned ? new Int16Array(chunk.buffer, chunk.byteOffset + i, n) : new Int16Array(new Uint8Array(chunk.subarray(i, end)).buffer, 0, n));
      }
      if (end < chunk.length) carry = chunk[end]!;
    },
    finish() {
      if (envFill > 0) endEnvelopeFrame();
      // A trailing partial block is not reported, as ebur128 reports only whole 100 ms blocks.
      const silentRun = st[SILENT_RUN]!;
      if (silentRun >= silenceMin) o.onSilence((samples - silentRun) / rate, samples / rate);
      st[SILENT_RUN] = 0;
      return env.slice(0, envCount);
    },
  };
}
