import fs from "node:fs/promises";
import path from "node:path";

/**
 * A scratch folder next to the output (same disk, removed afterwards) for the small files a render needs:
 * title text, caption scripts, concat lists, pieces.
 */
export async function withScratchDir<T>(out: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(path.dirname(out), `.${path.basename(out)}.work-`));
  try {
    return await fn(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Runs `fn`; when it fails, deletes the half-written output so no caller mistakes it for a result. */
export async function removeOnFailure<T>(out: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    await fs.rm(out, { force: true });
    throw err;
  }
}
