import { isProfane, isSlur, maskWord, profanityKey } from "./profanity";
import type { Word } from "./types";

/**
 * What a caption may show of a recogniser's words. A wrong word burned into a video is worse than a missing one
 * (a streamer cannot post "cunt what is the hardest" for "the second one is the hardest"), so doubtful words are
 * left out rather than guessed.
 *
 * Measured on the project's synthetic speech (pocketsphinx, accurate search; scripts/eval-captions.ts): about 64 %
 * of the recogniser's words are right. A word's own posterior alone tops out near 0.85 precision, because
 * misrecognitions come in runs where a few wrong words still score high ("likely" for "nice to", 0.95). Asking
 * the words around it (same phrase, two each side) to be confident as well removes most of those runs: 0.90 and
 * 0.93 on two 3-4 minute VODs, at a recall of about 0.2 (a fifth of what is said is shown). Shouting over loud
 * noise still yields confident wrong words (0.70 on a 75 s VOD that is one sixth shouting).
 */
export const TRUST = {
  /** A word's own confidence. */
  word: 0.5,
  /** Mean confidence of up to CONTEXT_WORDS neighbours on each side within the phrase. */
  context: 0.5,
  /** A word with no neighbour in its phrase has only itself to go by. */
  alone: 0.9,
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
 * The words a caption (burned and .srt alike) may show, in time order: confident words in a confident phrase;
 * profane words only when the recogniser is very sure of them and of their phrase and the corroborating text has
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
    if (isProfane(w.word)) {
      const sure = w.confidence !== undefined && own >= TRUST.profaneWord && (ctx ?? 0) >= TRUST.profaneContext;
      if (!sure || !corroboratedBy(opts.corroboration ?? [], w.word)) {
        profanityHeld++;
        leaveOut();
        return;
      }
      keep({ ...w, word: mask || isSlur(w.word) ? maskWord(w.word.trim()) : w.word.trim() });
      return;
    }
    const trusted = ctx === null ? own >= TRUST.alone : own >= TRUST.word && ctx >= TRUST.context;
    if (trusted) keep({ ...w, word: w.word.trim() });
    else {
      dropped++;
      leaveOut();
    }
  });
  return { words: out, dropped, profanityHeld, phrases };
}
