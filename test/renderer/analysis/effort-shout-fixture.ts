/**
 * Calm talk with shouts only a little louder than it (+5 dB RMS) but raised in pitch, quickened and overdriven:
 * vocal effort that shows in the voice's pitch and brightness more than in its level, as a shout does through a
 * compressed microphone; and calm talk through gunfire louder than the shouts. A flite voice with the third
 * evaluation source's shout recipe and game sounds (dev/synth-streams-c).
 */
import type { Voice } from "../../../dev/synth-streams-b";
import { speakFlite } from "../../../dev/synth-streams-c/flite-voices";
import { ambienceLoop, gunfire } from "../../../dev/synth-streams-c/game-sounds";
import { STREAMER_SHOUTS } from "../../../dev/synth-streams-c/lines";
import { synthCacheRoot } from "../../../dev/synth-vod";
import { Random } from "../../../dev/synth-vod/random";
import type { TalkClipSpec } from "./talk-clip-fixture";

const VOICE: Voice = { engine: "flite", name: "slt", speed: 175, pitch: 190, shout: { pitchCents: 260, tempo: 1.15, overdriveDb: 4 } };
const SHOUTS = [STREAMER_SHOUTS[3], STREAMER_SHOUTS[4], STREAMER_SHOUTS[5], STREAMER_SHOUTS[6]];

export const EFFORT_SHOUT = { duration: 160, shoutAt: [30, 65, 100, 135], calmUnderGunfire: [48, 83, 118] } as const;

const cache = () => synthCacheRoot();

export const EFFORT_SHOUT_SPEC: TalkClipSpec = {
  name: "effort-shout",
  key: { VOICE, SHOUTS, ...EFFORT_SHOUT },
  duration: EFFORT_SHOUT.duration,
  voiceDb: -24,
  speak: (text, shout) => speakFlite(VOICE, text, shout, cache()),
  shouts: EFFORT_SHOUT.shoutAt.map((at, i) => ({ at, line: SHOUTS[i]!, db: 5, seconds: 3 })),
  underTalk: EFFORT_SHOUT.calmUnderGunfire.map((at, i) => ({ at, db: 8, sound: () => gunfire(new Random(20 + i), cache()) })),
  ambience: { db: -20, sound: () => ambienceLoop(new Random(2), cache()) },
};
