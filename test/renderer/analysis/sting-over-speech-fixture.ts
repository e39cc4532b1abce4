/**
 * A sentence that starts under a music sting after a pause: calm flite talk with, four times, a second of silence,
 * a sting a little louder than the voice, and the sentence beginning a tenth of a second into it (as on a source c
 * stream, where the voice model heard no speech in the sentence's first 1.5 s).
 */
import type { Voice } from "../../../dev/synth-streams-b";
import { speakFlite } from "../../../dev/synth-streams-c/flite-voices";
import { ambienceLoop, sting } from "../../../dev/synth-streams-c/game-sounds";
import { synthCacheRoot } from "../../../dev/synth-vod";
import { Random } from "../../../dev/synth-vod/random";
import type { TalkClipSpec } from "./talk-clip-fixture";

const VOICE: Voice = { engine: "flite", name: "slt", speed: 170, pitch: 190, shout: { pitchCents: 0, tempo: 1, overdriveDb: 0 } };
export const STING_SENTENCE = "We will do one more run and then take a short break.";

export const STING_OVER_SPEECH = { duration: 120, sentenceAt: [20, 45, 70, 95], stingLeadSeconds: 0.12, stingDb: 2 } as const;

const cache = () => synthCacheRoot();
/** The sentence as the clip says it (its duration: the sentence's span from each `sentenceAt`). */
export const speakSentence = () => speakFlite(VOICE, STING_SENTENCE, false, cache());

export const STING_OVER_SPEECH_SPEC: TalkClipSpec = {
  name: "sting-over-speech",
  key: { VOICE, STING_SENTENCE, ...STING_OVER_SPEECH },
  duration: STING_OVER_SPEECH.duration,
  voiceDb: -22,
  speak: (text, shout) => speakFlite(VOICE, text, shout, cache()),
  shouts: [],
  // The sentence is the streamer's own line placed as a turn: the calm talk keeps a second clear of it.
  turns: STING_OVER_SPEECH.sentenceAt.map((at) => ({ at, db: 0, sound: speakSentence })),
  underTalk: STING_OVER_SPEECH.sentenceAt.map((at, i) => ({ at: at - STING_OVER_SPEECH.stingLeadSeconds, db: STING_OVER_SPEECH.stingDb, sound: () => sting(new Random(50 + i), cache()) })),
  ambience: { db: -24, sound: () => ambienceLoop(new Random(4), cache()) },
};
