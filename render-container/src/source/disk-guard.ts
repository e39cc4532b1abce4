import { statfs } from "node:fs/promises";
import { SourceError } from "./source-error";

/** Disk kept free while downloading: the encodes write their outputs to the same disk afterwards. */
export const DEFAULT_MIN_FREE_BYTES = 512 * 1024 * 1024;

const mb = (bytes: number) => Math.max(0, Math.round(bytes / 1e6));

function diskFull(detail: string, cause?: unknown): SourceError {
  return new SourceError(
    "disk_full",
    `The renderer ran out of disk space while downloading the VOD (${detail}). Please try again later; a shorter reel or fewer shorts need less source video.`,
    cause === undefined ? undefined : { cause },
  );
}

/** Throws disk_full unless `bytes` more still leave `minFreeBytes` free on the disk holding `dir`. */
export async function ensureDiskRoom(dir: string, bytes: number, minFreeBytes: number): Promise<void> {
  if (!(minFreeBytes > 0)) return;
  const fs = await statfs(dir);
  const free = fs.bavail * fs.bsize;
  if (free - bytes < minFreeBytes) {
    throw diskFull(`${mb(free)} MB free, ${mb(bytes)} MB to write, ${mb(minFreeBytes)} MB must stay free for rendering`);
  }
}

/** A write that failed because the disk (or quota) is full becomes disk_full; anything else is passed on. */
export function asDiskFull(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === "ENOSPC" || code === "EDQUOT" ? diskFull("no space left on the device", error) : error;
}
