/**
 * A monotone voice: flite speaking on one pitch (its F0 spread at 0), calm and shouting (+8 dB, pitch raised by
 * a third), calm talk through gunfire and through an alarm's beeps. Every vowel of such a voice sits on the same
 * period, which the held- and recurring-pitch rules (measure-voice.ts) read as an instrument unless its spectrum
 * recurs too.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { cached, RAW_OUT, type Sound } from "../../../dev/synth-streams-b/sox-clip";
import { ambienceLoop, gunfire, sting } from "../../../dev/synth-streams-c/game-sounds";
import { STREAMER_SHOUTS } from "../../../dev/synth-streams-c/lines";
import { synthCacheRoot } from "../../../dev/synth-vod";
import { run } from "../../../dev/synth-vod/exec";
import { Random } from "../../../dev/synth-vod/random";
import { analysedTalkClip, type TalkClipSpec } from "./talk-clip-fixture";

const VOICE = { name: "slt", f0: 190 } as const;
/** No held vowel among them ("NOOOO!" on one pitch is a held note by any measure). */
const SHOUTS = [STREAMER_SHOUTS[1], STREAMER_SHOUTS[4], STREAMER_SHOUTS[7], STREAMER_SHOUTS[8]];

export const MONOTONE_VOICE = { duration: 200, shoutAt: [30, 70, 110, 150], calmUnderGunfire: [50, 90, 130], calmUnderAlarm: [170] } as const;

function speakMonotone(text: string, shout: boolean): Promise<Sound> {
  const args = ["-voice", VOICE.name, "--setf", `int_f0_target_mean=${shout ? Math.round(VOICE.f0 * 1.3) : VOICE.f0}`, "--setf", "int_f0_target_stddev=0", ...(shout ? ["--setf", "duration_stretch=0.9"] : [])];
  return cached(synthCacheRoot(), { monotoneFlite: args, text }, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "flite-"));
    const file = path.join(dir, "speech.wav");
    try {
      await run("flite", [...args, "-t", text, "-o", file]);
      const wav = await readFile(file);
      return await run("sox", ["-t", "wav", "-", ...RAW_OUT, "silence", "1", "0.02", "0.5%", "reverse", "silence", "1", "0.02", "0.5%", "reverse"], { stdin: wav });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}

const cache = () => synthCacheRoot();

export const MONOTONE_VOICE_SPEC: TalkClipSpec = {
  name: "monotone-voice",
  key: { VOICE, SHOUTS, ...MONOTONE_VOICE },
  duration: MONOTONE_VOICE.duration,
  voiceDb: -24,
  speak: speakMonotone,
  shouts: MONOTONE_VOICE.shoutAt.map((at, i) => ({ at, line: SHOUTS[i]!, db: 8, seconds: 3 })),
  underTalk: [
    ...MONOTONE_VOICE.calmUnderGunfire.map((at, i) => ({ at, db: 8, sound: () => gunfire(new Random(20 + i), cache()) })),
    // Random(1) draws the two-tone alarm (0.3 s beeps) among source c's stings.
    ...MONOTONE_VOICE.calmUnderAlarm.map((at) => ({ at, db: 6, sound: () => sting(new Random(1), cache()) })),
  ],
  ambience: { db: -20, sound: () => ambienceLoop(new Random(2), cache()) },
};

export const analysedMonotoneVoice = () => analysedTalkClip(MONOTONE_VOICE_SPEC);
