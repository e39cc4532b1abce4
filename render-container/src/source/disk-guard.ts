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

/** Bytes an unprivileged process may still write on the disk holding `dir`. */
export async function diskFreeBytes(dir: string): Promise<number> {
  const fs = await statfs(dir);
  return fs.bavail * fs.bsize;
}

/**
 * Throws disk_full unless `bytes` more still leave `minFreeBytes` free on the disk holding `dir`. Returns the
 * bytes that remain above the reserve after this write.
 */
export async function ensureDiskRoom(dir: string, bytes: number, minFreeBytes: number, freeBytes = diskFreeBytes): Promise<number> {
  if (!(minFreeBytes > 0)) return Number.POSITIVE_INFINITY;
  const free = await freeBytes(dir);
  if (free - bytes < minFreeBytes) {
    throw diskFull(`${mb(free)} MB free, ${mb(bytes)} MB to write, ${mb(minFreeBytes)} MB must stay free for rendering`);
  }
  return free - bytes - minFreeBytes;
}

/**
 * A download's view of the disk: asks the file system again only once this download has written a quarter of
 * what was above the reserve at the last look (other downloads of the job write beside it), instead of once per
 * segment (a 3-hour audio rendition is over a thousand segments per span).
 */
export class DiskRoom {
  private allowance = 0;
  constructor(
    private readonly dir: string,
    private readonly minFreeBytes: number,
    private readonly freeBytes = diskFreeBytes,
  ) {}

  async admit(bytes: number): Promise<void> {
    if (bytes <= this.allowance) {
      this.allowance -= bytes;
      return;
    }
    this.allowance = (await ensureDiskRoom(this.dir, bytes, this.minFreeBytes, this.freeBytes)) / 4;
  }
}

/** A write that failed because the disk (or quota) is full becomes disk_full; anything else is passed on. */
export function asDiskFull(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === "ENOSPC" || code === "EDQUOT" ? diskFull("no space left on the device", error) : error;
}
