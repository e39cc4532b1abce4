/**
 * Cuts a PCM wav into standalone wavs of at most `maxSeconds` each, for speech APIs that take a limited amount of
 * audio per request (the Worker's Workers AI route: 120 s; OpenAI: 25 MB). Each cut is placed at the quietest
 * moment of the last `searchSeconds` before the limit, so a word is not split between two requests; every chunk
 * says where it starts, and words it returns are moved back by that much onto the whole wav's clock.
 */

export interface PcmWav {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** The sample data (the "data" chunk). */
  data: Uint8Array;
}

export interface WavChunk {
  /** Where the chunk starts in the whole wav, seconds. */
  offsetSeconds: number;
  durationSeconds: number;
  /** A complete wav file of its own. */
  bytes: Uint8Array;
}

const ascii = (b: Uint8Array, at: number) => String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);

/** Reads an uncompressed PCM wav (RIFF/WAVE, format 1); throws on anything else. */
export function parsePcmWav(file: Uint8Array): PcmWav {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  if (file.byteLength < 12 || ascii(file, 0) !== "RIFF" || ascii(file, 8) !== "WAVE") throw new Error("not a RIFF/WAVE file");
  let fmt: Omit<PcmWav, "data"> | null = null;
  for (let at = 12; at + 8 <= file.byteLength; ) {
    const id = ascii(file, at);
    const size = view.getUint32(at + 4, true);
    if (id === "fmt ") {
      if (view.getUint16(at + 8, true) !== 1) throw new Error("the wav is not uncompressed PCM");
      fmt = { channels: view.getUint16(at + 10, true), sampleRate: view.getUint32(at + 12, true), bitsPerSample: view.getUint16(at + 22, true) };
    } else if (id === "data") {
      if (!fmt) throw new Error("the wav has its data before its format");
      // FFmpeg writing to a pipe leaves the size unset (0xFFFFFFFF): the data then runs to the end of the file.
      const end = size === 0xffffffff ? file.byteLength : Math.min(file.byteLength, at + 8 + size);
      return { ...fmt, data: file.subarray(at + 8, end) };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error("the wav has no data chunk");
}

/** A 44-byte header and the given samples: a wav file of its own. */
export function pcmWavFile(wav: Omit<PcmWav, "data">, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(44 + data.byteLength);
  const view = new DataView(out.buffer);
  const write = (at: number, s: string) => [...s].forEach((c, i) => (out[at + i] = c.charCodeAt(0)));
  const blockAlign = (wav.channels * wav.bitsPerSample) / 8;
  write(0, "RIFF");
  view.setUint32(4, 36 + data.byteLength, true);
  write(8, "WAVE");
  write(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, wav.channels, true);
  view.setUint32(24, wav.sampleRate, true);
  view.setUint32(28, wav.sampleRate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, wav.bitsPerSample, true);
  write(36, "data");
  view.setUint32(40, data.byteLength, true);
  out.set(data, 44);
  return out;
}

/** The wav with `seconds` of silence before its first sample (a whole number of samples, rounded). */
export function delayedWavFile(file: Uint8Array, seconds: number): Uint8Array {
  const wav = parsePcmWav(file);
  const blockAlign = (wav.channels * wav.bitsPerSample) / 8;
  const silence = Math.round(seconds * wav.sampleRate) * blockAlign;
  const data = new Uint8Array(silence + wav.data.byteLength);
  data.set(wav.data, silence);
  return pcmWavFile(wav, data);
}

/** Energy frames for finding a quiet cut: 50 ms. */
const FRAME_SECONDS = 0.05;

/** Index (in frames, from `from`) of the quietest frame in [from, to) frames of 16-bit samples. */
function quietestFrame(wav: PcmWav, fromFrame: number, toFrame: number, frameBytes: number): number {
  const view = new DataView(wav.data.buffer, wav.data.byteOffset, wav.data.byteLength);
  let best = fromFrame;
  let bestEnergy = Infinity;
  for (let f = fromFrame; f < toFrame; f++) {
    let energy = 0;
    for (let at = f * frameBytes; at + 1 < (f + 1) * frameBytes; at += 2) energy += view.getInt16(at, true) ** 2;
    // Ties go to the later frame: chunks stay as long as the limit allows.
    if (energy <= bestEnergy) {
      best = f;
      bestEnergy = energy;
    }
  }
  return best;
}

/** The wav as chunks of at most `maxSeconds`; one chunk (the file as it is) when it is short enough. */
export function splitWav(file: Uint8Array, maxSeconds: number, searchSeconds = 10): WavChunk[] {
  const wav = parsePcmWav(file);
  if (wav.bitsPerSample !== 16) throw new Error(`the wav has ${wav.bitsPerSample}-bit samples; 16-bit expected`);
  const blockAlign = wav.channels * 2;
  const frameBytes = Math.max(blockAlign, Math.round(wav.sampleRate * FRAME_SECONDS) * blockAlign);
  const totalFrames = Math.ceil(wav.data.byteLength / frameBytes);
  const maxFrames = Math.floor(maxSeconds / FRAME_SECONDS);
  const searchFrames = Math.min(maxFrames - 1, Math.round(searchSeconds / FRAME_SECONDS));
  const secondsOf = (bytes: number) => bytes / blockAlign / wav.sampleRate;
  if (totalFrames <= maxFrames) return [{ offsetSeconds: 0, durationSeconds: secondsOf(wav.data.byteLength), bytes: file }];

  const chunks: WavChunk[] = [];
  let start = 0;
  while (start < totalFrames) {
    let end = totalFrames;
    if (totalFrames - start > maxFrames) {
      // Cut in the middle of the quietest frame of the search window: never beyond the limit, always forward.
      end = quietestFrame(wav, start + maxFrames - searchFrames, start + maxFrames, frameBytes) + 1;
    }
    const data = wav.data.subarray(start * frameBytes, Math.min(wav.data.byteLength, end * frameBytes));
    chunks.push({ offsetSeconds: secondsOf(start * frameBytes), durationSeconds: secondsOf(data.byteLength), bytes: pcmWavFile(wav, data) });
    start = end;
  }
  return chunks;
}
