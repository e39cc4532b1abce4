import { reactionKind } from "./chat-lexicon";
import { crowdVoices, PASTED_VOICE } from "./chat-voices";
import { firstAtOrAfter, median, ramp } from "./stats";
import type { ChatBurst, ChatCommentInput } from "./types";

/**
 * Finds the moments chat reacted to as a crowd: stretches where many more distinct voices post than this
 * stream usually has, saying something else than it usually says. Counting voices rather than messages is what
 * makes spam harmless: an account posting on a loop counts for nothing and a line pasted by many accounts counts
 * once (crowdVoices), so a flood, a copypasta or a follow-bot raid adds almost nothing. And a crowd reacting
 * shifts what chat says towards reactions (emotes, laughter, hype words) against the stream's own mix: a busier
 * stretch of ordinary conversation is no reaction, however unlikely its volume.
 */
export const BURST_RULES = {
  /** Distinct chatters are counted over this many seconds around each second... */
  windowHalfSeconds: 2,
  /**
   * ...and over this many, for a small chat: there a crowd of seven reacting takes 10-15 s to type (measured on
   * source c's small chats: 7-11 accounts over 10-19 s at a usual 0.1-0.2 messages a second), never packing four
   * voices more than usual into 5 s, and the reaction went unseen. A burst is read at both scales and keeps the
   * reading that scores higher: the 5 s window keeps a busy chat's onset sharp.
   */
  wideWindowHalfSeconds: 6,
  /** The usual number of chatters is the median over this much chat around each second (follows a busy chat's waves). */
  localBaselineHalfSeconds: 120,
  /** A burst needs this many more chatters than usual... */
  minExtraChatters: 4,
  /** ...and that many must be this unlikely for the stream (Poisson-style z-score). */
  minZ: 3,
  /** Seconds between two active seconds that still belong to the same burst. */
  joinGapSeconds: 3,
  /** Messages per chatter above which a burst looks like copy-paste spam rather than a reaction. */
  spamMessagesPerChatter: [1.5, 3] as [number, number],
  /**
   * How far a burst moves chat's conversation share (messages that are no reaction) below the stream's usual
   * share: 0 is chat talking as it always does, 1 is nothing but reactions. Below the first value a burst is
   * mostly discounted, above the second it is not.
   */
  reactionShift: [0.15, 0.5] as [number, number],
  /** What a burst keeps of its score when it does not shift chat towards reactions at all. */
  unshiftedWeight: 0.3,
  /**
   * Share of a burst's messages that are pasted lines (crowdVoices: one line posted by several accounts) above
   * which it is a paste wave rather than a crowd reacting: a raid arriving with its channel's raid lines, a
   * copypasta, a bot network. Counting each line once (crowdVoices) is not enough in a small chat, where a raid's
   * four or five different lines are already a crowd. A crowd's reactions are its own words or short emote lines
   * (never counted as pasted), so a reaction keeps its score; from the first value on the burst is discounted,
   * at the second it keeps a tenth.
   */
  pastedShare: [0.4, 0.7] as [number, number],
} as const;

/**
 * A message that reacts: an emote, laughter or a hype word (chat-lexicon.ts), unless it is a pasted line
 * (crowdVoices): a raid's "streamer RAID HeyGuys" or a copypasta carries emotes but reacts to nothing on the stream.
 * Counted as reactions, a raid's pasted lines made its arrival look like a crowd turning from talk to reactions
 * (source c's calm control, held-out seed 185: a burst of 26 messages, 16 of them the raid's four lines, read as
 * 65 % reactions against a usual 25 %, and `audience` took a clip on the raid).
 */
function isReaction(c: ChatCommentInput, voice: string | null | undefined): boolean {
  return !voice?.startsWith(PASTED_VOICE) && reactionKind(c.text, c.emote_count) !== null;
}

/** Chat-time seconds [0, span) with the distinct chatters in the window around each, in one sliding pass. */
export function windowedUniqueChatters(sorted: readonly ChatCommentInput[], span: number, half: number): number[] {
  return windowedDistinct(sorted, span, half, sorted.map((c, i) => chatterKey(c, i)));
}

