import { isPureReaction, reactionKind } from "./chat-lexicon";
import type { ChatCommentInput } from "./types";

/**
 * Who is actually reacting: a crowd is many people each saying something once or twice. Two kinds of chat
 * volume are not a crowd, however many accounts they come from:
 * - an account posting on a loop (three or more messages within half a minute: a spammer, a bot, a regular
 *   chatting away) is conversation or spam, never a sudden reaction, so it is not counted at all; three short
 *   reactions in a row are no loop (one viewer reacting hard: counted once, like anyone in a window);
 * - the same line pasted by several accounts ("type 1 if you are here", a copypasta, a follow-bot raid) is
 *   one voice however many accounts paste it. Short lines made of nothing but reactions (emotes, laughter, hype
 *   words; a few words) are exempt: twenty people typing KEKW at once is exactly what a crowd reacting looks
 *   like. An emote among other words is not ("xqc raid VoHiYo", the line a raid's viewers paste: they arrive,
 *   they do not react to the stream), and neither is a line in capitals or with "!!": a shouted copypasta is
 *   still a copypasta.
 * Texts are compared after normalising case, punctuation, repeated words and stretched letters, and the
 * invisible characters spammers add to get past Twitch's duplicate-message filter, so near-duplicates match.
 */
export const VOICE_RULES = {
  /** An account with this many messages within `loopWindowSeconds` is posting on a loop (all of them are left out). */
  loopMessages: 3,
  loopWindowSeconds: 30,
  /** Short reactions are a loop only from this many within `loopWindowSeconds` (one viewer reacting hard sends 2-4). */
  reactionLoopMessages: 5,
  /** A non-reaction line posted by this many accounts within `copyWindowSeconds` around it is a pasted line. */
  copyAccounts: 3,
  copyWindowSeconds: 30,
} as const;

/** The text spam filters compare: lower case, letters and digits only, repeated words and doubled letters collapsed. */
export function normalizeChatText(text: string): string {
  const words = text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, " ")
    .replace(/(\p{L})\1+/gu, "$1")
    .split(/\s+/)
    .filter(Boolean);
  const out: string[] = [];
  for (const w of words) if (out.at(-1) !== w) out.push(w);
  // Only symbols or emoji: keep them (minus spaces), so "!!!" and "💀💀" are still comparable lines.
  return out.length > 0 ? out.join(" ") : text.replace(/\s+/g, "");
}

/**
 * Reactions a crowd types independently, in a few words: laughter or a hype word ("that was insane"), or nothing
 * but emotes. An emote beside other words is no reaction on its own: it is how a raid's pasted line and a
 * promotion dress up ("xqcowtv raid VoHiYo", "VoHiYo follow my channel").
 */
const REACTION_WORDS = 4;
function isShortReaction(c: ChatCommentInput, normalized: string): boolean {
  if (normalized.split(" ").length > REACTION_WORDS) return false;
  const kind = reactionKind(c.text, c.emote_count);
  return kind === "laughter" || kind === "hype" || isPureReaction(c.text, c.emote_count);
}

/** The voice a pasted line counts as starts with this (the rest is the line's normalised text). */
export const PASTED_VOICE = "copy:";

const accountOf = (c: ChatCommentInput, index: number) => (c.commenter_login ? `u:${c.commenter_login.toLowerCase()}` : `anon:${index}`);

/**
 * Per message (in `sorted` order, by offset): the voice it counts as in a crowd, or null when it does not count
 * (an account on a loop). Anonymous messages (deleted accounts) are each their own voice.
 */
export function crowdVoices(sorted: readonly ChatCommentInput[]): (string | null)[] {
  const r = VOICE_RULES;
  const voices: (string | null)[] = sorted.map((c, i) => accountOf(c, i));

  const reaction = sorted.map((c) => isShortReaction(c, normalizeChatText(c.text)));
  // Accounts on a loop: messages of one account, two pointers over its times.
  const byAccount = new Map<string, number[]>();
  sorted.forEach((c, i) => {
    if (!c.commenter_login) return;
    const k = accountOf(c, i);
    const list = byAccount.get(k);
    if (list) list.push(i);
    else byAccount.set(k, [i]);
  });
  // A message is part of a loop when some `loopMessages` consecutive messages of its account, itself among
  // them, span at most `loopWindowSeconds`.
  const n = r.loopMessages;
  for (const list of byAccount.values()) {
    if (list.length < n) continue;
    const at = (k: number) => sorted[list[k]!]!.offset_seconds;
    const keepsPosting = new Set<number>();
    const m = r.reactionLoopMessages;
    for (let first = 0; first + m - 1 < list.length; first++) {
      if (at(first + m - 1) - at(first) <= r.loopWindowSeconds) for (let k = first; k < first + m; k++) keepsPosting.add(list[k]!);
    }
    for (let first = 0; first + n - 1 < list.length; first++) {
      if (at(first + n - 1) - at(first) > r.loopWindowSeconds) continue;
      // Three short reactions in a row are one viewer reacting hard ("?????", "that was insane", "?????"), not a
      // loop: in a small chat the most excited viewers were the ones left out. They count once per window, as
      // anyone does (windowedDistinct); a loop of promotion or conversation is still left out, and so is an
      // account that keeps posting reactions (`reactionLoopMessages` within the window: an emote spammer).
      if (list.slice(first, first + n).every((i) => reaction[i]) && !list.slice(first, first + n).some((i) => keepsPosting.has(i))) continue;
      for (let k = first; k < first + n; k++) voices[list[k]!] = null;
    }
  }

  // Pasted lines: per normalised non-reaction text, the distinct accounts posting it around each message.
  const byText = new Map<string, number[]>();
  sorted.forEach((c, i) => {
    if (reaction[i]) return;
    const k = normalizeChatText(c.text);
    const list = byText.get(k);
    if (list) list.push(i);
    else byText.set(k, [i]);
  });
  const copyHalf = r.copyWindowSeconds / 2;
  for (const [text, list] of byText) {
    if (list.length < r.copyAccounts) continue;
    const inWindow = new Map<string, number>();
    let lo = 0;
    let hi = 0;
    for (const i of list) {
      const t = sorted[i]!.offset_seconds;
      while (hi < list.length && sorted[list[hi]!]!.offset_seconds <= t + copyHalf) {
        const k = accountOf(sorted[list[hi]!]!, list[hi]!);
        inWindow.set(k, (inWindow.get(k) ?? 0) + 1);
        hi++;
      }
      while (sorted[list[lo]!]!.offset_seconds < t - copyHalf) {
        const k = accountOf(sorted[list[lo]!]!, list[lo]!);
        const left = (inWindow.get(k) ?? 1) - 1;
        if (left <= 0) inWindow.delete(k);
        else inWindow.set(k, left);
        lo++;
      }
      if (inWindow.size >= r.copyAccounts && voices[i] !== null) voices[i] = `${PASTED_VOICE}${text}`;
    }
  }
  return voices;
}
