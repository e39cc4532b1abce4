import { typedEmotes } from "./emote-names";

/**
 * What makes a chat message a reaction rather than conversation: emotes, laughter and hype words, shouting.
 * Twitch emotes arrive as fragments (counted in emote_count) but popular third-party emotes (7TV, BTTV, FFZ)
 * are plain text, so their names are matched as words too.
 */
const LAUGHTER = /\b(?:l+o+l+|lmf?a+o+|rofl|(?:ha){2,}h?|(?:he){2,}h?|kek\w*|lul\w*|omegalul|icant|xd+|dead)\b|💀|😂|🤣/iu;
const HYPE =
  /\b(?:pog\w*|w+|gg+|omg|wtf|no+ wa+y+|let'?s+ go+|holy|insane|clip(?: it|ped|that)?|hype|clutch|sheesh|ez+|wow+|nice+|monka\w*|pepe\w*|catjam|ratjam|5head|goated|huge)\b/iu;

/** Short lines a crowd types when something fails or ends that are no hype word: "L", "F", "rip", "o7", "wp". */
const FILLER = /\b(?:l+|f+|rip|o7|wp|gg+|ez+)\b/iu;
const everywhere = (r: RegExp) => new RegExp(r.source, `${r.flags}g`);
const REACTION_TOKENS = [everywhere(LAUGHTER), everywhere(HYPE), everywhere(FILLER)];

/**
 * Whether a line says nothing but a reaction: once laughter, hype words and fillers are taken out, every word
 * left could be one of its Twitch emotes (`emoteCount` of them). "KEKW", "no way", "PogChamp PogChamp" and "gg wp"
 * are; "xqc raid VoHiYo" (a raid's pasted line: a channel's name, the word raid, one emote) and "VoHiYo follow
 * my channel" are not, though each holds an emote.
 */
export function isPureReaction(text: string, emoteCount: number): boolean {
  let rest = text;
  for (const r of REACTION_TOKENS) rest = rest.replace(r, " ");
  const words = rest.match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length <= emotesIn(text, emoteCount);
}

/**
 * The emotes of a line: the fragments Twitch marked (`emoteCount`), or where it marked fewer, the emote names
 * typed as words (emote-names.ts: a replay whose emotes arrive as plain text). Never both: a marked emote's name
 * is in the text too.
 */
export function emotesIn(text: string, emoteCount: number): number {
  return Math.max(emoteCount, typedEmotes(text));
}

export type ReactionKind = "laughter" | "hype" | "emote" | "shout" | null;

/** A line of nothing but emoji ("🔥🔥🔥", "😱"): a crowd's reaction as much as an emote is (laughing ones are laughter). */
const EMOJI_ONLY = /^(?=.*\p{Extended_Pictographic})[\s\p{Extended_Pictographic}\u200d\ufe0f\u{1F3FB}-\u{1F3FF}]+$/u;

/** Classifies one message; laughter first because it is the most specific signal. */
export function reactionKind(text: string, emoteCount: number): ReactionKind {
  if (LAUGHTER.test(text)) return "laughter";
  if (HYPE.test(text)) return "hype";
  if (emotesIn(text, emoteCount) > 0 || EMOJI_ONLY.test(text)) return "emote";
  const letters = text.replace(/[^A-Za-z]/g, "");
  // A line of nothing but question and exclamation marks ("?????", "!!!") is a crowd's confusion or alarm.
  if ((letters.length >= 4 && letters === letters.toUpperCase()) || /!{2,}|\?!|!\?/.test(text) || /^[\s?!]+$/.test(text)) return "shout";
  return null;
}

/** `!drops`, `!uptime`: commands addressed to bots, not reactions to the stream. */
export function isBotCommand(text: string): boolean {
  return /^\s*![a-z0-9_]+/i.test(text);
}
