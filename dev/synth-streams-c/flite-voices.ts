import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Voice } from "../synth-streams-b";
import { cached, RAW_OUT, REPEATABLE, type Sound } from "../synth-streams-b/sox-clip";
import { run } from "../synth-vod/exec";
import type { Random } from "../synth-vod/random";

/**
 * Source c speaks with flite instead of espeak-ng: another synthesis method (diphone and statistical voices at
 * 8 and 16 kHz, one of them telephone-band like a cheap microphone) with its own prosody. A shout is the voice
 * raised and quickened through flite's own pitch and duration targets, then, per stream, louder only or also
 * pitch-shifted and overdriven: some streamers' shouts are just loud.
 */
const VOICES = [
  { name: "kal", f0: [95, 125] },
  { name: "kal16", f0: [95, 125] },
  { name: "awb", f0: [100, 135] },
  { name: "rms", f0: [90, 120] },
  { name: "slt", f0: [165, 215] },
] as const;

/**
 * Flite's diphone voices follow its intonation targets (`int_f0_target_*`); its statistical voices (rms, slt) take
 * their pitch from their own model and ignore them. A voice on one pitch can only be a diphone voice.
 */
const DIPHONE = VOICES.filter((v) => v.name !== "rms" && v.name !== "slt");

export function drawFliteVoice(rng: Random, avoid?: Voice, from: readonly (typeof VOICES)[number][] = VOICES): Voice {
  let v: (typeof VOICES)[number];
  do v = rng.pick(from);
  while (avoid && v.name === avoid.name);
  const plainShout = rng.next() < 0.35;
  return {
    engine: "flite",
    name: v.name,
    speed: rng.int(140, 200),
    pitch: rng.int(v.f0[0], v.f0[1]),
    shout: plainShout ? { pitchCents: 0, tempo: 1, overdriveDb: 0 } : { pitchCents: rng.int(0, 300), tempo: Number(rng.range(0.95, 1.2).toFixed(3)), overdriveDb: rng.int(0, 8) },
  };
}

/** A voice on one pitch, calm and shouting (`eval:highlights -- --voices flat`): a diphone voice. */
export function drawFlatFliteVoice(rng: Random, avoid?: Voice): Voice {
  return { ...drawFliteVoice(rng, avoid, DIPHONE), flat: true };
}

const f = (x: number, d = 2) => x.toFixed(d);

export function speakFlite(voice: Voice, text: string, shout: boolean, cacheRoot: string): Promise<Sound> {
  const stretch = 170 / voice.speed;
  // A flat voice keeps one pitch throughout (calm, and raised when shouting); the recipe of the others is as it was.
  const flat = voice.flat ? ["--setf", "int_f0_target_stddev=0"] : [];
  const args = shout
    ? ["--setf", `duration_stretch=${f(stretch * 0.85)}`, "--setf", `int_f0_target_mean=${f(voice.pitch * 1.45, 0)}`, ...(voice.flat ? flat : ["--setf", "int_f0_target_stddev=45"])]
    : ["--setf", `duration_stretch=${f(stretch)}`, "--setf", `int_f0_target_mean=${voice.pitch}`, ...flat];
  const s = voice.shout;
  const effects = shout
    ? [
        ...(s.pitchCents ? ["pitch", String(s.pitchCents)] : []),
        ...(s.tempo !== 1 ? ["tempo", "-s", String(s.tempo)] : []),
        ...(s.overdriveDb ? ["overdrive", String(s.overdriveDb)] : []),
        "gain", "-n", "-1",
      ]
    : [];
  const recipe = { flite: ["-voice", voice.name, ...args], text, effects };
  return cached(cacheRoot, { speech: recipe }, async () => {
    // flite writes a file (it cannot open a Node pipe as /dev/stdout).
    const dir = await mkdtemp(path.join(os.tmpdir(), "flite-"));
    const file = path.join(dir, "speech.wav");
    let wav: Buffer;
    try {
      await run("flite", [...recipe.flite, "-t", recipe.text, "-o", file]);
      wav = await readFile(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // Trim flite's lead-in and tail silence, so sentence times in truth are the voice's.
    return run("sox", [...REPEATABLE, "-t", "wav", "-", ...RAW_OUT, ...effects, "silence", "1", "0.02", "0.5%", "reverse", "silence", "1", "0.02", "0.5%", "reverse"], { stdin: wav });
  });
}
