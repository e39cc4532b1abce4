import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/** Reads import specifiers from the sources, for tests that keep dependencies pointing one way. */

export const ROOT = path.resolve(import.meta.dirname, "../..");

export async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await tsFiles(p)));
    else if (entry.name.endsWith(".ts")) out.push(p);
  }
  return out;
}

const SPECIFIER = /(?:from\s+|import\s+|import\s*\(\s*|require\s*\(\s*)["']([^"']+)["']/g;

/**
 * Imports of `files` (type-only ones included) that resolve into `folder`, a path from the repository's root
 * ("worker", "worker/src/orchestration"), as "file -> specifier".
 */
export async function importsInto(files: readonly string[], folder: string): Promise<string[]> {
  const offenders: string[] = [];
  for (const file of files) {
    for (const m of (await readFile(file, "utf8")).matchAll(SPECIFIER)) {
      const target = m[1]!.startsWith(".") ? path.resolve(path.dirname(file), m[1]!) : m[1]!;
      const rel = path.relative(ROOT, target).split(path.sep).join("/");
      if (rel === folder || rel.startsWith(`${folder}/`)) offenders.push(`${path.relative(ROOT, file)} -> ${m[1]}`);
    }
  }
  return offenders;
}
