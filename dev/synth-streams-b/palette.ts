import type { Random } from "../synth-vod/random";
import type { LoudGame } from "./timeline";
import type { LevelDrift } from "./level-drift";
import { ambienceLoop, gameSound, musicLoop, type GameSoundKind } from "./game-sounds";
import * as B from "./lines";
import type { ChatCategory } from "./lines";
import type { Sound } from "./sox-clip";
import type { LineSet } from "./talk";
import { drawVoice, speak, type Voice } from "./voices";

/** What chat types on a stream: each list is one category of the truth (a title may quote only reactions). */
export interface ChatVocabulary {
  greetings: readonly string[];
  questions: readonly string[];
  chatter: readonly string[];
  reactions: readonly string[];
  emoteReactions: readonly string[];
  /** Twitch global emotes the replay returns as emote fragments: name -> emote id. */
  globalEmotes: Record<string, string>;
  /** A raid's pasted message, `{raider}` filled in. */
  raidLines: readonly string[];
  loopLines: readonly string[];
  promotionLines: readonly string[];
  /** Parts of promotion lines a title must not quote either (its selling words are enough to tell). */
  sellingWords: readonly string[];
}

/**
 * Everything a source's streams sound and read like, apart from the plan (timeline, talk, chat timing), which
 * the sources share: the voices and their engine, game sounds, music, what is said and what chat types. Source b
 * is this folder's; source c (dev/synth-streams-c) swaps all of it, so a rule tuned on one source's material
 * meets other voices, other sounds and other words on the other.
 */
export interface Palette {
  source: "b" | "c";
  drawVoice(rng: Random, avoid?: Voice): Voice;
  speak(voice: Voice, text: string, shout: boolean, cacheRoot: string): Promise<Sound>;
  gameSound(kind: GameSoundKind, rng: Random, cacheRoot: string): Promise<Sound>;
  ambienceLoop(rng: Random, cacheRoot: string): Promise<Sound>;
  musicLoop(rng: Random, cacheRoot: string): Promise<Sound>;
  lines: Record<LineSet, readonly string[]>;
  chat: ChatVocabulary;
  /** How long the streamer's shouting at a moment lasts, seconds (drawn per moment). */
  shoutSeconds: readonly [number, number];
  /** An FFmpeg audio filter over the whole mix, as a streamer's broadcast chain applies one (none: the plain mix). */
  masterFilter?: string;
  /** Game sounds louder than the streamer's shouts and calm talk (`--sounds loud`; none: the plan's levels). */
  loudGame?: LoudGame;
  /** The streamer's voice and the game's sound wandering over the stream (`--levels drift`; none: fixed levels). */
  levelDrift?: LevelDrift;
  /** No real moment planted, only the distractors (`--moments none`; see withoutRealMoments in timeline.ts). */
  nothingToFind?: boolean;
}

export const PALETTE_B: Palette = {
  source: "b",
  drawVoice,
  speak,
  gameSound,
  ambienceLoop,
  musicLoop,
  lines: {
    streamer_talk: B.STREAMER_TALK,
    streamer_shouts: B.STREAMER_SHOUTS,
    raid_thanks: B.STREAMER_RAID_THANKS,
    guest_talk: B.GUEST_TALK,
    guest_shouts: B.GUEST_SHOUTS,
  },
  chat: {
    greetings: B.GREETINGS,
    questions: B.QUESTIONS,
    chatter: B.CHATTER,
    reactions: B.REACTIONS,
    emoteReactions: B.EMOTE_REACTIONS,
    globalEmotes: B.GLOBAL_EMOTES,
    raidLines: B.RAID_LINES,
    loopLines: B.LOOP_LINES,
    promotionLines: B.PROMOTION_LINES,
    sellingWords: ["buy cheap followers", "buy followers", "check my channel", "cheap viewers", "https"],
  },
  shoutSeconds: [3, 9],
};

/** Every line a title must never quote, by category (small talk and spam). */
export function neverQuoted(chat: ChatVocabulary): { category: ChatCategory; text: string }[] {
  return [
    ...chat.greetings.filter((g) => g.split(" ").length >= 2).map((text) => ({ category: "greeting" as const, text })),
    ...chat.questions.map((text) => ({ category: "question" as const, text })),
    ...chat.loopLines.map((text) => ({ category: "spam_loop" as const, text })),
    ...chat.promotionLines.map((text) => ({ category: "promotion" as const, text })),
    ...chat.sellingWords.map((text) => ({ category: "promotion" as const, text })),
  ];
}
