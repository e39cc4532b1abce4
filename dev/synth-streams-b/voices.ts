import type { Random } from "../synth-vod/random";
import { speechSound, type Sound } from "./sox-clip";

/**
 * A speaker of one stream: a speech engine's voice, its speed and pitch, and how its shouting differs (sox pitch
 * shift, tempo and overdrive), so no two streams share the same voice or the same shout. Source b speaks with
 * espeak-ng (`name` is its voice+variant); source c with flite (dev/synth-streams-c/flite-voices.ts).
 */
export interface Voice {
  engine: "espeak" | "flite";
  name: string;
  /** espeak: words per minute; flite: the same scale (170 is the voice's own pace). */
  speed: number;
  /** espeak: its 0-99 pitch; flite: the mean F0 in Hz. */
  pitch: number;
  shout: { pitchCents: number; tempo: number; overdriveDb: number };
  /** flite: speaks on one pitch, calm and shouting (its F0 spread 0): `eval:highlights -- --voices flat`. */
  flat?: boolean;
}

const LANGUAGES = ["en-us", "en-gb", "en-gb-scotland", "en-029", "en-gb-x-rp", "en-gb-x-gbclan"] as const;
const VARIANTS = ["Alex", "Annie", "Andy", "linda", "m3", "f3", "m7", "f2", "Michael", "max", "steph", "m2", "f4", "david", "rob"] as const;

export function drawVoice(rng: Random, avoid?: Voice): Voice {
  let name: string;
  do name = `${rng.pick(LANGUAGES)}+${rng.pick(VARIANTS)}`;
  while (avoid && name.split("+")[1] === avoid.name.split("+")[1]);
  return {
    engine: "espeak",
    name,
    speed: rng.int(145, 190),
    pitch: rng.int(25, 70),
    shout: { pitchCents: rng.int(120, 450), tempo: Number(rng.range(1.0, 1.15).toFixed(3)), overdriveDb: rng.int(3, 12) },
  };
}

/** Calm talk, or a shout: louder espeak output, faster and higher, then a pitch shift and overdrive on top. */
export function speak(voice: Voice, text: string, shout: boolean, cacheRoot: string): Promise<Sound> {
  if (!shout) return speechSound({ espeak: ["-v", voice.name, "-s", String(voice.speed), "-p", String(voice.pitch)], text, effects: [] }, cacheRoot);
  const s = voice.shout;
  return speechSound(
    {
      espeak: ["-v", voice.name, "-s", String(voice.speed + 25), "-p", String(Math.min(99, voice.pitch + 25)), "-a", "200"],
      text,
      effects: ["gain", "-6", "pitch", String(s.pitchCents), "tempo", "-s", String(s.tempo), "overdrive", String(s.overdriveDb), "gain", "-n", "-1"],
    },
    cacheRoot,
  );
}
