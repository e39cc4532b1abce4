import { CAPTION_PAUSE_SECONDS } from "./cues";
import { functionWordsFor } from "./function-words";
import { isProfane, isSlur, maskWord, profanityKey } from "./profanity";
import type { Word } from "./types";
import { writtenCase } from "./written-case";

/**
 * What a caption may show of a recogniser's words. A wrong word burned into a video is worse than a missing one
 * (a streamer cannot post "cunt what is the hardest" for "the second one is the hardest"), so doubtful words are
 * left out rather than guessed.
 *
 * Measured on the project's synthetic speech (pocketsphinx, accurate search; scripts/eval-captions.ts): about 60 %
 * of the recogniser's words are right. A word's own posterior alone tops out near 0.85 precision, because
 * misrecognitions come in runs where a few wrong words still score high ("likely" for "nice to", 0.95). Three
 * rules, each removing errors the others let through:
 *   - context: the words around it (same phrase, two each side) must be confident as well (this rule alone:
 *     0.83 precision at recall 0.17);
 *   - border: no word right next to one the recogniser all but rejected (below 0.15): the edge of a misheard
 *     stretch is where a confident wrong word sits ("just a little bit *of* [that 0.14]");
 *   - cross-check: when the recogniser ran more searches (pocketsphinx's fast one, twice, over the audio delayed 5
 *     and 15 ms: other frames than the accurate search's), each must have heard the same word at the same time;
 *     this removes two thirds of the wrong words the rules above let through and a quarter of the right ones
 *     (precision 0.86 -> 0.92 tuning, 0.85 -> 0.93 held out).
 * Requiring runs of several confident words, by contrast, does not help: the wrong words come in confident runs
 * too. Audio measures (voice-band SNR, spectral flatness per word) did not separate right from wrong words either.
 */
export const TRUST = {
  /** A word's own confidence. */
  word: 0.5,
  /** Mean confidence of up to CONTEXT_WORDS neighbours on each side within the phrase. */
  context: 0.5,
  /** A word with no neighbour in its phrase has only itself to go by. */
  alone: 0.9,
  /** Neither neighbour right next to a word (in its phrase) may be below this. */
  border: 0.15,
  /** A profane word: the recogniser must be this sure of it and of its neighbours... */
  profaneWord: 0.9,
  profaneContext: 0.7,
} as const;

const CONTEXT_WORDS = 2;
/** A pause longer than this ends a phrase: words of one pocketsphinx utterance follow each other within 0.3 s. */
const PHRASE_GAP_SECONDS = 0.3;

export interface TrustedWordsOptions {
  /**
   * Show a profane word that passed the guard as "f***" (default true). Slurs are always masked. A `parameters`
   * option of the job request (`mask_profanity`).
   */
  maskProfanity?: boolean;
  /**
   * Text that was really typed or said around these words (the chat messages of the moment): a profane word is
   * shown only when this independent evidence has it too, never on the recogniser's word alone.
   */
  corroboration?: readonly string[];
  /**
   * The speech's language: a function word of it ("the", "it") with no other shown word within a caption's pause
   * is left out, since alone on screen it says nothing. No rule for a language without a list (function-words.ts).
   */
  language?: string | null;
}

export interface TrustedWords {
  words: Word[];
  /** How many words were left out as doubtful, and how many profane words the guard held back. */
  dropped: number;
  profanityHeld: number;
  /**
   * The kept words as runs that were said one after another: a run ends where a word was left out (doubtful or
   * held back) or at a pause. What a title may quote as a spoken phrase (joining kept words across a gap would
   * make a sentence nobody said).
   */
  phrases: Word[][];
}

/** Mean confidence of the neighbours of words[i] inside its phrase; null when it has none. */
function contextConfidence(words: readonly Word[], i: number): number | null {
  let sum = 0;
  let n = 0;
  for (const dir of [-1, 1]) {
    let prev = words[i]!;
    for (let k = 1; k <= CONTEXT_WORDS; k++) {
      const w = words[i + dir * k];
      if (!w) break;
      const gap = dir < 0 ? prev.start - w.end : w.start - prev.end;
      if (gap > PHRASE_GAP_SECONDS) break;
      sum += w.confidence ?? 1;
      n++;
      prev = w;
    }
  }
  return n ? sum / n : null;
}

