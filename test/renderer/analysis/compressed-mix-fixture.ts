/**
 * A stream whose mix squeezes its shouts: calm flite talk with shouts 8 dB louder (pitch raised), calm talk
 * through gunfire, and the whole mix compressed and limited as source c's `--mix compressed` does
 * (PALETTE_C_COMPRESSED), or through FFmpeg's loudness normaliser as `--mix loudnorm` does (PALETTE_C_LOUDNORM), so
 * the shouts end a few dB over the talk.
 */
import type { Voice } from "../../../dev/synth-streams-b";
import { PALETTE_C_COMPRESSED, PALETTE_C_LOUDNORM } from "../../../dev/synth-streams-c";
import { speakFlite } from "../../../dev/synth-streams-c/flite-voices";
import { ambienceLoop, gunfire } from "../../../dev/synth-streams-c/game-sounds";
import { STREAMER_SHOUTS } from "../../../dev/synth-streams-c/lines";
import { synthCacheRoot } from "../../../dev/synth-vod";
import { Random } from "../../../dev/synth-vod/random";
import type { TalkClipSpec } from "./talk-clip-fixture";

const VOICE: Voice = { engine: "flite", name: "kal16", speed: 170, pitch: 110, shout: { pitchCents: 150, tempo: 1.05, overdriveDb: 3 } };
const SHOUTS = [STREAMER_SHOUTS[2], STREAMER_SHOUTS[5], STREAMER_SHOUTS[7], STREAMER_SHOUTS[9], STREAMER_SHOUTS[4]];

export const COMPRESSED_MIX = { duration: 240, shoutAt: [30, 75, 120, 165, 210], calmUnderGunfire: [52, 97, 142, 187] } as const;

const cache = () => synthCacheRoot();

const squeezedMix = (name: string, filter: string): TalkClipSpec => ({
  name,
  key: { VOICE, SHOUTS, ...COMPRESSED_MIX, filter },
  duration: COMPRESSED_MIX.duration,
  voiceDb: -20,
  speak: (text, shout) => speakFlite(VOICE, text, shout, cache()),
  shouts: COMPRESSED_MIX.shoutAt.map((at, i) => ({ at, line: SHOUTS[i]!, db: 8, seconds: 3 })),
  underTalk: COMPRESSED_MIX.calmUnderGunfire.map((at, i) => ({ at, db: 8, sound: () => gunfire(new Random(30 + i), cache()) })),
  ambience: { db: -18, sound: () => ambienceLoop(new Random(2), cache()) },
  masterFilter: filter,
});

export const COMPRESSED_MIX_SPEC = squeezedMix("compressed-mix", PALETTE_C_COMPRESSED.masterFilter!);
export const NORMALISED_MIX_SPEC = squeezedMix("normalised-mix", PALETTE_C_LOUDNORM.masterFilter!);
