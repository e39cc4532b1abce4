import { isProfane, isSlur, maskWord, profanityKey } from "../captions/profanity";
import { chatLineProblem } from "./chat-lines";
import { extractKeywords, tokenize } from "./keywords";
import { isVagueWord, stopWordsFor } from "./stopwords";
import type { MomentKind } from "./title-templates";
import type { MetadataMoment } from "./types";

/**
 * What titles, stories and tags may be built from: text that is not a guess. Chat messages and emote names were
 * typed; the transcript holds only confidently recognised words (trustedWords), and even then a title quotes a
 * spoken phrase only as a run of words said one after another, and uses a single spoken word only when it was
 * said more than once or chat has it too. Profanity appears only when it was said (masked as the job asks);
 * slurs never.
 */

/** Chat at this multiple of its baseline "exploded"; above PICKED_UP it merely picked up. */
export const CHAT_EXPLODED = 2.5;
export const CHAT_PICKED_UP = 1.5;
/** Share of chat that is emotes, laughter and hype words that makes a livelier-than-usual chat a hype one. */
const HYPE_DENSITY = 0.3;
/** Loudness above the stream's baseline that counts as the streamer getting loud. */
export const LOUD_DB = 6;

/** Longest quote a title carries (characters, words). */
const QUOTE_CHARS = 42;
const QUOTE_WORDS = 6;

/**
 * The kind of moment from its signals: chat and streamer both erupting is hype; chat alone, the audience; the
 * streamer alone (loud), the streamer. Otherwise the profile that picked it, and for a balanced pick the larger
 * of its two scores.
 */
export function momentKind(m: Pick<MetadataMoment, "signals" | "profile">): MomentKind {
  const s = m.signals;
  const ratio = s?.chat_rate_ratio ?? null;
  const chatHot = ratio !== null && (ratio >= CHAT_EXPLODED || (ratio >= CHAT_PICKED_UP && (s?.hype_density ?? 0) >= HYPE_DENSITY));
  const loud = (s?.loudness_db_above_baseline ?? 0) >= LOUD_DB;
  if (chatHot && loud) return "hype";
  if (chatHot) return "audience";
  if (loud) return "streamer";
  if (m.profile !== "balanced") return m.profile;
  return s && s.audience_score > s.streamer_score ? "audience" : "streamer";
}

/** The transcript's words as written (masked words keep their stars), lowercase. */
function spokenForms(transcript: string | null): Set<string> {
  return new Set((transcript ?? "").toLowerCase().split(/\s+/).map((w) => w.replace(/^[^\p{L}\p{N}*]+|[^\p{L}\p{N}*]+$/gu, "")).filter(Boolean));
}

/**
 * A text fit to publish for this moment: null when it holds a slur, or a profane word that was not said (not
 * in the transcript, as said or as masked); the profane words that were said are masked unless `mask` is false.
 */
export function guardProfanity(text: string, transcript: string | null, mask: boolean): string | null {
  const said = spokenForms(transcript);
  let ok = true;
  const out = text.replace(/[\p{L}\p{N}']+/gu, (token) => {
    if (!isProfane(token)) return token;
    if (isSlur(token)) ok = false;
    const key = profanityKey(token);
    if (!said.has(key) && !said.has(maskWord(key))) ok = false;
    return mask ? maskWord(token) : token;
  });
  return ok ? out : null;
}

/**
 * A chat message as a title may quote it: links, @mentions and bot commands out, spam of one word collapsed
 * ("KEKW KEKW KEKW" -> "KEKW"), short enough for a title; null when nothing quotable is left.
 */
export function quotableChat(message: string): string | null {
  if (message.trim().startsWith("!")) return null;
  const words = message
    .replace(/https?:\/\/\S+|www\.\S+/gi, " ")
    .replace(/@\w+/g, " ")
    .split(/\s+/)
    .filter(Boolean);
  // Runs of one word: kept up to three times ("no no no"), a message of nothing but one word becomes that word.
  const collapsed: string[] = [];
  for (const w of words) {
    const run = collapsed.length >= 3 && collapsed.slice(-3).every((x) => x.toLowerCase() === w.toLowerCase());
    if (!run) collapsed.push(w);
  }
  const distinct = new Set(collapsed.map((w) => w.toLowerCase()));
  const phrase = (distinct.size === 1 ? [collapsed[0]!] : collapsed).join(" ");
  if (!/\p{L}/u.test(phrase) || /(.)\1{4,}/u.test(phrase)) return null;
  if ([...phrase].length > QUOTE_CHARS || collapsed.length > QUOTE_WORDS) return null;
  return phrase;
}

export interface Quote {
  text: string;
  /** Lowercase words, to compare subjects across moments. */
  key: string;
}

const keyOf = (text: string) => tokenize(text).join(" ");

export interface ChatQuote extends Quote {
  /** A content word of it was said in the moment: chat is repeating what the moment was about. */
  echoesSpeech: boolean;
}

/**
 * Chat phrases worth a title, best first: those that echo what was said, then phrases of several words, then by
 * how many accounts typed them (the pipeline hands over only what a crowd typed: chat-crowd.ts). A line that is
 * no reaction (promotion, greeting, question, small talk: chat-lines.ts) is never one, whoever handed it over.
 * Profanity only as guardProfanity allows.
 */
