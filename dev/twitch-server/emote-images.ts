import { deflateSync } from "node:zlib";

/**
 * The emotes the local Twitch server draws, by Twitch emote id (the global emotes the synthetic chat uses,
 * dev/synth-vod/phrases.ts): each a disc of its own colour with a white rim, so a test can tell an emote's
 * pixels from text. Any other id is 404, as Twitch answers for an emote that does not exist.
 */
export const LOCAL_EMOTES: Record<string, { name: string; rgb: [number, number, number] }> = {
  "305954156": { name: "PogChamp", rgb: [255, 176, 0] },
  "425618": { name: "LUL", rgb: [0, 200, 83] },
  "41": { name: "Kreygasm", rgb: [255, 64, 129] },
  "25": { name: "Kappa", rgb: [124, 77, 255] },
};

/** Twitch's scales: 1.0 is 28 px, 2.0 is 56 px, 3.0 is 112 px. */
export const EMOTE_SCALES: Record<string, number> = { "1.0": 28, "2.0": 56, "3.0": 112 };

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An RGBA PNG of `size` pixels square: the emote's disc on a transparent background. */
export function emotePng(id: string, size: number): Buffer | null {
  const emote = LOCAL_EMOTES[id];
  if (!emote) return null;
  const rows: Buffer[] = [];
  const r = size / 2;
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + 4 * size); // filter byte 0, then RGBA
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x + 0.5 - r, y + 0.5 - r);
      const [cr, cg, cb] = d > r * 0.82 ? [255, 255, 255] : emote.rgb;
      const alpha = d <= r - 0.5 ? 255 : d <= r + 0.5 ? Math.round(255 * (r + 0.5 - d)) : 0;
      row.set([cr, cg, cb, alpha], 1 + 4 * x);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(Buffer.concat(rows))), chunk("IEND", Buffer.alloc(0))]);
}
