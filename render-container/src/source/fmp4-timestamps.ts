/**
 * Just enough ISO-BMFF to keep fragmented-MP4 segments (#EXT-X-MAP renditions) on one timeline: track
 * timescales from the initialisation section, and each fragment's decode times (`tfdt`, plus `sidx`), which
 * are read and moved the way mpegts-pts.ts does for MPEG-TS.
 */

export interface Fmp4Track {
  timescale: number;
  video: boolean;
}

interface Box {
  type: string;
  /** Payload start (after size and type). */
  start: number;
  end: number;
}

const CONTAINERS = new Set(["moov", "trak", "mdia", "moof", "traf"]);

function* boxes(data: Uint8Array, from: number, to: number): Generator<Box> {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let at = from;
  while (at + 8 <= to) {
    let size = view.getUint32(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) return;
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < header || at + size > to) return;
    const type = String.fromCharCode(data[at + 4]!, data[at + 5]!, data[at + 6]!, data[at + 7]!);
    yield { type, start: at + header, end: at + size };
    at += size;
  }
}

function child(data: Uint8Array, parent: Box, type: string): Box | undefined {
  for (const b of boxes(data, parent.start, parent.end)) if (b.type === type) return b;
  return undefined;
}

/** Track id -> timescale and kind, from an initialisation section's moov; null if there is none. */
export function readFmp4Tracks(init: Uint8Array): Map<number, Fmp4Track> | null {
  const view = new DataView(init.buffer, init.byteOffset, init.byteLength);
  const moov = [...boxes(init, 0, init.length)].find((b) => b.type === "moov");
  if (!moov) return null;
  const tracks = new Map<number, Fmp4Track>();
  for (const trak of boxes(init, moov.start, moov.end)) {
    if (trak.type !== "trak") continue;
    const tkhd = child(init, trak, "tkhd");
    const mdia = child(init, trak, "mdia");
    const mdhd = mdia && child(init, mdia, "mdhd");
    const hdlr = mdia && child(init, mdia, "hdlr");
    if (!tkhd || !mdhd) continue;
    const id = view.getUint32(tkhd.start + (init[tkhd.start] === 1 ? 20 : 12));
    const timescale = view.getUint32(mdhd.start + (init[mdhd.start] === 1 ? 20 : 12));
    const handler = hdlr ? String.fromCharCode(...init.subarray(hdlr.start + 8, hdlr.start + 12)) : "";
    if (timescale > 0) tracks.set(id, { timescale, video: handler === "vide" });
  }
  return tracks;
}

interface TimeField {
  at: number;
  wide: boolean;
  timescale: number;
  video: boolean;
}

/** Where every decode time of a fragment is written: each traf's tfdt, and each sidx's earliest time. */
function timeFields(data: Uint8Array, tracks: Map<number, Fmp4Track>): TimeField[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const fields: TimeField[] = [];
  for (const top of boxes(data, 0, data.length)) {
    if (top.type === "sidx") {
      const id = view.getUint32(top.start + 4);
      const timescale = view.getUint32(top.start + 8);
      fields.push({ at: top.start + 12, wide: data[top.start] === 1, timescale, video: tracks.get(id)?.video ?? false });
    }
    if (top.type !== "moof") continue;
    for (const traf of boxes(data, top.start, top.end)) {
      if (traf.type !== "traf") continue;
      const tfhd = child(data, traf, "tfhd");
      const tfdt = child(data, traf, "tfdt");
      const track = tfhd && tracks.get(view.getUint32(tfhd.start + 4));
      if (!tfdt || !track) continue;
      fields.push({ at: tfdt.start + 4, wide: data[tfdt.start] === 1, timescale: track.timescale, video: track.video });
    }
  }
  return fields;
}

function readField(view: DataView, f: TimeField): number {
  return f.wide ? Number(view.getBigUint64(f.at)) : view.getUint32(f.at);
}

/** Where a fragment starts: its smallest video decode time, else its smallest decode time; null if none. */
export function fragmentStartSeconds(data: Uint8Array, tracks: Map<number, Fmp4Track>): number | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const fields = timeFields(data, tracks).filter((f) => f.timescale > 0);
  const pick = fields.some((f) => f.video) ? fields.filter((f) => f.video) : fields;
  if (pick.length === 0) return null;
  return Math.min(...pick.map((f) => readField(view, f) / f.timescale));
}

/** Moves every decode time of a fragment by `seconds`, in place (never below 0). false when there is none. */
export function shiftFragment(data: Uint8Array, tracks: Map<number, Fmp4Track>, seconds: number): boolean {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const fields = timeFields(data, tracks);
  for (const f of fields) {
    const next = Math.max(0, readField(view, f) + Math.round(seconds * f.timescale));
    if (f.wide) view.setBigUint64(f.at, BigInt(next));
    else view.setUint32(f.at, Math.min(next, 0xffffffff));
  }
  return fields.length > 0;
}
