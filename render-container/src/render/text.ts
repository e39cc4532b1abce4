/**
 * Text drawn into video goes through DejaVu fonts, which have no emoji: pictographs would render as boxes.
 * They are removed (with their joiners and variation selectors), invisible format characters (soft hyphens,
 * direction marks) too, control characters and line breaks become spaces, and
 * runs of whitespace collapse. Everything else (quotes, colons, %, backslashes, accents) is kept as is:
 * drawtext reads it from a file with expansion off, and ASS text is escaped separately.
 */
export function sanitizeDisplayText(text: string): string {
  return text
    .normalize("NFC")
    .replace(/\p{Extended_Pictographic}|\p{Regional_Indicator}|[\u{1F3FB}-\u{1F3FF}\u200D\uFE0E\uFE0F\u20E3]/gu, "")
    .replace(/\p{Cf}/gu, "")
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Greedy word wrap to at most `maxLines` lines of `maxChars` characters; a word longer than a line is split,
 * and text that does not fit ends with an ellipsis.
 */
export function wrapText(text: string, maxChars: number, maxLines: number): string[] {
  const words = text.split(" ").filter(Boolean).flatMap((w) => chunk(w, maxChars));
  const lines: string[] = [];
  let current = "";
  let i = 0;
  for (; i < words.length; i++) {
    const w = words[i]!;
    const candidate = current ? `${current} ${w}` : w;
    if ([...candidate].length <= maxChars) {
      current = candidate;
      continue;
    }
    lines.push(current);
    current = w;
    if (lines.length === maxLines) break;
  }
  if (lines.length < maxLines && current) {
    lines.push(current);
    current = "";
    i = words.length;
  }
  if (i < words.length) {
    const last = lines[maxLines - 1] ?? "";
    const cut = [...last].slice(0, Math.max(0, maxChars - 1)).join("").trimEnd();
    lines[maxLines - 1] = `${cut}\u2026`;
  }
  return lines;
}

/**
 * wrapText with lines of even length: the same number of lines as the greedy wrap, at the narrowest width that
 * still gives that many, so a title does not end on a line holding one short word ("SynthStreamer's stream /
 * explodes in Synthetic / Quest" becomes "SynthStreamer's / stream explodes in / Synthetic Quest"). Text that
 * does not fit in `maxLines` is wrapped (and cut) as wrapText does.
 */
export function balancedWrap(text: string, maxChars: number, maxLines: number): string[] {
  const greedy = wrapText(text, maxChars, maxLines);
  // Nothing cut: the lines hold every character of the text (a word longer than a line is split, not dropped).
  const letters = (t: string) => t.replace(/\s+/g, "");
  const fits = (lines: string[]) => letters(lines.join("")) === letters(text);
  if (greedy.length <= 1 || !fits(greedy)) return greedy;
  const longestWord = Math.max(...text.split(" ").map((w) => [...w].length));
  for (let width = Math.max(longestWord, Math.ceil([...text].length / greedy.length)); width < maxChars; width++) {
    const lines = wrapText(text, width, maxLines);
    if (lines.length <= greedy.length && fits(lines)) return lines;
  }
  return greedy;
}

function chunk(word: string, size: number): string[] {
  const chars = [...word];
  if (chars.length <= size) return [word];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}
