/** Cuts text to `max` characters at a word boundary, ending with an ellipsis when cut; one line. */
export function limitText(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = [...flat];
  if (chars.length <= max) return flat;
  const cut = chars.slice(0, max - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?\u2013\u2014-]+$/u, "")}\u2026`;
}

/** Cuts a multi-line text to `max` characters, keeping whole lines where possible. */
export function limitMultiline(text: string, max: number): string {
  if ([...text].length <= max) return text;
  const lines = text.split("\n");
  const kept: string[] = [];
  let n = 0;
  for (const l of lines) {
    const len = [...l].length + 1;
    if (n + len > max) break;
    kept.push(l);
    n += len;
  }
  return kept.join("\n").trim() || limitText(text, max);
}
