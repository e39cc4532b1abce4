import type { TrustedWords } from "../captions/trusted-words";
import type { MetadataMoment } from "./types";

/**
 * A moment's `transcript` and `spoken_phrases` from what captions may show (trustedWords' result): only those
 * words, and phrases only as they were said one after another. With `range`, only the words inside it (the
 * moment's VOD seconds, when trustedWords ran over a longer stretch); a phrase cut by the range keeps its inside.
 */
export function momentSpeech(trusted: Pick<TrustedWords, "words" | "phrases">, range?: { start: number; end: number }): Pick<MetadataMoment, "transcript" | "spoken_phrases"> {
  const inside = (w: { start: number; end: number }) => !range || (w.start >= range.start - 0.05 && w.end <= range.end + 0.05);
  const words = trusted.words.filter(inside).map((w) => w.word);
  const phrases = trusted.phrases.map((p) => p.filter(inside).map((w) => w.word).join(" ")).filter(Boolean);
  return { transcript: words.length ? words.join(" ") : null, spoken_phrases: phrases };
}
