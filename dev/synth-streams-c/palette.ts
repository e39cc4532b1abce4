import type { Palette } from "../synth-streams-b";
import { drawFlatFliteVoice, drawFliteVoice, speakFlite } from "./flite-voices";
import { ambienceLoop, gameSound, musicLoop } from "./game-sounds";
import * as C from "./lines";

/**
 * Source c: source b's plan of a stream (conditions, timeline, talk and chat timing) with everything it sounds
 * and reads like swapped: flite voices, other game sounds and music, another game's talk, shorter shouts
 * (1-9 s: a single word or laughter), other chat words, emotes and spam.
 */
export const PALETTE_C: Palette = {
  source: "c",
  drawVoice: drawFliteVoice,
  speak: speakFlite,
  gameSound,
  ambienceLoop,
  musicLoop,
  lines: {
    streamer_talk: C.STREAMER_TALK,
    streamer_shouts: C.STREAMER_SHOUTS,
    raid_thanks: C.STREAMER_RAID_THANKS,
    guest_talk: C.GUEST_TALK,
    guest_shouts: C.GUEST_SHOUTS,
  },
  chat: {
    greetings: C.GREETINGS,
    questions: C.QUESTIONS,
    chatter: C.CHATTER,
    reactions: C.REACTIONS,
    emoteReactions: C.EMOTE_REACTIONS,
    globalEmotes: C.GLOBAL_EMOTES,
    raidLines: C.RAID_LINES,
    loopLines: C.LOOP_LINES,
    promotionLines: C.PROMOTION_LINES,
    sellingWords: C.SELLING_WORDS,
  },
  shoutSeconds: [1, 9],
};

/**
 * Source c with every voice speaking on one pitch (`npm run eval:highlights -- --source c --voices flat`): the
 * same plans but for intonation, which both earlier sources always had (flite's diphone voices only: its
 * statistical ones ignore intonation targets). A voice on one pitch is what the
 * voice measure's pitch rules take for an instrument unless its spectrum recurs too.
 */
export const PALETTE_C_FLAT: Palette = {
  ...PALETTE_C,
  drawVoice: drawFlatFliteVoice,
};

/**
 * Source c through a broadcast compressor (`npm run eval:highlights -- --source c --mix compressed`): the whole
 * mix above about -26 dBFS is compressed 3:1 (RMS, 5 ms attack, 200 ms release, +6 dB of makeup gain) and
 * limited under -1 dBFS, as a streamer's OBS chain often does. Measured on seed 102's first ten minutes: the
 * streamer's shouts 5.3 dB over their calm talk (median RMS) in the plain mix, 1.7 dB in this one; loudness says
 * little, and the voice's pitch and brightness have to say the rest.
 */
export const PALETTE_C_COMPRESSED: Palette = {
  ...PALETTE_C,
  masterFilter: "acompressor=threshold=0.05:ratio=3:attack=5:release=200:makeup=2:detection=rms,alimiter=limit=0.89",
};

/**
 * Source c through FFmpeg's loudness normaliser (`npm run eval:highlights -- --source c --mix loudnorm`), as a
 * pipeline that "normalises the audio to -16 LUFS" with `loudnorm`'s defaults does: one pass, so its dynamic mode,
 * which keeps the loudness range within 7 LU by riding the gain over a 3-second window. Measured on seed 102: the
 * streamer's shouts 9.8 dB over their calm talk (median of seconds) in the plain mix, 3.9 dB in this one; unlike
 * the compressor it works over seconds, so a shout's first second keeps more of its rise than its last.
 */
export const PALETTE_C_LOUDNORM: Palette = {
  ...PALETTE_C,
  masterFilter: "loudnorm=I=-16:TP=-1.5,aresample=48000,aformat=channel_layouts=mono",
};

/**
 * Source c with nothing to find (`npm run eval:highlights -- --source c --moments none`): the same plans without
 * their real moments (no shout, no chat reaction to anything), the distractors, talk, game sounds and chat kept.
 * Every other variant plants 7-10 real moments per stream, so a rule that lowers its bar on a stream where nothing
 * stands out (a calm streamer, a squeezed mix) is never caught taking calm talk for a moment there; here every
 * clip is one too many.
 */
export const PALETTE_C_CALM: Palette = {
  ...PALETTE_C,
  nothingToFind: true,
};

/**
 * Source c with the game louder than the streamer (`npm run eval:highlights -- --source c --sounds loud`): every
 * shout of a real moment under a game sound at its peak 0-8 dB louder than the shout (the plain plans put it 3-10
 * dB over the calm talk, mostly under the shout), and every fight the streamer talks calmly through 4-12 dB over
 * the talk (plain: 2-7). Loudness then says little about who is shouting, and the voice has to be read under the
 * game's sound. A demanding case both ways: a shout masked by an impact must still be the streamer's, calm talk
 * under a louder fight still not.
 */
export const PALETTE_C_LOUD: Palette = {
  ...PALETTE_C,
  loudGame: { overShoutDb: [0, 8], calmFightOverTalkDb: [4, 12] },
};

/**
 * Source c with levels that wander (`npm run eval:highlights -- --source c --levels drift`): the streamer's voice
 * 3-6 dB either side of its planned level and the game's sound 2-5 dB either side of its own, each on a slow swing
 * of 6-16 minutes with its own phase (dev/synth-streams-b/level-drift.ts). Every other variant keeps a stream's
 * levels fixed, so "usual talk" and "the stream's baseline" mean one level from start to end; here calm talk at the
 * top of the voice's swing is louder than a shout's start at the bottom of it.
 */
export const PALETTE_C_DRIFT: Palette = {
  ...PALETTE_C,
  levelDrift: { voiceDb: [3, 6], gameDb: [2, 5], periodSeconds: [360, 960] },
};
