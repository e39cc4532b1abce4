import { createHash, randomBytes } from "node:crypto";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** Where generated media is kept between test runs (templates, speech clips, default VOD root). */
export function synthCacheRoot(): string {
  return process.env.SYNTH_VOD_CACHE ?? path.join(os.tmpdir(), "synth-vod-cache");
}

export function hashOf(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);
}

export async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds a directory once: fills a private temporary sibling, then renames it into place. Parallel test files
 * asking for the same thing both build, and the loser's copy is dropped, so nobody ever sees a half-made folder.
 */
export async function buildOnce(finalDir: string, build: (tmpDir: string) => Promise<void>): Promise<void> {
  if (await exists(finalDir)) return;
  await mkdir(path.dirname(finalDir), { recursive: true });
  const tmp = `${finalDir}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  await mkdir(tmp, { recursive: true });
  try {
    await build(tmp);
    try {
      await rename(tmp, finalDir);
    } catch (error) {
      if (!(await exists(finalDir))) throw error;
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
