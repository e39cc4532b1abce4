/**
 * Who reads the caption evaluation's mixed sentences. espeak-ng (the generator's own voice) for the tuning,
 * held-out and fresh splits; the `flite` split's speakers: the held-out sentences read by flite instead of espeak-ng, so the caption rules
 * (chosen on espeak speech) are checked on another synthesis method: diphone voices at 8 kHz (kal, telephone-band
 * like a cheap microphone) and 16 kHz (kal16), and statistical voices (awb, rms, slt) with their own prosody.
 * The voices are fixed, not drawn, so the split is the same speech every run; they are driven the way source c
 * of the highlight evaluation drives them (dev/synth-streams-c/flite-voices.ts): a shout is flite's own pitch
 * and pace raised, then per voice a pitch shift, tempo and overdrive (or none: some streamers' shouts are just
 * loud), and the mixer makes it louder.
 */
import type { Voice } from "../../dev/synth-streams-b";
import { speakFlite } from "../../dev/synth-streams-c/flite-voices";
import { synthesizeSpeech, type SpeechClip, type SpeechStyle } from "../../dev/synth-vod/speech";

export const FLITE_VOICES: readonly Voice[] = [
  { engine: "flite", name: "kal", speed: 170, pitch: 105, shout: { pitchCents: 200, tempo: 1.1, overdriveDb: 4 } },
  { engine: "flite", name: "kal16", speed: 160, pitch: 112, shout: { pitchCents: 0, tempo: 1, overdriveDb: 0 } },
  { engine: "flite", name: "awb", speed: 180, pitch: 118, shout: { pitchCents: 250, tempo: 1.05, overdriveDb: 6 } },
  { engine: "flite", name: "rms", speed: 150, pitch: 100, shout: { pitchCents: 150, tempo: 1.15, overdriveDb: 0 } },
  { engine: "flite", name: "slt", speed: 175, pitch: 190, shout: { pitchCents: 100, tempo: 1, overdriveDb: 8 } },
];

/** Who reads a sentence, in what style: one clip as the generator's mixer takes it (48 kHz mono, silence trimmed). */
export interface Speaker {
  name: string;
  /** What makes its speech differ from another speaker's, for cache keys (the espeak speaker: none, its wavs predate it). */
  key?: unknown;
  speak(text: string, style: SpeechStyle, cacheDir: string): Promise<SpeechClip>;
}

/** The synthetic VODs' speaker (dev/synth-vod/speech.ts): en-us, faster, higher and louder when shouting. */
export const ESPEAK_SPEAKER: Speaker = { name: "espeak-ng en-us", speak: synthesizeSpeech };

export function fliteSpeaker(voice: Voice): Speaker {
  return {
    name: `flite ${voice.name}`,
    key: voice,
    async speak(text, style, cacheDir) {
      const sound = await speakFlite(voice, text, style === "excited", cacheDir);
      return { text, style, samples: sound.samples, duration: sound.duration };
    },
  };
}
