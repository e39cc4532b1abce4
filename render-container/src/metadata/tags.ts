import { LIMITS } from "./types";

/** Cleans, de-duplicates (case-insensitively) and bounds tags to what video platforms accept. */
export function normalizeTags(candidates: readonly (string | null | undefined)[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const c of candidates) {
    if (!c) continue;
    const tag = c.replace(/[#,<>"]/g, " ").replace(/\s+/g, " ").trim().slice(0, LIMITS.tagLength).trim();
    const key = tag.toLowerCase();
    if (tag.length < 2 || seen.has(key)) continue;
    if (total + tag.length + (out.length ? 1 : 0) > LIMITS.tagsTotal) break;
    seen.add(key);
    out.push(tag);
    total += tag.length + (out.length > 1 ? 1 : 0);
    if (out.length === LIMITS.tagCount) break;
  }
  return out;
}

/** `#CamelCase` hashtags from tags (letters and digits only; tags with nothing left are skipped). */
export function hashtags(tags: readonly string[], limit: number): string {
  return tags
    .map((t) =>
      t
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean)
        .map((w) => w[0]!.toUpperCase() + w.slice(1))
        .join(""),
    )
    .filter((h) => h.length >= 2)
    .slice(0, limit)
    .map((h) => `#${h}`)
    .join(" ");
}
