import { readFileSync } from "node:fs";

/**
 * Advance widths of a TrueType font, read from its own tables (cmap, hmtx, head, hhea, OS/2): the chat overlay
 * lays out its lines itself (wrapping, and where an emote image goes after a run of text), so it must know how
 * wide libass will draw a string. Kerning is left out (a pixel or two per line); characters the font lacks are
 * drawn by libass from a fallback font, and are counted one em wide.
 */
export class FontMetrics {
  private readonly advances: Uint16Array;
  private readonly glyphOf: Map<number, number>;
  readonly unitsPerEm: number;
  /** libass sizes a font so that winAscent + winDescent spans the ASS font size (VSFilter's convention). */
  private readonly lineUnits: number;

  constructor(file: string) {
    const buf = readFileSync(file);
    const tables = new Map<string, number>();
    const count = buf.readUInt16BE(4);
    for (let i = 0; i < count; i++) tables.set(buf.toString("latin1", 12 + 16 * i, 16 + 16 * i), buf.readUInt32BE(20 + 16 * i));
    const at = (tag: string) => {
      const offset = tables.get(tag);
      if (offset === undefined) throw new Error(`${file}: no ${tag} table`);
      return offset;
    };
    this.unitsPerEm = buf.readUInt16BE(at("head") + 18);
    const metricsCount = buf.readUInt16BE(at("hhea") + 34);
    const hmtx = at("hmtx");
    this.advances = new Uint16Array(metricsCount);
    for (let g = 0; g < metricsCount; g++) this.advances[g] = buf.readUInt16BE(hmtx + 4 * g);
    const os2 = tables.get("OS/2");
    this.lineUnits = os2 !== undefined ? buf.readUInt16BE(os2 + 74) + buf.readUInt16BE(os2 + 76) : this.unitsPerEm;
    this.glyphOf = readCmap(buf, at("cmap"));
  }

  /** Width in pixels of `text` drawn by libass at ASS font size `size` (script units = pixels). */
  width(text: string, size: number): number {
    const scale = size / this.lineUnits;
    let units = 0;
    for (const ch of text) {
      const glyph = this.glyphOf.get(ch.codePointAt(0)!);
      units += glyph === undefined ? this.lineUnits : this.advances[Math.min(glyph, this.advances.length - 1)]!;
    }
    return units * scale;
  }
}

/** Code point -> glyph id from the Unicode cmap subtables (format 12 when present, else format 4). */
function readCmap(buf: Buffer, cmap: number): Map<number, number> {
  const map = new Map<number, number>();
  const subtables = buf.readUInt16BE(cmap + 2);
  let format4: number | null = null;
  let format12: number | null = null;
  for (let i = 0; i < subtables; i++) {
    const platform = buf.readUInt16BE(cmap + 4 + 8 * i);
    const encoding = buf.readUInt16BE(cmap + 6 + 8 * i);
    const offset = cmap + buf.readUInt32BE(cmap + 8 + 8 * i);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode) continue;
    const format = buf.readUInt16BE(offset);
    if (format === 12) format12 = offset;
    else if (format === 4) format4 = offset;
  }
  if (format12 !== null) {
    const groups = buf.readUInt32BE(format12 + 12);
    for (let g = 0; g < groups; g++) {
      const base = format12 + 16 + 12 * g;
      const first = buf.readUInt32BE(base);
      const last = buf.readUInt32BE(base + 4);
      const glyph = buf.readUInt32BE(base + 8);
      for (let c = first; c <= last && c - first < 0x10000; c++) map.set(c, glyph + (c - first));
    }
    return map;
  }
  if (format4 === null) return map;
  const segments = buf.readUInt16BE(format4 + 6) / 2;
  const ends = format4 + 14;
  const starts = ends + 2 * segments + 2;
  const deltas = starts + 2 * segments;
  const rangeOffsets = deltas + 2 * segments;
  for (let s = 0; s < segments; s++) {
    const end = buf.readUInt16BE(ends + 2 * s);
    const start = buf.readUInt16BE(starts + 2 * s);
    const delta = buf.readInt16BE(deltas + 2 * s);
    const rangeOffset = buf.readUInt16BE(rangeOffsets + 2 * s);
    for (let c = start; c <= end && c !== 0xffff; c++) {
      let glyph: number;
      if (rangeOffset === 0) glyph = (c + delta) & 0xffff;
      else {
        const p = rangeOffsets + 2 * s + rangeOffset + 2 * (c - start);
        glyph = buf.readUInt16BE(p);
        if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
      }
      if (glyph !== 0) map.set(c, glyph);
    }
  }
  return map;
}

const cache = new Map<string, FontMetrics>();
/** One parsed font per file for the process (a few hundred KB each). */
export function fontMetrics(file: string): FontMetrics {
  let m = cache.get(file);
  if (!m) {
    m = new FontMetrics(file);
    cache.set(file, m);
  }
  return m;
}
