import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * README.md and docs/ are read in a fresh clone: every file they point to must be in the repository. Markdown links
 * (other than web addresses and anchors) and code-formatted paths under a top-level folder of the repository must
 * exist, and nothing may climb out of the clone (`../something` from the root) or name a machine's own folders.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const TOP_LEVEL = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith(".") && d.name !== "node_modules")
  .map((d) => d.name);

function documents(): string[] {
  const docs = readdirSync(path.join(ROOT, "docs"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md"))
    .map((f) => path.join("docs", f));
  return ["README.md", ...docs];
}

/** Inside the repository once resolved from `from` (a document's folder). */
function inside(from: string, target: string): boolean {
  const resolved = path.resolve(ROOT, from, target);
  return resolved === ROOT || resolved.startsWith(ROOT + path.sep);
}

describe("README and docs/ stand alone", () => {
  for (const doc of documents()) {
    const text = readFileSync(path.join(ROOT, doc), "utf8");
    const dir = path.dirname(doc);

    it(`${doc}: every link to a file points into the repository, at a file that exists`, () => {
      const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^(https?:|mailto:|#)/.test(t));
      for (const link of links) {
        const target = link.split("#")[0]!;
        expect(inside(dir, target), link).toBe(true);
        expect(existsSync(path.resolve(ROOT, dir, target)), link).toBe(true);
      }
    });

    it(`${doc}: names no path outside the clone`, () => {
      // `../README.md` from docs/ stays inside; the same from the root would leave the clone.
      const escapes = [...text.matchAll(/(?:^|[\s`("'[])(\.\.\/[^\s`)"']*)/gm)]
        .map((m) => m[1]!)
        .filter((target) => !inside(dir, target.split("#")[0]!));
      expect(escapes).toEqual([]);
      expect(text).not.toMatch(/\/work\/|\/home\/[a-z]|C:\\Users/);
    });

    it(`${doc}: code-formatted repository paths exist`, () => {
      const paths = [...text.matchAll(/`([A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)+\/?)`/g)]
        .map((m) => m[1]!)
        .filter((p) => TOP_LEVEL.includes(p.split("/")[0]!));
      expect(paths.length).toBeGreaterThan(0);
      for (const p of paths) expect(existsSync(path.join(ROOT, p)), p).toBe(true);
    });
  }
});
