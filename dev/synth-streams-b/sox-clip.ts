import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { exists, hashOf } from "../synth-vod/cache-dir";
import { run } from "../synth-vod/exec";

export const SAMPLE_RATE = 48_000;

/** A mono sound at SAMPLE_RATE, floats in -1..1. */
export interface Sound {
  samples: Float32Array;
  duration: number;
}

/**
 * sox from nothing (`-n`, i.e. its `synth` effect) to raw samples: `channels` > 1 lets a recipe play several
 * tones at once (a chord), mixed down to mono at the end.
 */
export interface SoxRecipe {
  channels?: number;
  effects: string[];
}

/** espeak-ng speaking `text`, then sox effects on the voice (pitch, tempo, overdrive for a shout). */
export interface SpeechRecipe {
  espeak: string[];
  text: string;
  effects: string[];
}

function toSound(raw: Buffer): Sound {
  const ints = new Int16Array(raw.buffer, raw.byteOffset, Math.floor(raw.length / 2));
  const samples = new Float32Array(ints.length);
  for (let i = 0; i < ints.length; i++) samples[i] = ints[i]! / 32768;
  return { samples, duration: samples.length / SAMPLE_RATE };
}

/**
 * sox's `-R`: its noise generators (`synth ... whitenoise`, `brownnoise`) and the dither it adds to 16-bit output
 * after effects are seeded with a fixed number. Without it every machine draws other noise: the same recipe made a
 * different gunfire on a fresh machine (its loudness over calm talk 5.7 dB there, over 6 dB where the tests were
 * written), so fixtures, evaluation streams and their figures were not the same from one clone to the next.
 */
export const REPEATABLE = ["-R"];

export const RAW_OUT = ["-c", "1", "-r", String(SAMPLE_RATE), "-b", "16", "-e", "signed", "-t", "raw", "-"];

/** Kept by recipe under `<cacheRoot>/synth-streams-b/clips`: a stream re-generated reuses every sound. */
export async function cached(cacheRoot: string, key: unknown, make: () => Promise<Buffer>): Promise<Sound> {
  const file = path.join(cacheRoot, "synth-streams-b", "clips-repeatable", `${hashOf(key)}.s16`);
  if (await exists(file)) return toSound(await readFile(file));
  const raw = await make();
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(tmp, raw);
  await rename(tmp, file);
  return toSound(raw);
}

export function soxSound(recipe: SoxRecipe, cacheRoot: string): Promise<Sound> {
  const channels = recipe.channels ?? 1;
  return cached(cacheRoot, { sox: recipe }, () =>
    run("sox", [...REPEATABLE, "-n", "-c", String(channels), ...RAW_OUT, ...recipe.effects]),
  );
}

export function speechSound(recipe: SpeechRecipe, cacheRoot: string): Promise<Sound> {
  return cached(cacheRoot, { speech: recipe }, async () => {
    const wav = await run("espeak-ng", [...recipe.espeak, "--stdout", recipe.text]);
    // espeak-ng leaves silence around the words; `silence` trims it so sentence times in truth are the voice's.
    return run("sox", [...REPEATABLE, "-t", "wav", "-", ...RAW_OUT, ...recipe.effects, "silence", "1", "0.02", "0.5%", "reverse", "silence", "1", "0.02", "0.5%", "reverse"], { stdin: wav });
  });
}

export function rmsOf(samples: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
  return Math.sqrt(sum / Math.max(1, samples.length));
}

/** The gain that brings a sound's RMS to `db` dBFS. */
export function gainFor(sound: Sound, db: number): number {
  return 10 ** (db / 20) / Math.max(1e-5, rmsOf(sound.samples));
}
