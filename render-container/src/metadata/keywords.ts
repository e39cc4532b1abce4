import { stopWordsFor } from "./stopwords";

/** Words of a text: letters (any script), digits and inner apostrophes; lowercase. */
export function tokenize(text: string): string[] {
  return (text.toLowerCase().normalize("NFC").match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu) ?? []).map((w) => w.replace(/’/g, "'"));
}

/**
 * The most frequent content words of one or more texts: stop words, numbers and words shorter than three
 * letters dropped; ties keep first appearance, so the result is deterministic.
 */
export function extractKeywords(texts: readonly (string | null | undefined)[], language: string, limit: number): string[] {
  const isStop = stopWordsFor(language);
  const counts = new Map<string, { n: number; first: number }>();
  let pos = 0;
  for (const text of texts) {
    if (!text) continue;
    for (const w of tokenize(text)) {
      pos++;
      if (w.length < 3 || /^\d+$/.test(w) || isStop(w) || isStop(w.replace(/'/g, ""))) continue;
      const c = counts.get(w);
      if (c) c.n++;
      else counts.set(w, { n: 1, first: pos });
    }
  }
  return [...counts.entries()]
    .sort((a, b) => b[1].n - a[1].n || a[1].first - b[1].first)
    .slice(0, limit)
    .map(([w]) => w);
}
