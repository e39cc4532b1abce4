import type { Random } from "../synth-vod/random";
import { SAMPLE_RATE, soxSound, type Sound } from "./sox-clip";

/**
 * Game audio with real spectral content, made by sox: explosions and impacts (low-passed noise, overdriven, with a
 * decaying tail and a room), gunfire (bursts of short broadband transients), music stings (a chord arpeggio,
 * a victory jingle), a music bed (chords with a kick and hi-hat) and a game's ambience (rumble and wind).
 * Each stream draws its own parameters, so its sounds are not another stream's.
 */
export type GameSoundKind = "impact" | "gunfire" | "sting";

const f = (x: number, d = 0) => x.toFixed(d);

export function impact(rng: Random, cacheRoot: string): Promise<Sound> {
  const d = rng.range(1.8, 3.5);
  return soxSound(
    {
      effects: [
        "synth", f(d, 2), rng.pick(["brownnoise", "pinknoise"]),
        "lowpass", f(rng.range(700, 2500)), "overdrive", f(rng.range(6, 18)),
        "fade", "l", "0.004", f(d, 2), f(d - 0.05, 2),
        "reverb", f(rng.range(20, 70)), "trim", "0", f(d + 1, 2), "gain", "-n", "-1",
      ],
    },
    cacheRoot,
  );
}

export function gunfire(rng: Random, cacheRoot: string): Promise<Sound> {
  const shot = rng.range(0.04, 0.09);
  return soxSound(
    {
      effects: [
        "synth", f(shot, 3), rng.pick(["whitenoise", "pinknoise"]),
        "highpass", f(rng.range(150, 600)), "lowpass", f(rng.range(3500, 9000)), "overdrive", f(rng.range(4, 12)),
        "fade", "l", "0", f(shot, 3), f(shot * 0.95, 3),
        "pad", "0", f(rng.range(0.03, 0.12), 3), "repeat", String(rng.int(8, 28)),
        "reverb", f(rng.range(15, 50)), "gain", "-n", "-1",
      ],
    },
    cacheRoot,
  );
}

const ROOTS = [349.23, 392, 440, 523.25, 587.33];

export function sting(rng: Random, cacheRoot: string): Promise<Sound> {
  const root = rng.pick(ROOTS);
  const wave = rng.pick(["square", "sawtooth", "triangle", "pluck"]);
  const step = rng.range(0.08, 0.2);
  const d = rng.range(2, 3.5);
  const notes = [1, 1.26, 1.498, 2].map((r) => f(root * r, 2));
  return soxSound(
    {
      channels: 4,
      effects: [
        "synth", f(d, 2), ...notes.flatMap((n) => [wave, n]),
        "delay", "0", f(step, 3), f(2 * step, 3), f(3 * step, 3),
        "gain", "-12", "fade", "0", f(d, 2), f(d * 0.5, 2),
        "remix", "-", "lowpass", f(rng.range(2500, 6000)), "reverb", f(rng.range(20, 60)), "trim", "0", f(d + 1, 2), "gain", "-n", "-3",
      ],
    },
    cacheRoot,
  );
}

export function gameSound(kind: GameSoundKind, rng: Random, cacheRoot: string): Promise<Sound> {
  return kind === "impact" ? impact(rng, cacheRoot) : kind === "gunfire" ? gunfire(rng, cacheRoot) : sting(rng, cacheRoot);
}

/** Four chords of two seconds each, with a kick on every beat and a hi-hat between: a loop of 8 s at 120 bpm. */
export async function musicLoop(rng: Random, cacheRoot: string): Promise<Sound> {
  const root = rng.pick([110, 130.81, 146.83, 164.81]);
  const progressions = [[1, 1.335, 1.498, 1.122], [1, 0.749, 0.891, 0.667], [1, 1.189, 0.891, 1.335]];
  const prog = rng.pick(progressions);
  const wave = rng.pick(["triangle", "sawtooth", "sine"]);
  const chords = await Promise.all(
    prog.map((r) =>
      soxSound(
        {
          channels: 3,
          effects: ["synth", "2", ...[1, 1.26, 1.498].flatMap((x) => [wave, f(root * r * x * 2, 2)]), "gain", "-10", "fade", "0.05", "2", "0.3", "remix", "-", "lowpass", "3000", "gain", "-n", "-6"],
        },
        cacheRoot,
      ),
    ),
  );
  const kick = await soxSound({ effects: ["synth", "0.18", "sine", "120-40", "fade", "l", "0", "0.18", "0.16", "gain", "-n", "-2"] }, cacheRoot);
  const hat = await soxSound({ effects: ["synth", "0.05", "whitenoise", "highpass", "7000", "fade", "l", "0", "0.05", "0.045", "gain", "-n", "-10"] }, cacheRoot);
  const out = new Float32Array(8 * SAMPLE_RATE);
  const add = (s: Sound, at: number, g: number) => {
    const from = Math.round(at * SAMPLE_RATE);
    for (let i = 0; i < s.samples.length && from + i < out.length; i++) out[from + i]! += g * s.samples[i]!;
  };
  chords.forEach((c, i) => add(c, i * 2, 1));
  for (let beat = 0; beat < 16; beat++) {
    add(kick, beat * 0.5, 0.8);
    add(hat, beat * 0.5 + 0.25, 0.5);
  }
  return { samples: out, duration: 8 };
}

/** A game's ambience under everything: rumble and wind with a slow swell, 20 s to be looped. */
export function ambienceLoop(rng: Random, cacheRoot: string): Promise<Sound> {
  return soxSound(
    {
      effects: ["synth", "20", "brownnoise", "lowpass", f(rng.range(300, 900)), "tremolo", f(rng.range(0.1, 0.4), 2), "40", "fade", "0.5", "20", "0.5", "gain", "-n", "-3"],
    },
    cacheRoot,
  );
}
