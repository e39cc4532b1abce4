import type { MetadataFrame } from "./metadata-lines";
import { parseLevel } from "./metadata-lines";
import { powerToDb } from "./stats";
import type { SilenceRange } from "./types";

/**
 * Folds the 100 ms analysis frames (EBU R128 momentary loudness, astats RMS, silencedetect marks) into
 * per-second values as they stream in, so only one number per second and signal is kept.
 */
export interface PerSecondLevels {
  addFrame(frame: MetadataFrame): void;
  /** Seconds of audio seen so far (end of the last frame). */
  readonly seenSeconds: number;
  finish(durationSeconds: number): { loudnessLufs: number[]; rmsDb: number[]; silences: SilenceRange[] };
}

const FLOOR_DB = -120;

export function createPerSecondLevels(frameSeconds = 0.1): PerSecondLevels {
  const loud: number[] = [];
  const powerSum: number[] = [];
  const powerCount: number[] = [];
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
      while (loud.length <= sec) {
        loud.push(FLOOR_DB);
        powerSum.push(0);
        powerCount.push(0);
      }
      seen = Math.max(seen, time + frameSeconds);
      const m = parseLevel(values.get("lavfi.r128.M"));
      if (m !== null && m > loud[sec]!) loud[sec] = m;
      const rms = parseLevel(values.get("lavfi.astats.1.RMS_level"));
      if (rms !== null) {
        powerSum[sec]! += rms <= FLOOR_DB ? 0 : 10 ** (rms / 10);
        powerCount[sec]! += 1;
      }
      const start = values.get("lavfi.silence_start");
      if (start !== undefined) openSilence = Math.max(0, Number.parseFloat(start));
      const end = values.get("lavfi.silence_end");
      if (end !== undefined) {
        const e = Number.parseFloat(end);
        const dur = Number.parseFloat(values.get("lavfi.silence_duration") ?? "NaN");
        const s = openSilence ?? (Number.isFinite(dur) ? e - dur : e);
        if (e > s) silences.push({ start: s, end: e });
        openSilence = null;
      }
    },
    finish(durationSeconds) {
      const n = secondsCovering(durationSeconds);
      const loudnessLufs: number[] = [];
      const rmsDb: number[] = [];
      for (let i = 0; i < n; i++) {
        loudnessLufs.push(i < loud.length ? loud[i]! : FLOOR_DB);
        const c = i < powerCount.length ? powerCount[i]! : 0;
        rmsDb.push(c > 0 ? powerToDb(powerSum[i]! / c, FLOOR_DB) : FLOOR_DB);
      }
      // A silence still open at the end runs to the end of the audio.
      if (openSilence !== null && durationSeconds > openSilence) silences.push({ start: openSilence, end: durationSeconds });
      return { loudnessLufs, rmsDb, silences };
    },
  };
}

/** Whole seconds of a duration; a trailing fraction under 0.25 s (codec padding) does not open a second. */
export function secondsCovering(durationSeconds: number): number {
  return Math.max(0, Math.ceil(durationSeconds - 0.25));
}
