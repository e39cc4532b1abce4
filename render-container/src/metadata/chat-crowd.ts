import type { ChatComment } from "../../../common/twitch";
import { reactionKind } from "../analysis/chat-lexicon";
import { typedEmoteNames, typedEmotes } from "../analysis/emote-names";
import { firstAtOrAfter } from "../analysis/stats";
import { chatLineProblem, matchForm, visibleText } from "./chat-lines";
import { quotableChat } from "./reliable-text";
import type { MetadataMoment } from "./types";

/**
 * What chat typed around a moment that a title or story may quote: only what a crowd of distinct voices
 * reacting typed. Raw message counts are what spam wins: one account on a loop, a line pasted by a handful of
 * accounts (a copypasta, a follow-bot network), or the stream's usual small talk, which is typed all the time
 * and so also during a moment. Here a line counts by the distinct accounts that typed it, and must be:
 * - typed inside a burst: somewhere in the moment's reaction window, more distinct voices within a few seconds
 *   than this stream usually has (with no burst, chat reacted to nothing and nothing is quoted);
 * - typed by several accounts, and by a share of the window's voices (a phrase two accounts agree on is chance);
 * - more frequent in the window than usual, over the stream and over the minutes around it (small talk,
 *   "lol" on every minute, is not what this moment was about);
 * - not a line chat-lines.ts rules out (command, link, promotion, greeting, question, chain, small talk);
 * - not pasted: a line of several words typed identically, to the character (invisible ones aside: bots add
 *   them to get past Twitch's duplicate filter), by every account that typed it;
 * - from an account not on a loop (three messages within half a minute anywhere around the window: all of its
 *   messages there are left out; a genuine viewer who cheers three times is one voice among many anyway).
 * Reaction words and emotes ("KEKW", "no way") also count inside longer messages ("no way KEKW").
 */
export const CROWD_RULES = {
  /** Chat reacts seconds after what it saw, sometimes half a minute late (a stream delay): the window runs past the end. */
  tailSeconds: 30,
  loopMessages: 3,
  loopWindowSeconds: 30,
  /** Distinct voices are compared over stretches this long: the length of a crowd's reaction. */
  burstSeconds: 10,
  /** A burst has at least this many voices in one stretch... */
  minBurstVoices: 6,
  /** ...and this many times the stream's median stretch. */
  burstLift: 2,
  /** A quoted line is typed by at least this many accounts... */
  minAccounts: 3,
  /** ...and by this share of the window's voices (a crowd's reactions spread over many wordings). */
  minShare: 0.05,
  /** A line is this many times more frequent in the window than usual (expectedIn)... */
  lift: 3,
  /** ...usual over the whole stream, and over this many seconds either side of the window. */
  aroundSeconds: 300,
  /** A line of this many words typed identically by several accounts is pasted, not reacted. */
  pastedWords: 4,
  maxLines: 8,
  maxEmotes: 5,
} as const;

export interface CrowdLine {
  /** As most of its accounts typed it (quotableChat's form). */
  text: string;
  /** Distinct accounts that typed it in the window. */
  accounts: number;
}

export interface CrowdReaction {
  /** Distinct voices in the window (accounts on a loop and ruled-out lines not counted). */
  voices: number;
  /** Whether the window holds a burst of voices; without one, `lines` and `emotes` are empty. */
  burst: boolean;
  /** Quotable lines, most accounts first. */
  lines: CrowdLine[];
  /** Twitch emotes (emote fragments) typed by enough accounts, most accounts first. */
  emotes: CrowdLine[];
}

type CrowdComment = Pick<ChatComment, "offset_seconds" | "commenter_login" | "text"> & { fragments?: ChatComment["fragments"] };

interface Message {
  at: number;
  account: string;
  /** A line chat-lines.ts does not rule out: a voice a crowd is counted in. */
  voiced: boolean;
  /** Quotable form and its key, when the line may be quoted at all. */
  quote: { text: string; key: string } | null;
  /** The reaction words in it, with their keys (counted inside longer lines too). */
  words: { text: string; key: string }[];
  emotes: string[];
  /** visibleText, to tell a pasted line (identical) from a crowd typing alike. */
  visible: string;
}

/** Reaction words of a line: words that alone are laughter, hype or an emote ("KEKW", "LUL", "W"). */
function reactionWords(text: string): string[] {
  // An emote's name is an emote (counted as one, below), not a word of the line.
  return [...new Set(text.split(/\s+/).filter((w) => /\p{L}/u.test(w) && reactionKind(w, 0) !== null && reactionKind(w, 0) !== "shout" && typedEmotes(w) === 0))];
}

