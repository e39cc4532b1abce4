import { artifactKey } from "./links";
import type { CrcBook } from "./zip-range-stream";

/**
 * The CRC-32 of a job's files, kept beside them in R2 (`jobs/<id>/.zip-crc32.json`; no artifact name starts with a
 * dot) and deleted with them. The first download-all computes them as the files pass through; every later one,
 * and every byte range, streams the files without touching their bytes. An entry counts only for a file of the
 * size it was computed for.
 */
export const CRC_INDEX_NAME = ".zip-crc32.json";

type IndexFile = Record<string, { size: number; crc: number }>;

async function readIndex(bucket: R2Bucket, jobId: string): Promise<IndexFile> {
  const object = await bucket.get(artifactKey(jobId, CRC_INDEX_NAME));
  if (!object) return {};
  try {
    return (await object.json()) as IndexFile;
  } catch {
    return {}; // A torn or foreign file: the CRCs are computed again.
  }
}

export async function crcIndex(bucket: R2Bucket, jobId: string, sizes: ReadonlyMap<string, number>): Promise<CrcBook> {
  const stored = await readIndex(bucket, jobId);
  const known = new Map<string, number>();
  for (const [name, size] of sizes) {
    const entry = stored[name];
    if (entry && entry.size === size && Number.isInteger(entry.crc)) known.set(name, entry.crc);
  }
  return {
    known,
    async learned(name, crc) {
      const size = sizes.get(name);
      if (size === undefined) return;
      // Read again before writing: a download of the same job running beside this one may have added others.
      const latest = await readIndex(bucket, jobId);
      latest[name] = { size, crc };
      await bucket.put(artifactKey(jobId, CRC_INDEX_NAME), JSON.stringify(latest), { httpMetadata: { contentType: "application/json" } });
    },
  };
}