/** Lowest confidence of the words right before and after words[i] in its phrase; null when it has none. */
function borderConfidence(words: readonly Word[], i: number): number | null {
  let low: number | null = null;
  const w = words[i]!;
  const before = words[i - 1];
  const after = words[i + 1];
  if (before && w.start - before.end <= PHRASE_GAP_SECONDS) low = before.confidence ?? 1;
  if (after && after.start - w.end <= PHRASE_GAP_SECONDS) low = Math.min(low ?? 1, after.confidence ?? 1);
  return low;
}

function corroboratedBy(texts: readonly string[], word: string): boolean {
  const key = profanityKey(word);
  if (!key) return false;
  // The same word, or the same swear word in another form ("fucking" in the caption, "fuck" in chat).
  const stem = key.slice(0, 4);
  return texts.some((t) =>
    (t.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []).some((w) => {
      const k = profanityKey(w);
      return k === key || (isProfane(k) && k.startsWith(stem));
    }),
  );
}

/**
 * The words a caption (burned and .srt alike) may show, in time order: confident words in a confident phrase,
 * not bordering a word the recogniser all but rejected, and heard by the checking searches when they ran; profane
 * words only when the recogniser is very sure of them and of their phrase and the corroborating text has
 * them too, masked unless `maskProfanity` is false. Words without a confidence (a recogniser that reports none)
 * are kept on the confidence rules but still go through the profanity guard.
 */
export function trustedWords(words: readonly Word[], opts: TrustedWordsOptions = {}): TrustedWords {
  const sorted = [...words].filter((w) => w.word.trim() && w.end >= w.start).sort((a, b) => a.start - b.start);
  const mask = opts.maskProfanity ?? true;
  const out: Word[] = [];
  const phrases: Word[][] = [];
  let run: Word[] = [];
  let dropped = 0;
  let profanityHeld = 0;
  const keep = (w: Word) => {
    const last = run.at(-1);
    if (last && w.start - last.end > PHRASE_GAP_SECONDS) run = [];
    if (run.length === 0) phrases.push(run);
    run.push(w);
    out.push(w);
  };
  const leaveOut = () => {
    run = [];
  };
  sorted.forEach((w, i) => {
    const own = w.confidence ?? 1;
    const ctx = contextConfidence(sorted, i);
    // Checking searches that did not all hear the word there outvote any confidence (absent: none ran).
    const heardTwice = w.crossChecked !== false;
    const border = borderConfidence(sorted, i) ?? 1;
    if (isProfane(w.word)) {
      const sure = w.confidence !== undefined && own >= TRUST.profaneWord && (ctx ?? 0) >= TRUST.profaneContext && heardTwice && border >= TRUST.border;
      if (!sure || !corroboratedBy(opts.corroboration ?? [], w.word)) {
        profanityHeld++;
        leaveOut();
        return;
      }
      keep({ ...w, word: mask || isSlur(w.word) ? maskWord(w.word.trim()) : w.word.trim() });
      return;
    }
    const confident = ctx === null ? own >= TRUST.alone : own >= TRUST.word && ctx >= TRUST.context;
    const trusted = confident && border >= TRUST.border && heardTwice;
    if (trusted) keep({ ...w, word: writtenCase(w.word.trim(), opts.language) });
    else {
      dropped++;
      leaveOut();
    }
  });
  const lone = loneFunctionWords(out, opts.language);
  if (lone.size === 0) return { words: out, dropped, profanityHeld, phrases };
  return {
    words: out.filter((w) => !lone.has(w)),
    dropped: dropped + lone.size,
    profanityHeld,
    phrases: phrases.map((p) => p.filter((w) => !lone.has(w))).filter((p) => p.length > 0),
  };
}

/** Kept function words with no other kept word within CAPTION_PAUSE_SECONDS: a caption of its own. */
function loneFunctionWords(kept: readonly Word[], language: string | null | undefined): Set<Word> {
  const isFunction = functionWordsFor(language);
  const lone = new Set<Word>();
  if (!isFunction) return lone;
  kept.forEach((w, i) => {
    const before = kept[i - 1];
    const after = kept[i + 1];
    const near = (before !== undefined && w.start - before.end <= CAPTION_PAUSE_SECONDS) || (after !== undefined && after.start - w.end <= CAPTION_PAUSE_SECONDS);
    if (!near && isFunction(w.word)) lone.add(w);
  });
  return lone;
}
