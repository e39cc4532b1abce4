import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");

async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await tsFiles(p)));
    else if (entry.name.endsWith(".ts")) out.push(p);
  }
  return out;
}

const SPECIFIER = /(?:from\s+|import\s+|import\s*\(\s*|require\s*\(\s*)["']([^"']+)["']/g;

describe("the renderer speaks only the Twitch protocol", () => {
  it("no module of render-container/src or common/ imports the local Twitch server or the VOD generator (dev/)", async () => {
    const files = [...(await tsFiles(path.join(ROOT, "render-container/src"))), ...(await tsFiles(path.join(ROOT, "common")))];
    expect(files.length).toBeGreaterThan(20);
    const offenders: string[] = [];
    for (const file of files) {
      for (const m of (await readFile(file, "utf8")).matchAll(SPECIFIER)) {
        const target = m[1]!.startsWith(".") ? path.resolve(path.dirname(file), m[1]!) : m[1]!;
        if (path.relative(ROOT, target).split(path.sep)[0] === "dev") offenders.push(`${path.relative(ROOT, file)} -> ${m[1]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
