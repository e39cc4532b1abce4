import { powerToDb } from "./stats";

/**
 * Turns a stream of signed 16-bit little-endian mono PCM (the voice-band branch of the analysis pass) into a
 * short-frame energy envelope in dBFS. Chunks may split a sample; the odd byte is carried over.
 */
export interface VoiceEnvelopeBuilder {
  push(chunk: Buffer): void;
  /** The envelope, one dBFS value per frame; flushes a trailing partial frame. */
  finish(): Float32Array;
  readonly frameSeconds: number;
  /** Samples seen so far. */
  readonly samples: number;
}

export function createVoiceEnvelopeBuilder(sampleRate: number, frameSeconds = 0.02): VoiceEnvelopeBuilder {
  const frameSamples = Math.max(1, Math.round(sampleRate * frameSeconds));
  let out = new Float32Array(4096);
  let count = 0;
  let sumSq = 0;
  let inFrame = 0;
  let carry: number | null = null;
  let samples = 0;

  const emit = () => {
    if (count === out.length) {
      const grown = new Float32Array(out.length * 2);
      grown.set(out);
      out = grown;
    }
    out[count++] = powerToDb(sumSq / inFrame);
    sumSq = 0;
    inFrame = 0;
  };
  const addSample = (s: number) => {
    const x = s / 32768;
    sumSq += x * x;
    if (++inFrame === frameSamples) emit();
  };

  return {
    frameSeconds: frameSamples / sampleRate,
    get samples() {
      return samples;
    },
    push(chunk) {
      let i = 0;
      if (carry !== null && chunk.length > 0) {
        samples++;
        addSample(((chunk[0]! << 8) | carry) << 16 >> 16);
        carry = null;
        i = 1;
      }
      const end = chunk.length - ((chunk.length - i) % 2);
      const n = (end - i) / 2;
      samples += n;
      if (n > 0) {
        // An Int16Array view needs 2-byte alignment; pooled pipe chunks are not always aligned, so copy then.
        const aligned = (chunk.byteOffset + i) % 2 === 0;
        const samples = aligned
          ? new Int16Array(chunk.buffer, chunk.byteOffset + i, n)
          : new Int16Array(new Uint8Array(chunk.subarray(i, end)).buffer, 0, n);
        for (let k = 0; k < n; k++) {
          const x = samples[k]! / 32768;
          sumSq += x * x;
          if (++inFrame === frameSamples) emit();
        }
      }
      if (end < chunk.length) carry = chunk[end]!;
    },
    finish() {
      if (inFrame > 0) emit();
      return out.slice(0, count);
    },
  };
}