function increment<K>(map: Map<K, number>, key: K, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

function median(values: number[]): number {
  if (!values.length) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** A job's chat, read once, asked about each moment's reaction. */
export class ChatCrowd {
  private readonly messages: Message[];
  /** Per account, the times of its messages that are part of a loop. */
  private readonly loops = new Map<string, number[]>();
  /** Over the whole stream: when each line key, reaction word and emote was typed (accounts on a loop left out). */
  private readonly streamTimes = { lines: new Map<string, number[]>(), words: new Map<string, number[]>(), emotes: new Map<string, number[]>() };
  private readonly first: number;
  private readonly span: number;
  private readonly usualVoices: number;

  constructor(comments: readonly CrowdComment[]) {
    const sorted = [...comments].sort((a, b) => a.offset_seconds - b.offset_seconds);
    // Chat repeats itself: each distinct text is read once (a 6-hour chat of 200k messages has far fewer texts).
    const read = new Map<string, Pick<Message, "voiced" | "quote" | "words" | "visible"> | null>();
    const readText = (text: string) => {
      let got = read.get(text);
      if (got !== undefined) return got;
      const problem = chatLineProblem(text);
      const visible = visibleText(text);
      const quotable = problem === null ? quotableChat(visible) : null;
      got =
        problem === "command"
          ? null
          : {
              voiced: problem === null,
              quote: quotable ? { text: quotable, key: matchForm(quotable) } : null,
              words: problem === null ? reactionWords(visible).map((w) => ({ text: w, key: matchForm(w) })) : [],
              visible,
            };
      read.set(text, got);
      return got;
    };
    this.messages = sorted.flatMap((c, i) => {
      const text = readText(c.text);
      if (!text) return [];
      // Emotes Twitch marked, or in a replay that marks none, the emote names typed as words (emote-names.ts).
      const marked = (c.fragments ?? []).filter((f) => f.emote_id && f.text.trim()).map((f) => f.text.trim());
      const emotes = text.voiced ? [...new Set(marked.length > 0 ? marked : typedEmoteNames(text.visible))] : [];
      return [{ at: c.offset_seconds, account: c.commenter_login ? `u:${c.commenter_login.toLowerCase()}` : `anon:${i}`, ...text, emotes }];
    });
    this.findLoops();
    const counted = this.messages.filter((m) => !this.onLoop(m.account, m.at, m.at));
    const typedAt = (map: Map<string, number[]>, key: string, at: number) => {
      const list = map.get(key);
      if (list) list.push(at);
      else map.set(key, [at]);
    };
    for (const m of counted) {
      if (m.quote) typedAt(this.streamTimes.lines, m.quote.key, m.at);
      for (const w of m.words) typedAt(this.streamTimes.words, w.key, m.at);
      for (const e of m.emotes) typedAt(this.streamTimes.emotes, e, m.at);
    }
    const first = this.messages[0]?.at ?? 0;
    this.first = first;
    this.span = Math.max(1, (this.messages.at(-1)?.at ?? 0) - first + 1);
    // The usual number of voices in a stretch: the median over the stream's consecutive stretches, empty ones too.
    const size = CROWD_RULES.burstSeconds;
    const perStretch: Set<string>[] = Array.from({ length: Math.ceil(this.span / size) }, () => new Set());
    for (const m of counted) if (m.voiced) perStretch[Math.floor((m.at - first) / size)]!.add(m.account);
    this.usualVoices = median(perStretch.map((s) => s.size));
  }

  /** Messages of one account within loopWindowSeconds of each other, loopMessages or more of them. */
  private findLoops(): void {
    const r = CROWD_RULES;
    const times = new Map<string, number[]>();
    for (const m of this.messages) {
      const list = times.get(m.account);
      if (list) list.push(m.at);
      else times.set(m.account, [m.at]);
    }
    for (const [account, list] of times) {
      const looped = new Set<number>();
      for (let k = 0; k + r.loopMessages - 1 < list.length; k++) {
        if (list[k + r.loopMessages - 1]! - list[k]! > r.loopWindowSeconds) continue;
        for (let j = k; j < k + r.loopMessages; j++) looped.add(list[j]!);
      }
      if (looped.size) this.loops.set(account, [...looped]);
    }
  }

  /** The account posted on a loop within loopWindowSeconds of [from, to]. */
  private onLoop(account: string, from: number, to: number): boolean {
    const w = CROWD_RULES.loopWindowSeconds;
    return this.loops.get(account)?.some((t) => t >= from - w && t <= to + w) ?? false;
  }

  /** Chat's reaction to the moment [start, end] (VOD seconds, chat time), read until tailSeconds after its end. */
  during(start: number, end: number): CrowdReaction {
    const r = CROWD_RULES;
    const to = end + r.tailSeconds;
    const inWindow: Message[] = [];
    for (let i = this.firstAt(start); i < this.messages.length && this.messages[i]!.at <= to; i++) {
      const m = this.messages[i]!;
      if (!this.onLoop(m.account, start, to)) inWindow.push(m);
    }
    const voiced = inWindow.filter((m) => m.voiced);
    const voices = new Set(voiced.map((m) => m.account)).size;
    const burst = this.peakVoices(voiced) >= Math.max(r.minBurstVoices, r.burstLift * this.usualVoices);
    if (!burst) return { voices, burst, lines: [], emotes: [] };

    const needed = Math.max(r.minAccounts, Math.ceil(r.minShare * voices));
    const expected = (times: readonly number[] | undefined) => this.expectedIn(times ?? [], start, to);

    type Tally = { accounts: Set<string>; forms: Map<string, number>; visible: Set<string>; messages: number; first: number };
    const tally = (map: Map<string, Tally>, key: string, text: string, m: Message, order: number) => {
      const t = map.get(key) ?? { accounts: new Set(), forms: new Map(), visible: new Set(), messages: 0, first: order };
      t.accounts.add(m.account);
      increment(t.forms, text);
      t.visible.add(m.visible);
      t.messages++;
      map.set(key, t);
    };
    const lines = new Map<string, Tally>();
    const words = new Map<string, Tally>();
    const emotes = new Map<string, { accounts: Set<string>; messages: number }>();
    voiced.forEach((m, order) => {
      if (m.quote) tally(lines, m.quote.key, m.quote.text, m, order);
      for (const w of m.words) tally(words, w.key, w.text, m, order);
      for (const name of m.emotes) {
        const e = emotes.get(name) ?? { accounts: new Set(), messages: 0 };
        e.accounts.add(m.account);
        e.messages++;
        emotes.set(name, e);
      }
    });

    const quoted: (CrowdLine & { first: number })[] = [];
    for (const [key, l] of lines) {
      // A reaction word typed inside other lines counts those accounts too ("KEKW" in "no way KEKW"); a word
      // nobody typed alone is not quoted alone ("clip" out of "clip it").
      const accounts = Math.max(l.accounts.size, words.get(key)?.accounts.size ?? 0);
      const messages = Math.max(l.messages, words.get(key)?.messages ?? 0);
      const usual = Math.max(expected(this.streamTimes.lines.get(key)), expected(this.streamTimes.words.get(key)));
      if (accounts < needed || messages < r.lift * usual) continue;
      const text = [...l.forms.entries()].sort((a, b) => b[1] - a[1])[0]![0];
      const isReaction = reactionKind(text, 0) !== null && reactionKind(text, 0) !== "shout";
      const pasted = !isReaction && key.split(" ").length >= r.pastedWords && l.visible.size === 1;
      if (pasted) continue;
      quoted.push({ text, accounts, first: l.first });
    }
    const typed: CrowdLine[] = [];
    for (const [name, e] of emotes) {
      if (e.accounts.size >= needed && e.messages >= r.lift * expected(this.streamTimes.emotes.get(name))) typed.push({ text: name, accounts: e.accounts.size });
    }
    return {
      voices,
      burst,
      lines: quoted
        .sort((a, b) => b.accounts - a.accounts || a.first - b.first)
        .slice(0, r.maxLines)
        .map(({ text, accounts }) => ({ text, accounts })),
      emotes: typed.sort((a, b) => b.accounts - a.accounts).slice(0, r.maxEmotes),
    };
  }

  /**
   * How many times a line would be typed in [start, to] at its usual rate: the larger of its rate over the rest
   * of the stream and over the ten minutes around the window (chat's conversation comes in waves, and small
   * talk with it). `times` in time order.
   */
  private expectedIn(times: readonly number[], start: number, to: number): number {
    const length = to - start + 1;
    const count = (from: number, until: number) => firstAtOrAfter(times, until) - firstAtOrAfter(times, from);
    const inside = count(start, to + 1e-6);
    const stream = Math.max(0, times.length - inside) * (length / Math.max(1, this.span - length));
    const around = CROWD_RULES.aroundSeconds;
    const last = this.first + this.span - 1;
    const covered = Math.max(0, Math.min(around, start - this.first)) + Math.max(0, Math.min(around, last - to));
    const near = count(start - around, start) + count(to + 1e-6, to + around + 1e-6);
    // Too little of the stream around the window (its first minute) says nothing about the local rate.
    return Math.max(stream, covered >= 60 ? near * (length / covered) : 0);
  }

  /** Index of the first message at or after `t` (messages are in time order). */
  private firstAt(t: number): number {
    let lo = 0;
    let hi = this.messages.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.messages[mid]!.at < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The most distinct voices within any burstSeconds of the window (messages in time order). */
  private peakVoices(messages: readonly Message[]): number {
    const inStretch = new Map<string, number>();
    let best = 0;
    let lo = 0;
    for (const m of messages) {
      increment(inStretch, m.account);
      while (messages[lo]!.at <= m.at - CROWD_RULES.burstSeconds) {
        const left = inStretch.get(messages[lo]!.account)! - 1;
        if (left <= 0) inStretch.delete(messages[lo]!.account);
        else inStretch.set(messages[lo]!.account, left);
        lo++;
      }
      best = Math.max(best, inStretch.size);
    }
    return best;
  }
}

/** A moment's chat as the writers take it: only the crowd's reaction (types.ts, MetadataMoment.top_chat_messages). */
export function momentChat(reaction: CrowdReaction): Pick<MetadataMoment, "top_chat_messages" | "top_emotes" | "chat_crowd"> {
  return {
    top_chat_messages: reaction.lines.map((l) => l.text),
    top_emotes: reaction.emotes.map((e) => e.text),
    chat_crowd: { voices: reaction.voices, lines: reaction.lines },
  };
}
