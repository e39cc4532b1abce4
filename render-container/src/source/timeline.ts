import type { MediaSegment } from "../../../common/twitch";
import { fragmentStartSeconds, readFmp4Tracks, shiftFragment, type Fmp4Track } from "./fmp4-timestamps";
import { shiftTimestamps, startPtsSeconds } from "./mpegts-pts";

/** Jumps smaller than this at a discontinuity are left alone (#EXTINF rounding, not a real jump). */
const TOLERANCE_SECONDS = 0.05;

interface Clock {
  start(data: Uint8Array): number | null;
  shift(data: Uint8Array, seconds: number): boolean;
}

const MPEG_TS: Clock = { start: startPtsSeconds, shift: shiftTimestamps };

function fmp4Clock(tracks: Map<number, Fmp4Track>): Clock {
  return { start: (d) => fragmentStartSeconds(d, tracks), shift: (d, s) => shiftFragment(d, tracks, s) };
}

/**
 * Keeps a byte-joined file on one timeline across #EXT-X-DISCONTINUITY: where the timestamps of a new
 * discontinuity sequence do not continue, that sequence is shifted so its first segment starts at
 * `origin + segment.start` (the VOD time the playlist gives it), to the frame where the segment has video, to
 * within an audio frame (~21 ms) in the audio-only rendition. MPEG-TS (PES PTS/DTS, PCR) and fMP4 (tfdt, sidx,
 * given the initialisation section) alike. `origin` is the timestamp of VOD time 0: given (so several files
 * agree), or taken from the first segment seen. When `origin` is given, segments of sequence 0 are never moved.
 */
export class TimelineKeeper {
  private origin: number | null;
  private sequence: number | null = null;
  private shift = 0;
  private clock: Clock | null = null;
  private clockFor: Uint8Array | null = null;

  constructor(origin?: number) {
    this.origin = origin ?? null;
  }

  /** The bytes to write for this segment: the same buffer, or a shifted copy. `init`: its fMP4 init section. */
  align(segment: MediaSegment, data: Buffer, init: Buffer | null = null): Buffer {
    const clock = this.clockOf(data, init);
    if (!clock) return data;
    const sequence = segment.discontinuity_sequence ?? 0;
    const first = this.sequence === null;
    if (first || sequence !== this.sequence) {
      this.sequence = sequence;
      this.shift = this.shiftFor(clock, segment, data, first);
    }
    if (this.shift === 0) return data;
    const copy = Buffer.from(data);
    return clock.shift(copy, this.shift) ? copy : data;
  }

  private clockOf(data: Buffer, init: Buffer | null): Clock | null {
    if (data[0] === 0x47) return MPEG_TS;
    if (!init) return null;
    if (this.clockFor !== init) {
      const tracks = readFmp4Tracks(init);
      this.clock = tracks && tracks.size > 0 ? fmp4Clock(tracks) : null;
      this.clockFor = init;
    }
    return this.clock;
  }

  private shiftFor(clock: Clock, segment: MediaSegment, data: Buffer, first: boolean): number {
    const actual = clock.start(data);
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
