/**
 * Calm talk of a low voice (flite awb near 110 Hz) with a music swell under it: source c's sixteenth-note arpeggio
 * over a pad and a bass (dev/synth-streams-c musicLoop), 8 dB over the talk for about 14 s, as source c's music
 * swells play, and shouts elsewhere. The arpeggio changes note every sixteenth, too fast for the held- and
 * recurring-pitch rules, and the voice model hears much of it as speech.
 */
import type { Voice } from "../../../dev/synth-streams-b";
import { speakFlite } from "../../../dev/synth-streams-c/flite-voices";
import { ambienceLoop, musicLoop } from "../../../dev/synth-streams-c/game-sounds";
import { STREAMER_SHOUTS } from "../../../dev/synth-streams-c/lines";
import { synthCacheRoot } from "../../../dev/synth-vod";
import { Random } from "../../../dev/synth-vod/random";
import type { TalkClipSpec } from "./talk-clip-fixture";

const VOICE: Voice = { engine: "flite", name: "awb", speed: 165, pitch: 110, shout: { pitchCents: 100, tempo: 1.05, overdriveDb: 2 } };
const SHOUTS = [STREAMER_SHOUTS[3], STREAMER_SHOUTS[6], STREAMER_SHOUTS[8]];

/**
 * `swell`: where the music plays, [start, end) seconds: four loops of one arpeggio 3.5 s apart (a loop lasts
 * 3.6-4.8 s, so they overlap a little and leave no gap).
 */
export const MUSIC_SWELL = { duration: 160, shoutAt: [30, 110, 140], swell: { start: 60, end: 74, loops: 4, every: 3.5 } } as const;

const cache = () => synthCacheRoot();
const arpeggio = () => musicLoop(new Random(11), cache());

export const MUSIC_SWELL_SPEC: TalkClipSpec = {
  name: "music-swell",
  key: { VOICE, SHOUTS, ...MUSIC_SWELL },
  duration: MUSIC_SWELL.duration,
  voiceDb: -24,
  speak: (text, shout) => speakFlite(VOICE, text, shout, cache()),
  shouts: MUSIC_SWELL.shoutAt.map((at, i) => ({ at, line: SHOUTS[i]!, db: 10, seconds: 3 })),
  underTalk: Array.from({ length: MUSIC_SWELL.swell.loops }, (_, k) => ({ at: MUSIC_SWELL.swell.start + k * MUSIC_SWELL.swell.every, db: 8, sound: arpeggio })),
  ambience: { db: -20, sound: () => ambienceLoop(new Random(2), cache()) },
};
