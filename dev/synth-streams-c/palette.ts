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
