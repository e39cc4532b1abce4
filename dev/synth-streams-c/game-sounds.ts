import type { GameSoundKind } from "../synth-streams-b/game-sounds";
import { SAMPLE_RATE, soxSound, type Sound } from "../synth-streams-b/sox-clip";
import type { Random } from "../synth-vod/random";

/**
 * Source c's game audio, built from other recipes than source b's: an impact is a falling sine boom under a
 * burst of crackle (a spell or a boss slam), "gunfire" is a string of magic bolts or arrows (falling chirps or
 * dry clicks), a sting is a held brass-like fanfare with vibrato or a two-tone alarm, the music is a fast
 * arpeggio over a pad and a bass (notes change every 16th, unlike source b's held chords), and the ambience is
 * rain with a low hum.
 */
const f = (x: number, d = 0) => x.toFixed(d);

export function impact(rng: Random, cacheRoot: string): Promise<Sound> {
  const d = rng.range(1.2, 3);
  return soxSound(
    {
      channels: 2,
      effects: [
        "synth", f(d, 2), "sine", `${f(rng.range(90, 160))}-${f(rng.range(25, 45))}`, rng.pick(["whitenoise", "pinknoise"]),
        "remix", "1v0.8,2v0.5", "overdrive", f(rng.range(2, 10)), "lowpass", f(rng.range(3000, 8000)),
        "fade", "q", "0.003", f(d, 2), f(d * 0.85, 2), "reverb", f(rng.range(10, 50)), "trim", "0", f(d + 0.6, 2), "gain", "-n", "-1",
      ],
    },
    cacheRoot,
  );
}

export function gunfire(rng: Random, cacheRoot: string): Promise<Sound> {
  const bolt = rng.next() < 0.5;
  const shot = bolt ? rng.range(0.08, 0.16) : rng.range(0.015, 0.03);
  const source = bolt ? ["sine", `${f(rng.range(1800, 3200))}-${f(rng.range(200, 500))}`] : ["brownnoise"];
  return soxSound(
    {
      effects: [
        "synth", f(shot, 3), ...source,
        ...(bolt ? [] : ["highpass", f(rng.range(800, 2000))]),
        "fade", "l", "0", f(shot, 3), f(shot * 0.9, 3),
        "pad", "0", f(rng.range(0.05, 0.25), 3), "repeat", String(rng.int(5, 18)),
        "reverb", f(rng.range(5, 40)), "gain", "-n", "-1",
      ],
    },
    cacheRoot,
  );
}

const ROOTS = [261.63, 293.66, 329.63, 392];

export function sting(rng: Random, cacheRoot: string): Promise<Sound> {
  const d = rng.range(1.5, 3);
  if (rng.next() < 0.4) {
    const lo = rng.range(500, 800);
    return soxSound(
      { effects: ["synth", "0.3", "square", f(lo), "synth", "0.3", "square", "amod", f(lo * 1.33), "pad", "0", "0.3", "repeat", String(Math.round(d / 0.6)), "lowpass", "4000", "gain", "-n", "-2"] },
      cacheRoot,
    );
  }
  const root = rng.pick(ROOTS);
  return soxSound(
    {
      channels: 3,
      effects: [
        "synth", f(d, 2), ...[1, 1.25, 1.5].flatMap((r) => ["sawtooth", f(root * r, 2)]),
        "remix", "-", "lowpass", f(rng.range(1500, 3500)), "tremolo", f(rng.range(5, 7), 1), "25",
        "fade", "0.08", f(d, 2), f(d * 0.4, 2), "reverb", f(rng.range(30, 70)), "trim", "0", f(d + 0.8, 2), "gain", "-n", "-3",
      ],
    },
    cacheRoot,
  );
}

export function gameSound(kind: GameSoundKind, rng: Random, cacheRoot: string): Promise<Sound> {
  return kind === "impact" ? impact(rng, cacheRoot) : kind === "gunfire" ? gunfire(rng, cacheRoot) : sting(rng, cacheRoot);
}

/** Two bars of sixteenth-note arpeggio over a pad and a bass, at 100-135 bpm, looped. */
export async function musicLoop(rng: Random, cacheRoot: string): Promise<Sound> {
  const bpm = rng.int(100, 135);
  const sixteenth = 60 / bpm / 4;
  const root = rng.pick([220, 246.94, 261.63, 293.66]);
  const scale = [1, 1.189, 1.335, 1.498, 1.782, 2];
  const pattern = Array.from({ length: 32 }, () => rng.pick(scale));
  const wave = rng.pick(["square", "triangle", "pluck"]);
  const notes = await Promise.all(
    [...new Set(pattern)].map(async (r) => [r, await soxSound({ effects: ["synth", f(sixteenth * 0.9, 3), wave, f(root * r, 2), "fade", "l", "0.005", f(sixteenth * 0.9, 3), f(sixteenth * 0.5, 3), "gain", "-n", "-8"] }, cacheRoot)] as const),
  );
  const noteOf = new Map(notes);
  const length = 32 * sixteenth;
  const pad = await soxSound({ channels: 2, effects: ["synth", f(length, 3), "sine", f(root / 2, 2), "sine", f((root * 1.498) / 2, 2), "remix", "-", "fade", "0.3", f(length, 3), "0.3", "gain", "-n", "-12"] }, cacheRoot);
  const bass = await soxSound({ effects: ["synth", f(sixteenth * 3, 3), "sawtooth", f(root / 4, 2), "lowpass", "400", "fade", "l", "0", f(sixteenth * 3, 3), f(sixteenth * 2, 3), "gain", "-n", "-6"] }, cacheRoot);
  const out = new Float32Array(Math.round(length * SAMPLE_RATE));
  const add = (s: Sound, at: number, g: number) => {
    const from = Math.round(at * SAMPLE_RATE);
    for (let i = 0; i < s.samples.length && from + i < out.length; i++) out[from + i]! += g * s.samples[i]!;
  };
  add(pad, 0, 1);
  pattern.forEach((r, i) => add(noteOf.get(r)!, i * sixteenth, 1));
  for (let beat = 0; beat < 8; beat++) add(bass, beat * 4 * sixteenth, 0.9);
  return { samples: out, duration: length };
}

/** Rain (band-passed noise with a slow swell) and a low hum: 20 s to be looped. */
export async function ambienceLoop(rng: Random, cacheRoot: string): Promise<Sound> {
  return soxSound(
    {
      channels: 2,
      effects: ["synth", "20", "whitenoise", "sine", f(rng.range(50, 70)), "remix", "1v0.7,2v0.3", "sinc", "-n", "64", f(rng.range(600, 1200)) + "-" + f(rng.range(3000, 6000)), "tremolo", f(rng.range(0.05, 0.2), 2), "30", "fade", "0.5", "20", "0.5", "gain", "-n", "-3"],
    },
    cacheRoot,
  );
}
