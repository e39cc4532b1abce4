import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

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

/** Imports of `files` that resolve into the repository's top-level folder `folder`, as "file -> specifier". */
async function importsInto(files: readonly string[], folder: string): Promise<string[]> {
  const offenders: string[] = [];
  for (const file of files) {
    for (const m of (await readFile(file, "utf8")).matchAll(SPECIFIER)) {
      const target = m[1]!.startsWith(".") ? path.resolve(path.dirname(file), m[1]!) : m[1]!;
      if (path.relative(ROOT, target).split(path.sep)[0] === folder) offenders.push(`${path.relative(ROOT, file)} -> ${m[1]}`);
    }
  }
  return offenders;
}

describe("the renderer stands on its own (dependencies point one way)", () => {
  it("no module of render-container/src imports the Worker (worker/)", async () => {
    const files = await tsFiles(path.join(ROOT, "render-container/src"));
    expect(files.length).toBeGreaterThan(20);
    expect(await importsInto(files, "worker")).toEqual([]);
  });

  it("the check sees such an import: the local job builder in the dev tooling uses the Worker's own rules", async () => {
    expect(await importsInto([path.join(ROOT, "dev/render-cli/local-job.ts")], "worker")).toEqual(["dev/render-cli/local-job.ts -> ../../worker/src/domain/prepare-job"]);
  });
});
