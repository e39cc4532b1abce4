import type { MediaSegment } from "../../../common/twitch";
import { shiftTimestamps, startPtsSeconds } from "./mpegts-pts";

/** Jumps smaller than this at a discontinuity are left alone (#EXTINF rounding, not a real jump). */
const TOLERANCE_SECONDS = 0.05;

/**
 * Keeps a byte-joined MPEG-TS file on one timeline across #EXT-X-DISCONTINUITY: where the timestamps of a new
 * discontinuity sequence do not continue, that sequence is shifted so its first segment starts at
 * `origin + segment.start` (the VOD time the playlist gives it), to the frame where the segment has video, to
 * within an audio frame (~21 ms) in the audio-only rendition. `origin` is the timestamp of VOD time 0: given
 * (so several files agree), or taken from the first segment seen. Segments of the sequence the first one belongs to
 * are never moved when `origin` is given for sequence 0. fMP4 and other non-TS data pass through unchanged.
 */
export class TimelineKeeper {
  private origin: number | null;
  private sequence: number | null = null;
  private shift = 0;

  constructor(origin?: number) {
    this.origin = origin ?? null;
  }

  /** The bytes to write for this segment: the same buffer, or a shifted copy. */
  align(segment: MediaSegment, data: Buffer): Buffer {
    const sequence = segment.discontinuity_sequence ?? 0;
    const first = this.sequence === null;
    if (first || sequence !== this.sequence) {
      this.sequence = sequence;
      this.shift = this.shiftFor(segment, data, first);
    }
    if (this.shift === 0) return data;
    const copy = Buffer.from(data);
    return shiftTimestamps(copy, this.shift) ? copy : data;
  }

  private shiftFor(segment: MediaSegment, data: Buffer, first: boolean): number {
    const actual = startPtsSeconds(data);
    if (actual === null) return 0;
    if (this.origin === null) {
      this.origin = actual - segment.start;
      return 0;
    }
    if (first && (segment.discontinuity_sequence ?? 0) === 0) return 0;
    const shift = this.origin + segment.start - actual;
    return Math.abs(shift) < TOLERANCE_SECONDS ? 0 : shift;
  }
}
