/**
 * A streamer with a low voice (flite awb, about 110 Hz) and a guest with a high one (flite slt, about 190 Hz: some
 * 9 semitones up) who takes a turn every 20 s, about a sixth of the talk; no shouts. Over the streamer's usual
 * pitch the guest's calm sentences read as a voice raised like a shout's (measure-voice.ts, OTHER_VOICE).
 */
import type { Voice } from "../../../dev/synth-streams-b";
import { speakFlite } from "../../../dev/synth-streams-c/flite-voices";
import { ambienceLoop } from "../../../dev/synth-streams-c/game-sounds";
import { GUEST_TALK } from "../../../dev/synth-streams-c/lines";
import { synthCacheRoot } from "../../../dev/synth-vod";
import { Random } from "../../../dev/synth-vod/random";
import type { TalkClipSpec } from "./talk-clip-fixture";

const STREAMER: Voice = { engine: "flite", name: "awb", speed: 170, pitch: 110, shout: { pitchCents: 0, tempo: 1, overdriveDb: 0 } };
const GUEST: Voice = { engine: "flite", name: "slt", speed: 170, pitch: 190, shout: { pitchCents: 0, tempo: 1, overdriveDb: 0 } };

/** Every third turn the guest speaks up (+7 dB, calm still): loud enough for the voice model to listen there. */
export const GUEST_VOICE = { duration: 240, guestAt: Array.from({ length: 11 }, (_, i) => 12 + 20 * i), louder: [1, 4, 7, 10] } as const;

const cache = () => synthCacheRoot();

export const GUEST_VOICE_SPEC: TalkClipSpec = {
  name: "guest-voice",
  key: { STREAMER, GUEST, ...GUEST_VOICE },
  duration: GUEST_VOICE.duration,
  voiceDb: -24,
  speak: (text, shout) => speakFlite(STREAMER, text, shout, cache()),
  shouts: [],
  underTalk: [],
  turns: GUEST_VOICE.guestAt.map((at, i) => ({ at, db: (GUEST_VOICE.louder as readonly number[]).includes(i) ? 7 : 0, sound: () => speakFlite(GUEST, GUEST_TALK[i % GUEST_TALK.length]!, false, cache()) })),
  ambience: { db: -20, sound: () => ambienceLoop(new Random(3), cache()) },
};