/** Chat-time seconds [0, span) with the distinct keys (null: not counted) of the messages in the window around each. */
export function windowedDistinct(sorted: readonly ChatCommentInput[], span: number, half: number, keys: readonly (string | null)[]): number[] {
  const out = new Array<number>(span).fill(0);
  const inWindow = new Map<string, number>();
  let lo = 0;
  let hi = 0;
  for (let t = 0; t < span; t++) {
    while (hi < sorted.length && sorted[hi]!.offset_seconds < t + half + 1) {
      const k = keys[hi];
      if (k !== null && k !== undefined) inWindow.set(k, (inWindow.get(k) ?? 0) + 1);
      hi++;
    }
    while (lo < hi && sorted[lo]!.offset_seconds < t - half) {
      const k = keys[lo];
      if (k !== null && k !== undefined) {
        const left = (inWindow.get(k) ?? 1) - 1;
        if (left <= 0) inWindow.delete(k);
        else inWindow.set(k, left);
      }
      lo++;
    }
    out[t] = inWindow.size;
  }
  return out;
}

/** Anonymous comments (deleted accounts) count as distinct chatters: there is no evidence they are the same. */
export function chatterKey(c: ChatCommentInput, index: number): string {
  return c.commenter_login ? `u:${c.commenter_login.toLowerCase()}` : `anon:${index}`;
}

/** The usual value around each second: the median over a long window, sampled every 10 s (cheap, and smooth enough). */
function localBaseline(values: readonly number[], half: number): number[] {
  const step = 10;
  const samples: number[] = [];
  for (let c = 0; c < values.length; c += step) samples.push(median(values.slice(Math.max(0, c - half), Math.min(values.length, c + half + 1))));
  return values.map((_, i) => samples[Math.min(samples.length - 1, Math.round(i / step))]!);
}

interface ChatterScale {
  half: number;
  /** Distinct voices in the window around each second, what this stream usually has there, and how unlikely. */
  chatters: number[];
  expected: number[];
  z: number[];
}

function chatterScale(sorted: readonly ChatCommentInput[], span: number, half: number, voices: readonly (string | null)[]): ChatterScale {
  const chatters = windowedDistinct(sorted, span, half, voices);
  const global = median(chatters);
  const local = localBaseline(chatters, BURST_RULES.localBaselineHalfSeconds);
  const expected = local.map((l) => Math.max(l, global));
  const z = chatters.map((u, i) => (u - expected[i]!) / Math.sqrt(expected[i]! + 1));
  return { half, chatters, expected, z };
}

/** Bursts in chat time, strongest first. `sorted`: usable comments ordered by offset; `span`: chat seconds covered. */
export function findChatBursts(sorted: readonly ChatCommentInput[], span: number): ChatBurst[] {
  const r = BURST_RULES;
  if (sorted.length === 0 || span <= 0) return [];
  const voices = crowdVoices(sorted);
  const perSecond = windowedDistinct(sorted, span, 0, voices);
  const scales = [r.windowHalfSeconds, r.wideWindowHalfSeconds].map((half) => chatterScale(sorted, span, half, voices));
  const active = (sc: ChatterScale, i: number) => sc.chatters[i]! - sc.expected[i]! >= r.minExtraChatters && sc.z[i]! >= r.minZ;

  const groups: { from: number; to: number }[] = [];
  for (let i = 0; i < span; i++) {
    if (!scales.some((sc) => active(sc, i))) continue;
    const last = groups.at(-1);
    if (last && i - last.to <= r.joinGapSeconds) last.to = i;
    else groups.push({ from: i, to: i });
  }

  // What this stream's chat usually says: the share of reactions among the messages outside every burst.
  const inGroup = (t: number) => groups.some((g) => t >= g.from && t < g.to + r.wideWindowHalfSeconds + 1);
  let outside = 0;
  let outsideReactions = 0;
  sorted.forEach((c, i) => {
    if (inGroup(c.offset_seconds)) return;
    outside++;
    if (isReaction(c, voices[i])) outsideReactions++;
  });
  // Two pseudo-messages of conversation: a stream with almost no chat outside its bursts talks, it does not react.
  const usualShare = outsideReactions / (outside + 2);

  // Each group read at both scales; the reading that scores higher is the burst (a busy chat's is sharper in 5 s,
  // a small chat's only shows in the wider window).
  const offsets = sorted.map((c) => c.offset_seconds);
  const bursts = groups.map((g) => {
    const readings = scales.map((sc) => readBurst(g, sc, { sorted, offsets, voices, perSecond, usualShare }));
    return readings.reduce((x, y) => (y.score > x.score ? y : x));
  });
  return bursts.sort((a, b) => b.score - a.score || a.onset - b.onset);
}

