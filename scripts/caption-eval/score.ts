/**
 * Scores recognised caption words against what a synthetic VOD's speaker actually said (truth.json's sentences,
 * spoken by espeak-ng). Independent of the renderer's caption code: its own tokenizer and its own timing model.
 *
 * The generator knows each sentence's start and end, not each word's, so a word's expected time is estimated by
 * its position in the sentence's characters (espeak-ng speaks at a steady rate). A recognised word counts as
 * right when the same word was said within `toleranceSeconds` of that estimate, each spoken word matched at most
 * once (nearest first).
 */
export interface SpokenSentence {
  text: string;
  start: number;
  end: number;
  /** Silent in the media (a DMCA-muted segment): nothing to hear, left out of the score. */
  muted?: boolean;
}

export interface TimedWord {
  word: string;
  start: number;
  end: number;
}

export interface SpokenToken {
  word: string;
  /** Estimated time the word is said, seconds. */
  start: number;
  end: number;
  sentence: number;
}

export interface CaptionScore {
  /** Recognised (shown) words. */
  shown: number;
  /** Shown words that were said at that time. */
  correct: number;
  /** Words said inside the scored ranges. */
  spoken: number;
  precision: number;
  recall: number;
  /** Shown words that are wrong, with their times, for reports. */
  wrong: TimedWord[];
  /** Shown profane words that nobody said (per `isProfane`). */
  unsaidProfanity: TimedWord[];
}

/** Lowercase letters, digits and inner apostrophes; pocketsphinx's pronunciation marks `(2)` removed. */
export function normalizeWord(word: string): string {
  return word
    .toLowerCase()
    .replace(/\(\d+\)$/, "")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, "")
    .replace(/^'+|'+$/g, "");
}

const EXPANSIONS: Record<string, string[]> = {
  alright: ["all", "right"],
  "let's": ["let", "us"],
  "won't": ["will", "not"],
  "can't": ["can", "not"],
  "i'm": ["i", "am"],
};

/**
 * One written word as the words it stands for, so "I'm" said is "I am" recognised and "alright" is "all right":
 * a contraction or a spelling variant is the same speech, not an error.
 */
export function canonicalWords(word: string): string[] {
  const w = normalizeWord(word);
  if (!w) return [];
  const fixed = EXPANSIONS[w];
  if (fixed) return fixed;
  const m = /^(.+?)('ll|'re|'ve|'d|n't|'s)$/.exec(w);
  if (!m) return [w];
  const tail = { "'ll": "will", "'re": "are", "'ve": "have", "'d": "would", "n't": "not", "'s": "is" }[m[2]!]!;
  return [m[1]!, tail];
}

/** Every spoken word with a time estimated from its character position in the sentence. */
export function spokenTokens(sentences: readonly SpokenSentence[]): SpokenToken[] {
  const out: SpokenToken[] = [];
  sentences.forEach((s, index) => {
    if (s.muted) return;
    const text = s.text;
    const total = text.length || 1;
    const re = /\S+/g;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const a = m.index / total;
      const b = (m.index + m[0].length) / total;
      for (const word of canonicalWords(m[0])) out.push({ word, start: s.start + a * (s.end - s.start), end: s.start + b * (s.end - s.start), sentence: index });
    }
  });
  return out;
}

export interface ScoreOptions {
  /** How far from its estimated time a word may be recognised, seconds. Default 1. */
  toleranceSeconds?: number;
  /** Only words said inside these ranges count as spoken (what was transcribed); default everything. */
  ranges?: readonly { start: number; end: number }[];
  isProfane?: (word: string) => boolean;
}

function distance(w: TimedWord, t: SpokenToken): number {
  const mid = (w.start + w.end) / 2;
  if (mid >= t.start && mid <= t.end) return 0;
  return Math.min(Math.abs(mid - t.start), Math.abs(mid - t.end));
}

export function scoreCaptionWords(shown: readonly TimedWord[], sentences: readonly SpokenSentence[], opts: ScoreOptions = {}): CaptionScore {
  const tolerance = opts.toleranceSeconds ?? 1;
  const inRanges = (t: { start: number; end: number }) =>
    !opts.ranges || opts.ranges.some((r) => (t.start + t.end) / 2 >= r.start && (t.start + t.end) / 2 <= r.end);
  const tokens = spokenTokens(sentences).filter(inRanges);
  // A shown word that stands for two ("I'm") is right when both were said there; it counts once.
  const shownWords = shown.map((w) => ({ ...w, parts: canonicalWords(w.word) })).filter((w) => w.parts.length > 0);
  const words = shownWords.flatMap((w, owner) => w.parts.map((word) => ({ ...w, word, owner })));
  // Candidate pairs, nearest first: a greedy one-to-one matching.
  const pairs: { w: number; t: number; d: number }[] = [];
  words.forEach((w, wi) => {
    tokens.forEach((t, ti) => {
      if (t.word !== w.word) return;
      const d = distance(w, t);
      if (d <= tolerance) pairs.push({ w: wi, t: ti, d });
    });
  });
  pairs.sort((a, b) => a.d - b.d);
  const usedW = new Set<number>();
  const usedT = new Set<number>();
  for (const p of pairs) {
    if (usedW.has(p.w) || usedT.has(p.t)) continue;
    usedW.add(p.w);
    usedT.add(p.t);
  }
  const said = new Set(tokens.map((t) => t.word));
  const rightOwners = new Set<number>();
  shownWords.forEach((_, owner) => {
    const parts = words.map((w, i) => ({ w, i })).filter((x) => x.w.owner === owner);
    if (parts.every((x) => usedW.has(x.i))) rightOwners.add(owner);
  });
  const strip = ({ word, start, end }: { word: string; start: number; end: number }): TimedWord => ({ word, start, end });
  const wrong = shownWords.filter((_, i) => !rightOwners.has(i)).map(strip);
  return {
    shown: shownWords.length,
    correct: rightOwners.size,
    spoken: tokens.length,
    precision: shownWords.length ? rightOwners.size / shownWords.length : 1,
    recall: tokens.length ? usedT.size / tokens.length : 1,
    wrong,
    unsaidProfanity: opts.isProfane ? shownWords.filter((w) => opts.isProfane!(normalizeWord(w.word)) && !said.has(normalizeWord(w.word))).map(strip) : [],
  };
}
