import type { SilenceRange } from "./types";

/**
 * Folds the 100 ms blocks of momentary loudness and the silences into per-second values as they stream in,
 * so only one number per second is kept.
 */
export interface PerSecondLevels {
  /** A block starting at `time` seconds with this momentary loudness (LUFS). */
  addBlock(time: number, momentaryLufs: number, blockSeconds?: number): void;
  addSilence(start: number, end: number): void;
  /** Seconds of audio seen so far (end of the last block). */
  readonly seenSeconds: number;
  finish(durationSeconds: number): { loudnessLufs: number[]; silences: SilenceRange[] };
}

const FLOOR_DB = -120;

export function createPerSecondLevels(): PerSecondLevels {
  const loud: number[] = [];
  const silences: SilenceRange[] = [];
  let seen = 0;

  return {
    get seenSeconds() {
      return seen;
    },
    addBlock(time, momentaryLufs, blockSeconds = 0.1) {
      // Attribute a block to the second holding its middle.
      const sec = Math.max(0, Math.floor(time + blockSeconds / 2));
      while (loud.length <= sec) loud.push(FLOOR_DB);
      seen = Math.max(seen, time + blockSeconds);
      const m = Number.isFinite(momentaryLufs) ? Math.max(FLOOR_DB, momentaryLufs) : FLOOR_DB;
      if (m > loud[sec]!) loud[sec] = m;
    },
    addSilence(start, end) {
      if (end > start) silences.push({ start: Math.max(0, start), end });
    },
    finish(durationSeconds) {
      const n = secondsCovering(durationSeconds);
      const loudnessLufs: number[] = [];
      for (let i = 0; i < n; i++) loudnessLufs.push(i < loud.length ? loud[i]! : FLOOR_DB);
      return { loudnessLufs, silences: silences.filter((s) => s.start < durationSeconds).map((s) => ({ start: s.start, end: Math.min(s.end, durationSeconds) })) };
    },
  };
}

/** Whole seconds of a duration; a trailing fraction under 0.25 s (codec padding) does not open a second. */
export function secondsCovering(durationSeconds: number): number {
  return Math.max(0, Math.ceil(durationSeconds - 0.25));
}
