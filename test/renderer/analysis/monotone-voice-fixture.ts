/**
 * A monotone voice: a flite diphone voice speaking on one pitch, calm and shouting (the evaluation's
 * `--voices flat`: dev/synth-streams-c/flite-voices.ts; shouts 8 dB louder, pitch raised), calm talk through
 * gunfire and through an alarm's beeps. Every vowel of such a voice sits on the same period, which the held- and
 * recurring-pitch rules (measure-voice.ts) read as an instrument unless its spectrum recurs too.
 */
import type { Voice } from "../../../dev/synth-streams-b";
import { speakFlite } from "../../../dev/synth-streams-c/flite-voices";
import { ambienceLoop, gunfire, sting } from "../../../dev/synth-streams-c/game-sounds";
import { STREAMER_SHOUTS } from "../../../dev/synth-streams-c/lines";
import { synthCacheRoot } from "../../../dev/synth-vod";
import { Random } from "../../../dev/synth-vod/random";
import type { TalkClipSpec } from "./talk-clip-fixture";

const VOICE: Voice = { engine: "flite", name: "kal", speed: 170, pitch: 120, shout: { pitchCents: 0, tempo: 1, overdriveDb: 0 }, flat: true };
/** No held vowel among them ("NOOOO!" on one pitch is a held note by any measure). */
const SHOUTS = [STREAMER_SHOUTS[1], STREAMER_SHOUTS[4], STREAMER_SHOUTS[7], STREAMER_SHOUTS[8]];

export const MONOTONE_VOICE = { duration: 200, shoutAt: [30, 70, 110, 150], calmUnderGunfire: [50, 90, 130], calmUnderAlarm: [170] } as const;

const cache = () => synthCacheRoot();

export const MONOTONE_VOICE_SPEC: TalkClipSpec = {
  name: "monotone-voice",
  key: { VOICE, SHOUTS, ...MONOTONE_VOICE },
  duration: MONOTONE_VOICE.duration,
  voiceDb: -24,
  speak: (text, shout) => speakFlite(VOICE, text, shout, cache()),
  shouts: MONOTONE_VOICE.shoutAt.map((at, i) => ({ at, line: SHOUTS[i]!, db: 8, seconds: 3 })),
  underTalk: [
    ...MONOTONE_VOICE.calmUnderGunfire.map((at, i) => ({ at, db: 8, sound: () => gunfire(new Random(20 + i), cache()) })),
    // Random(1) draws the two-tone alarm (0.3 s beeps) among source c's stings.
    ...MONOTONE_VOICE.calmUnderAlarm.map((at) => ({ at, db: 6, sound: () => sting(new Random(1), cache()) })),
  ],
  ambience: { db: -20, sound: () => ambienceLoop(new Random(2), cache()) },
};