/** One group of active seconds read at one window scale: its onset, peak, end, counts and score. */
function readBurst(
  g: { from: number; to: number },
  sc: ChatterScale,
  ctx: { sorted: readonly ChatCommentInput[]; offsets: readonly number[]; voices: readonly (string | null)[]; perSecond: readonly number[]; usualShare: number },
): ChatBurst {
  const r = BURST_RULES;
  const { sorted, voices, perSecond, usualShare } = ctx;
  const { chatters, expected, z, half } = sc;
  let peak = g.from;
  for (let i = g.from; i <= g.to; i++) if (chatters[i]! > chatters[peak]!) peak = i;
  // The window reaches `half` seconds ahead, so the burst's first messages come at or a little after the first
  // active second.
  const end = g.to + half + 1;
  let first = firstAtOrAfter(ctx.offsets, g.from);
  let messages = 0;
  let reactions = 0;
  let pasted = 0;
  // The onset: the first second from the first active one where distinct chatters clearly beat a second's share.
  let onset = -1;
  for (let i = g.from; i <= peak && onset < 0; i++) {
    const e1 = expected[i]! / (2 * half + 1);
    if (perSecond[i]! >= Math.max(2, e1 + 2 * Math.sqrt(e1) + 0.5)) onset = i;
  }
  const perAccount = new Map<string, number>();
  for (; first < sorted.length && sorted[first]!.offset_seconds < end; first++) {
    const c = sorted[first]!;
    messages++;
    if (isReaction(c, voices[first])) reactions++;
    if (voices[first]?.startsWith(PASTED_VOICE)) pasted++;
    const key = chatterKey(c, first);
    perAccount.set(key, (perAccount.get(key) ?? 0) + 1);
  }
  if (onset < 0) onset = g.from;
  onset = Math.min(onset, peak);
  const top = Math.max(0, ...perAccount.values());
  const u = chatters[peak]!;
  const e = expected[peak]!;
  const reactionShare = messages > 0 ? reactions / messages : 0;
  const perChatter = perAccount.size > 0 ? messages / perAccount.size : 0;
  const confidence = Math.min(ramp(z[peak]!, r.minZ - 0.5, r.minZ + 2), ramp(u - e, r.minExtraChatters - 1, r.minExtraChatters + 3));
  // A small chat's burst is many times its baseline; a busy chat's is a few times it but very unlikely.
  const strength = Math.max(ramp(Math.log2(u / Math.max(1, e)), 1, 2.5), ramp(z[peak]!, 4, 10));
  const spamLike = ramp(perChatter, r.spamMessagesPerChatter[0], r.spamMessagesPerChatter[1]);
  // How much of chat's usual conversation gave way to reactions (1 - conversation share / usual share).
  const shift = Math.max(0, 1 - (1 - reactionShare) / Math.max(0.05, 1 - usualShare));
  const reacting = r.unshiftedWeight + (1 - r.unshiftedWeight) * ramp(shift, r.reactionShift[0], r.reactionShift[1]);
  const pasteWave = ramp(messages > 0 ? pasted / messages : 0, r.pastedShare[0], r.pastedShare[1]);
  const score = confidence * (0.75 * strength + 0.25) * reacting * (1 - 0.9 * spamLike) * (1 - 0.9 * pasteWave);
  return { onset, peak, end, chatters: u, expectedChatters: e, messages, topAccountMessages: top, reactionShare, usualReactionShare: usualShare, score };
}
