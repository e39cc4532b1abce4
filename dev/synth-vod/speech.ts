import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { exists, hashOf } from "./cache-dir";
import { run } from "./exec";

export const SAMPLE_RATE = 48_000;

export type SpeechStyle = "calm" | "excited";

const ESPEAK_ARGS: Record<SpeechStyle, string[]> = {
  calm: ["-v", "en-us", "-s", "165", "-p", "45"],
  // Shouting: faster, higher, at full amplitude.
  excited: ["-v", "en-us", "-s", "195", "-p", "75", "-a", "200"],
};

export interface SpeechClip {
  text: string;
  style: SpeechStyle;
  /** Mono samples at SAMPLE_RATE, leading/trailing silence removed, not yet levelled. */
  samples: Float32Array;
  duration: number;
}

function trimSilence(samples: Float32Array): Float32Array {
  const threshold = 0.01;
  let start = 0;
  let end = samples.length;
  while (start < end && Math.abs(samples[start]!) < threshold) start++;
  while (end > start && Math.abs(samples[end - 1]!) < threshold) end--;
  return samples.subarray(start, end);
}

/** espeak-ng speaks the sentence; sox resamples it to the track's rate. Cached per text and style. */
export async function synthesizeSpeech(text: string, style: SpeechStyle, cacheDir: string): Promise<SpeechClip> {
  const file = path.join(cacheDir, "speech-repeatable", `${style}-${hashOf(text)}.s16`);
  let raw: Buffer;
  if (await exists(file)) {
    raw = await readFile(file);
  } else {
    const wav = await run("espeak-ng", [...ESPEAK_ARGS[style], "--stdout", text]);
    raw = await run("sox", ["-R", "-t", "wav", "-", "-t", "raw", "-e", "signed", "-b", "16", "-c", "1", "-r", String(SAMPLE_RATE), "-"], {
      stdin: wav,
    });
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, raw);
    await rename(tmp, file);
  }
  const ints = new Int16Array(raw.buffer, raw.byteOffset, Math.floor(raw.length / 2));
  const floats = new Float32Array(ints.length);
  for (let i = 0; i < ints.length; i++) floats[i] = ints[i]! / 32768;
  const samples = trimSilence(floats);
  return { text, style, samples, duration: samples.length / SAMPLE_RATE };
}
