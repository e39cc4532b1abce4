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
