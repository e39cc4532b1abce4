/**
 * The first presentation timestamp in an MPEG-TS buffer, in seconds (90 kHz clock). Playlist durations
 * (#EXTINF) only approximate where a segment starts, and segments piped into ffmpeg one after another cannot
 * be seeked, so the analysis cuts its spans on these timestamps instead.
 */
const PACKET = 188;
const SYNC = 0x47;

export function firstPtsSeconds(data: Uint8Array): number | null {
  for (let off = 0; off + PACKET <= data.length; off += PACKET) {
    if (data[off] !== SYNC) return null;
    const payloadStart = (data[off + 1]! & 0x40) !== 0;
    if (!payloadStart) continue;
    const adaptation = (data[off + 3]! >> 4) & 0x3;
    if (adaptation === 0 || adaptation === 2) continue; // no payload
    let p = off + 4;
    if (adaptation === 3) p += 1 + data[p]!;
    const end = off + PACKET;
    // PES: start code 00 00 01, stream id, length, flags; audio 0xC0-0xDF, video 0xE0-0xEF, private 0xBD.
    if (p + 14 > end || data[p] !== 0 || data[p + 1] !== 0 || data[p + 2] !== 1) continue;
    const streamId = data[p + 3]!;
    if (!(streamId === 0xbd || (streamId >= 0xc0 && streamId <= 0xef))) continue;
    const ptsDtsFlags = data[p + 7]! >> 6;
    if ((ptsDtsFlags & 0x2) === 0) continue;
    const b = (i: number) => data[p + 9 + i]!;
    const pts = ((b(0) >> 1) & 0x7) * 2 ** 30 + (b(1) << 22) + ((b(2) >> 1) << 15) + (b(3) << 7) + (b(4) >> 1);
    return pts / 90000;
  }
  return null;
}

/**
 * Where a segment starts on its own clock: the smallest video PTS in it (segments are cut at video keyframes,
 * so this is the boundary to the frame), else the smallest audio PTS (within one audio frame of it). null when
 * the buffer is not MPEG-TS or holds no timestamp.
 */
export function startPtsSeconds(data: Uint8Array): number | null {
  let video = Number.POSITIVE_INFINITY;
  let audio = Number.POSITIVE_INFINITY;
  for (let off = 0; off + PACKET <= data.length; off += PACKET) {
    if (data[off] !== SYNC) break;
    if ((data[off + 1]! & 0x40) === 0) continue;
    const adaptation = (data[off + 3]! >> 4) & 0x3;
    if (!(adaptation & 0x1)) continue;
    const p = off + 4 + (adaptation & 0x2 ? 1 + data[off + 4]! : 0);
    if (p + 14 > off + PACKET || data[p] !== 0 || data[p + 1] !== 0 || data[p + 2] !== 1) continue;
    const streamId = data[p + 3]!;
    if ((data[p + 7]! >> 6 & 0x2) === 0) continue;
    const pts = readTimestamp(data, p + 9) / 90000;
    if (streamId >= 0xe0 && streamId <= 0xef) video = Math.min(video, pts);
    else if ((streamId >= 0xc0 && streamId <= 0xdf) || streamId === 0xbd) audio = Math.min(audio, pts);
  }
  if (Number.isFinite(video)) return video;
  return Number.isFinite(audio) ? audio : null;
}

const WRAP = 2 ** 33;
const CLOCK = 90000;

function readTimestamp(data: Uint8Array, at: number): number {
  return ((data[at]! >> 1) & 0x7) * 2 ** 30 + (data[at + 1]! << 22) + ((data[at + 2]! >> 1) << 15) + (data[at + 3]! << 7) + (data[at + 4]! >> 1);
}

/** Writes a 33-bit PES timestamp, keeping its 4-bit prefix and marker bits. */
function writeTimestamp(data: Uint8Array, at: number, value: number): void {
  const high = Math.floor(value / 2 ** 30) & 0x7;
  const low = value % 2 ** 30;
  data[at] = (data[at]! & 0xf1) | (high << 1);
  data[at + 1] = (low >> 22) & 0xff;
  data[at + 2] = (((low >> 15) & 0x7f) << 1) | 1;
  data[at + 3] = (low >> 7) & 0xff;
  data[at + 4] = ((low & 0x7f) << 1) | 1;
}

function shiftClock(data: Uint8Array, at: number, ticks: number): void {
  // 33-bit base of a PCR/OPCR (the 9-bit extension is left as it is).
  const base = data[at]! * 2 ** 25 + data[at + 1]! * 2 ** 17 + data[at + 2]! * 2 ** 9 + data[at + 3]! * 2 + (data[at + 4]! >> 7);
  const next = (((base + ticks) % WRAP) + WRAP) % WRAP;
  data[at] = Math.floor(next / 2 ** 25) & 0xff;
  data[at + 1] = Math.floor(next / 2 ** 17) & 0xff;
  data[at + 2] = Math.floor(next / 2 ** 9) & 0xff;
  data[at + 3] = Math.floor(next / 2) & 0xff;
  data[at + 4] = (data[at + 4]! & 0x7f) | ((next & 1) << 7);
}

/** PES stream ids without the optional header that carries PTS/DTS. */
const NO_PES_HEADER = new Set([0xbc, 0xbe, 0xbf, 0xf0, 0xf1, 0xf2, 0xf8, 0xff]);

/**
 * Moves every timestamp of an MPEG-TS buffer (PES PTS/DTS, PCR and OPCR) by `seconds`, in place. Used where a
 * playlist's #EXT-X-DISCONTINUITY makes timestamps jump, so a byte-joined file still runs on one timeline.
 * Returns false (and changes nothing) when the buffer is not MPEG-TS.
 */
export function shiftTimestamps(data: Uint8Array, seconds: number): boolean {
  if (data.length < PACKET || data[0] !== SYNC) return false;
  const ticks = Math.round(seconds * CLOCK);
  for (let off = 0; off + PACKET <= data.length; off += PACKET) {
    if (data[off] !== SYNC) return true; // trailing garbage: leave it
    const adaptation = (data[off + 3]! >> 4) & 0x3;
    let p = off + 4;
    if (adaptation & 0x2) {
      const length = data[p]!;
      if (length > 0) {
        const flags = data[p + 1]!;
        let q = p + 2;
        if (flags & 0x10) {
          shiftClock(data, q, ticks);
          q += 6;
        }
        if (flags & 0x08) shiftClock(data, q, ticks);
      }
      p += 1 + length;
    }
    if (!(adaptation & 0x1) || (data[off + 1]! & 0x40) === 0) continue;
    const end = off + PACKET;
    if (p + 14 > end || data[p] !== 0 || data[p + 1] !== 0 || data[p + 2] !== 1 || NO_PES_HEADER.has(data[p + 3]!)) continue;
    const ptsDts = data[p + 7]! >> 6;
    if (ptsDts & 0x2) writeTimestamp(data, p + 9, (((readTimestamp(data, p + 9) + ticks) % WRAP) + WRAP) % WRAP);
    if (ptsDts === 0x3 && p + 19 <= end) writeTimestamp(data, p + 14, (((readTimestamp(data, p + 14) + ticks) % WRAP) + WRAP) % WRAP);
  }
  return true;
}
