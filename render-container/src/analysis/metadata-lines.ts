/**
 * Incremental parser for ffmpeg's `ametadata=mode=print` output: a `frame:N pts:P pts_time:T` header line
 * followed by `key=value` lines. Frames are emitted one by one so a 6-hour pass never holds its text.
 */

export interface MetadataFrame {
  /** Seconds since the start of the filtered stream. */
  time: number;
  values: Map<string, string>;
}

export interface MetadataLineParser {
  push(line: string): void;
  /** Emits the last frame; call once the stream has ended. */
  end(): void;
}

const HEADER = /^frame:\s*\d+\s+pts:\s*-?\d+\s+pts_time:\s*(-?[\d.]+(?:e[-+]?\d+)?)/;

export function createMetadataLineParser(onFrame: (frame: MetadataFrame) => void): MetadataLineParser {
  let current: MetadataFrame | null = null;
  const flush = () => {
    if (current) onFrame(current);
    current = null;
  };
  return {
    push(line) {
      const header = HEADER.exec(line);
      if (header) {
        flush();
        current = { time: Number.parseFloat(header[1]!), values: new Map() };
        return;
      }
      if (!current) return;
      const eq = line.indexOf("=");
      if (eq > 0) current.values.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
    },
    end: flush,
  };
}

/** ffmpeg prints `-inf`/`inf`/`nan` for digital silence; those become the floor so sums stay finite. */
export function parseLevel(value: string | undefined, floorDb = -120): number | null {
  if (value === undefined) return null;
  const n = Number.parseFloat(value);
  if (Number.isNaN(n)) return value.includes("inf") ? (value.startsWith("-") ? floorDb : null) : null;
  if (!Number.isFinite(n)) return n < 0 ? floorDb : null;
  return Math.max(floorDb, n);
}
