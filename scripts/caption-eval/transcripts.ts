import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { exists } from "../../dev/synth-vod/cache-dir";
import { PocketsphinxTranscriber } from "../../render-container/src/captions/pocketsphinx";
import type { Word } from "../../render-container/src/captions/types";

export interface Transcript {
  words: Word[];
  /** Wall time and CPU time (user + system) of the recogniser's run, as measured when it ran. */
  wallSeconds: number;
  cpuSeconds: number;
  /** Read from the cache rather than run now. */
  cached: boolean;
}

/** CPU seconds of this process's finished children (Linux /proc: cutime + cstime, in clock ticks of 1/100 s). */
async function childrenCpuSeconds(): Promise<number> {
  const stat = await readFile("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After "pid (comm) ", field 3 (state) is index 0, so cutime (field 16) and cstime (field 17) are 13 and 14.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/**
 * One pocketsphinx search over a wav, as the renderer runs it, kept on disk by the wav's content: the recogniser
 * is deterministic, and re-running it for every change of the caption filter would cost minutes each time.
 * Runs one search at a time so its CPU time can be told apart; `delaySeconds` as the cross-check runs it.
 */
export async function transcribeCached(cacheDir: string, wav: string, search: "accurate" | "fast", fresh = false, delaySeconds = 0): Promise<Transcript> {
  const variant = delaySeconds > 0 ? `${search}+${delaySeconds}` : search;
  const digest = createHash("sha256").update(await readFile(wav)).update(`${variant}\n${process.env.POCKETSPHINX_MODEL_DIR ?? ""}`).digest("hex").slice(0, 20);
  const file = path.join(cacheDir, `${digest}.json`);
  if (!fresh && (await exists(file))) {
    const saved = JSON.parse(await readFile(file, "utf8")) as Omit<Transcript, "cached">;
    return { ...saved, cached: true };
  }
  const cpu0 = await childrenCpuSeconds();
  const t0 = performance.now();
  const words = await new PocketsphinxTranscriber({ search, crossCheck: false, delaySeconds }).transcribe(wav, { language: "en" });
  const result = { words, wallSeconds: (performance.now() - t0) / 1000, cpuSeconds: (await childrenCpuSeconds()) - cpu0 };
  await mkdir(cacheDir, { recursive: true });
  await writeFile(`${file}.tmp`, JSON.stringify(result));
  await rename(`${file}.tmp`, file);
  return { ...result, cached: false };
}
