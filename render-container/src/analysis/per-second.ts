import type { MetadataFrame } from "./metadata-lines";
import { parseLevel } from "./metadata-lines";
import type { SilenceRange } from "./types";

/**
 * Folds the 100 ms analysis frames (EBU R128 momentary loudness) and silencedetect's marks into per-second
 * values as they stream in, so only one number per second is kept.
 */
export interface PerSecondLevels {
  addFrame(frame: MetadataFrame): void;
  silenceStart(time: number): void;
  silenceEnd(end: number, durationSeconds: number): void;
  /** Seconds of audio seen so far (end of the last frame). */
  readonly seenSeconds: number;
  finish(durationSeconds: number): { loudnessLufs: number[]; silences: SilenceRange[] };
}

const FLOOR_DB = -120;

export function createPerSecondLevels(frameSeconds = 0.1): PerSecondLevels {
  const loud: number[] = [];
  const silences: SilenceRange[] = [];
  let openSilence: number | null = null;
  let seen = 0;

  return {
    get seenSeconds() {
      return seen;
    },
    addFrame({ time, values }) {
      // Attribute a frame to the second holding its middle: frames straddle boundaries by a few ms.
      const sec = Math.max(0, Math.floor(time + frameSeconds / 2));
      while (loud.length <= sec) loud.push(FLOOR_DB);
      seen = Math.max(seen, time + frameSeconds);
      const m = parseLevel(values.get("lavfi.r128.M"));
      if (m !== null && m > loud[sec]!) loud[sec] = m;
    },
    silenceStart(time) {
      openSilence = Math.max(0, time);
    },
    silenceEnd(end, durationSeconds) {
      const start = openSilence ?? (Number.isFinite(durationSeconds) ? end - durationSeconds : end);
      if (end > start) silences.push({ start, end });
      openSilence = null;
    },
    finish(durationSeconds) {
      const n = secondsCovering(durationSeconds);
      const loudnessLufs: number[] = [];
      for (let i = 0; i < n; i++) loudnessLufs.push(i < loud.length ? loud[i]! : FLOOR_DB);
      // A silence still open at the end runs to the end of the audio.
      if (openSilence !== null && durationSeconds > openSilence) silences.push({ start: openSilence, end: durationSeconds });
      return { loudnessLufs, silences };
    },
  };
}

/** Whole seconds of a duration; a trailing fraction under 0.25 s (codec padding) does not open a second. */
export function secondsCovering(durationSeconds: number): number {
  return Math.max(0, Math.ceil(durationSeconds - 0.25));
}
