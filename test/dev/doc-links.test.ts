import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every relative link in README.md and docs/ leads somewhere: the file (or folder) exists, and an anchor
 * (`#heading`) names a heading of the Markdown file it points into, slugged the way GitHub slugs headings. Links
 * inside code (fenced blocks, inline code spans) are text, not links, and are not followed; web addresses are
 * docs-stand-alone.test.ts's business.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");

function documents(): string[] {
  const docs = readdirSync(path.join(ROOT, "docs"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md"))
    .map((f) => path.join("docs", f));
  return ["README.md", ...docs];
}

/** The Markdown outside fenced code blocks, with inline code spans blanked (same length, so nothing shifts). */
export function prose(markdown: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) {
      fence = marker;
      out.push("");
    } else if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      out.push("");
    } else {
      out.push(line.replace(/(`+)[^`]*?\1/g, (m) => " ".repeat(m.length)));
    }
  }
  return out.join("\n");
}

/**
 * GitHub's anchor for a heading's text (github-slugger): the rendered text lower-cased, every character that is not
 * a letter, mark, number, connector (`_`), hyphen or space removed, spaces turned into hyphens. A repeated slug
 * gets `-1`, `-2`, ...
 */
export function slug(headingText: string): string {
  const rendered = headingText
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // links and images: their text
    .replace(/<[^>]+>/g, "") // inline HTML tags
    .replace(/`/g, "") // code spans keep their text
    .replace(/(\*\*|__|\*|~~)/g, ""); // emphasis (a lone `_` inside a word is text, as in LINK_SIGNING_KEY)
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a Markdown file offers: its headings' slugs (with GitHub's numbering of repeats) and HTML ids. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  const original = markdown.split("\n");
  const outsideCode = prose(markdown).split("\n");
  for (let i = 0; i < original.length; i++) {
    if (!/^\s{0,3}#{1,6}\s/.test(outsideCode[i]!)) continue;
    // prose() blanked inline code, which is part of a heading's text: slug the original line.
    const base = slug(original[i]!.replace(/^\s{0,3}#{1,6}\s+/, "").replace(/\s+#+\s*$/, ""));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    found.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(m[1]!);
  return found;
}

/** The targets of inline links `[text](target)` and reference definitions `[label]: target` outside code. */
export function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const references = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!);
  return [...inline, ...references];
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let found = anchorCache.get(file);
  if (!found) {
    found = anchors(readFileSync(file, "utf8"));
    anchorCache.set(file, found);
  }
  return found;
}

/** What is wrong with one link of `doc` (a path from the repository root), or null when it resolves. */
function problem(doc: string, link: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link)) return null; // https:, mailto:, ...
  const hash = link.indexOf("#");
  const target = decodeURIComponent(hash === -1 ? link : link.slice(0, hash));
  const anchor = hash === -1 ? null : decodeURIComponent(link.slice(hash + 1));
  const file = target === "" ? path.join(ROOT, doc) : path.resolve(ROOT, path.dirname(doc), target);
  if (!existsSync(file)) return `${link}: no such file`;
  if (anchor === null) return null;
  if (statSync(file).isDirectory() || !file.endsWith(".md")) return `${link}: an anchor into something that is not a Markdown file`;
  return anchorsOf(file).has(anchor) ? null : `${link}: no heading with the anchor #${anchor} in ${path.relative(ROOT, file)}`;
}

describe("links between README.md and docs/", () => {
  it("slugs headings the way GitHub does", () => {
    expect(slug("How a job runs (the task model)")).toBe("how-a-job-runs-the-task-model");
    expect(slug("Rotating LINK_SIGNING_KEY")).toBe("rotating-link_signing_key");
    expect(slug("Settings (`WATCHDOG_SECONDS=600`)")).toBe("settings-watchdog_seconds600");
    expect(slug("The Container path, run locally (`npm run test:containers`)")).toBe(
      "the-container-path-run-locally-npm-run-testcontainers",
    );
    expect(slug("Stopping: `sleepAfter`, `onActivityExpired`, `renewActivityTimeout` (0.3.7)")).toBe(
      "stopping-sleepafter-onactivityexpired-renewactivitytimeout-037",
    );
    expect(slug("POST /jobs")).toBe("post-jobs");
    expect(slug("Job record (GET /jobs/{id}, items of GET /jobs)")).toBe("job-record-get-jobsid-items-of-get-jobs");
    expect([...anchors("# A\n## Notes\n```\n# not a heading\n```\n## Notes\n")]).toEqual(["a", "notes", "notes-1"]);
  });

  it("finds links outside code only", () => {
    const md = "[a](x.md) `[b](y.md)`\n```\n[c](z.md)\n```\n[d]: w.md#top\n";
    expect(linkTargets(md)).toEqual(["x.md", "w.md#top"]);
  });

  for (const doc of documents()) {
    it(`${doc}: every relative link and anchor resolves`, () => {
      const links = linkTargets(readFileSync(path.join(ROOT, doc), "utf8"));
      const broken = links.map((link) => problem(doc, link)).filter((p) => p !== null);
      expect(broken).toEqual([]);
    });
  }
});