export function chatQuotes(m: MetadataMoment, language: string, mask: boolean): ChatQuote[] {
  // As said, and as said and masked ("b*******"): a guarded chat line shows a said swear word masked the same way.
  const spoken = new Set([...tokenize(m.transcript ?? ""), ...spokenForms(m.transcript)]);
  const isStop = stopWordsFor(language);
  const candidates = [...m.top_chat_messages, ...m.top_emotes]
    .map((msg, order) => ({ text: chatLineProblem(msg) === null ? quotableChat(msg) : null, order }))
    .flatMap(({ text, order }) => {
      if (!text) return [];
      const guarded = guardProfanity(text, m.transcript, mask);
      if (!guarded) return [];
      const words = tokenize(guarded);
      const echo = [...words, ...spokenForms(guarded)].filter((w) => spoken.has(w) && !isStop(w) && w.length >= 3).length;
      return [{ text: guarded, key: keyOf(guarded), echoesSpeech: echo > 0, score: 2 * Math.min(echo, 1) + (words.length >= 2 ? 1 : 0), order }];
    });
  const seen = new Set<string>();
  return candidates
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .filter((c) => c.key && !seen.has(c.key) && seen.add(c.key))
    .map(({ text, key, echoesSpeech }) => ({ text, key, echoesSpeech }));
}

/** Content words of a language: what a quote must hold and what chat must echo (not stop words, not numbers). */
function contentWordTest(language: string): (w: string) => boolean {
  const isStop = stopWordsFor(language);
  return (w) => {
    const t = tokenize(w)[0];
    return t !== undefined && t.length >= 3 && !/^\d+$/.test(t) && !isStop(t) && !isStop(t.replace(/'/g, "")) && !w.includes("*");
  };
}

/**
 * The spoken phrases a writer may quote: all of them from a remote recogniser; from the offline one only those
 * chat echoes (a content word of the phrase typed in the moment's chat), since its confident words still include
 * misheard ones (MetadataMoment.speech_offline).
 */
export function quotablePhrases(m: MetadataMoment, language: string): string[] {
  const phrases = m.spoken_phrases ?? [];
  if (!m.speech_offline) return phrases;
  const content = contentWordTest(language);
  const chat = new Set(m.top_chat_messages.flatMap((t) => tokenize(t)));
  return phrases.filter((p) => p.split(/\s+/).some((w) => content(w) && tokenize(w).some((t) => chat.has(t))));
}

/**
 * Spoken phrases worth quoting, best first: a run of at least two words said one after another (spoken_phrases)
 * with a content word in it, cut to at most six words around its content words; phrases that chat echoes rank
 * first, then phrases with more content words, then phrases without masked words.
 */
export function spokenQuotes(m: MetadataMoment, language: string, mask: boolean): Quote[] {
  const content = contentWordTest(language);
  const chat = new Set(m.top_chat_messages.flatMap((t) => tokenize(t)));
  const out: (Quote & { score: number; order: number })[] = [];
  quotablePhrases(m, language).forEach((phrase, order) => {
    const words = phrase.split(/\s+/).filter(Boolean);
    if (words.length < 2) return;
    // The window of up to QUOTE_WORDS words with the most content words (earliest on a tie).
    let best = { from: 0, to: Math.min(words.length, QUOTE_WORDS), n: -1 };
    for (let from = 0; from + 2 <= words.length; from++) {
      const to = Math.min(words.length, from + QUOTE_WORDS);
      const n = words.slice(from, to).filter(content).length;
      if (n > best.n) best = { from, to, n };
    }
    if (best.n < 1) return;
    let slice = words.slice(best.from, best.to);
    // No dangling function words at the end ("killed the dragon with" -> "killed the dragon").
    while (slice.length > 2 && !content(slice.at(-1)!)) slice = slice.slice(0, -1);
    const guarded = guardProfanity(slice.join(" "), m.transcript, mask);
    if (!guarded || [...guarded].length > QUOTE_CHARS) return;
    const echoed = tokenize(guarded).some((w) => chat.has(w) && content(w));
    // The offline recogniser's phrase passed quotablePhrases on a word this window may have cut off.
    if (m.speech_offline && !echoed) return;
    const masked = guarded.includes("*") ? 1 : 0;
    out.push({ text: guarded, key: keyOf(guarded), score: (echoed ? 4 : 0) + Math.min(best.n, 3) - masked, order });
  });
  const seen = new Set<string>();
  return out
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .filter((q) => !seen.has(q.key) && seen.add(q.key))
    .map(({ text, key }) => ({ text, key }));
}

/**
 * Spoken content words that are not a lone guess, most frequent first: said at least twice, or inside a spoken
 * phrase of two words or more, or typed by chat as well (from the offline recogniser: typed by chat, always).
 * Never profanity, never a masked word.
 */
export function reliableSpokenWords(m: MetadataMoment, language: string, limit: number): string[] {
  if (!m.transcript) return [];
  const counts = new Map<string, number>();
  for (const w of tokenize(m.transcript)) counts.set(w, (counts.get(w) ?? 0) + 1);
  const inPhrase = new Set((m.spoken_phrases ?? []).filter((p) => p.trim().split(/\s+/).length >= 2).flatMap((p) => tokenize(p)));
  const chat = new Set(m.top_chat_messages.flatMap((t) => tokenize(t)));
  const masked = new Set(m.transcript.split(/\s+/).filter((w) => w.includes("*")).flatMap((w) => tokenize(w)));
  return extractKeywords([m.transcript], language, 50)
    .filter((w) => !isProfane(w) && !masked.has(w) && !isVagueWord(w) && (m.speech_offline ? chat.has(w) : (counts.get(w) ?? 0) >= 2 || inPhrase.has(w) || chat.has(w)))
    .slice(0, limit);
}

/** Emote names fit for a tag or a story (never profane). */
export function cleanEmotes(m: MetadataMoment): string[] {
  return m.top_emotes.filter((e) => e.trim() && !isProfane(e));
}
