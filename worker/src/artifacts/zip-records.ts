/**
 * The records of a ZIP archive (PKWARE APPNOTE 6.3.x) for a writer that streams: every member's local header says
 * "sizes and CRC follow in a data descriptor" (flag bit 3), since a member is read once, while it is sent.
 *
 * ZIP64 is used only when needed:
 * - a member whose size is unknown in advance or could reach 0xFFFFFFFF bytes gets a zip64 extended information
 *   extra field (0x0001) in its local header and an 8-byte-size data descriptor (the choice has to be made before
 *   its bytes are sent);
 * - in the central directory a member gets a zip64 extra field when its sizes or its local header offset do not
 *   fit in 32 bits (or its local header already used ZIP64);
 * - the archive ends with a zip64 end of central directory record and its locator when the member count does not
 *   fit in 16 bits, the central directory's size or offset does not fit in 32 bits, or any member used ZIP64.
 * Fields that moved to a ZIP64 record hold 0xFFFF / 0xFFFFFFFF, as the format requires.
 */

export const MAX_U16 = 0xffff;
export const MAX_U32 = 0xffffffff;

const SIG_LOCAL = 0x04034b50;
const SIG_DESCRIPTOR = 0x08074b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_EOCD = 0x06054b50;

const ZIP64_EXTRA_ID = 0x0001;
/** 2.0: deflate, data descriptors. 4.5: ZIP64. */
const VERSION_DEFAULT = 20;
const VERSION_ZIP64 = 45;
const FLAG_DATA_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;

export const METHOD_STORE = 0;
export const METHOD_DEFLATE = 8;

const encoder = new TextEncoder();

/** A value that must go into a ZIP64 field: 0xFFFFFFFF itself is the "see ZIP64" marker, so it counts too. */
export const needs64 = (n: number) => n >= MAX_U32;

function writer(length: number): { bytes: Uint8Array; u16(n: number): void; u32(n: number): void; u64(n: number): void; raw(b: Uint8Array): void; at(): number } {
  const bytes = new Uint8Array(length);
  const view = new DataView(bytes.buffer);
  let p = 0;
  return {
    bytes,
    u16: (n) => (view.setUint16(p, n, true), (p += 2)),
    u32: (n) => (view.setUint32(p, n, true), (p += 4)),
    u64: (n) => (view.setBigUint64(p, BigInt(n), true), (p += 8)),
    raw: (b) => (bytes.set(b, p), (p += b.byteLength)),
    at: () => p,
  };
}

/** MS-DOS date and time (2-second resolution), from the UTC fields; clamped to the format's 1980-2107. */
export function dosDateTime(d: Date): { time: number; date: number } {
  const year = Math.min(2107, Math.max(1980, d.getUTCFullYear()));
  if (year !== d.getUTCFullYear()) return { time: 0, date: ((year - 1980) << 9) | (1 << 5) | 1 };
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

export interface MemberInfo {
  name: string;
  method: number;
  mtime: Date;
  /** The local header carries a zip64 extra field and the data descriptor 8-byte sizes. */
  zip64Local: boolean;
}

export interface WrittenMember extends MemberInfo {
  crc: number;
  compressedSize: number;
  size: number;
  /** Offset of the member's local header from the start of the archive. */
  offset: number;
}

function nameBytes(name: string): { bytes: Uint8Array; flags: number } {
  const bytes = encoder.encode(name);
  if (bytes.byteLength > MAX_U16) throw new Error(`ZIP member name too long: ${name.slice(0, 40)}...`);
  // Bit 11: the name is UTF-8 (only needed, and only set, when it is not plain ASCII).
  return { bytes, flags: FLAG_DATA_DESCRIPTOR | (bytes.byteLength !== name.length ? FLAG_UTF8 : 0) };
}

/** Local file header; CRC and sizes follow the data in the data descriptor. */
export function localFileHeader(m: MemberInfo): Uint8Array {
  const { bytes: name, flags } = nameBytes(m.name);
  const extraLength = m.zip64Local ? 4 + 16 : 0;
  const { time, date } = dosDateTime(m.mtime);
  const w = writer(30 + name.byteLength + extraLength);
  w.u32(SIG_LOCAL);
  w.u16(m.zip64Local ? VERSION_ZIP64 : VERSION_DEFAULT);
  w.u16(flags);
  w.u16(m.method);
  w.u16(time);
  w.u16(date);
  w.u32(0); // CRC: in the data descriptor
  w.u32(m.zip64Local ? MAX_U32 : 0); // compressed size
  w.u32(m.zip64Local ? MAX_U32 : 0); // uncompressed size
  w.u16(name.byteLength);
  w.u16(extraLength);
  w.raw(name);
  if (m.zip64Local) {
    // The local zip64 field must hold both sizes; with a data descriptor they are 0 here.
    w.u16(ZIP64_EXTRA_ID);
    w.u16(16);
    w.u64(0);
    w.u64(0);
  }
  return w.bytes;
}

/** Data descriptor after a member's data: 8-byte sizes exactly when its local header has the zip64 field. */
export function dataDescriptor(m: { crc: number; compressedSize: number; size: number; zip64Local: boolean }): Uint8Array {
  if (!m.zip64Local && (needs64(m.size) || needs64(m.compressedSize))) {
    throw new Error("a member without a ZIP64 local header cannot hold 4 GiB or more");
  }
  const w = writer(m.zip64Local ? 24 : 16);
  w.u32(SIG_DESCRIPTOR);
  w.u32(m.crc >>> 0);
  if (m.zip64Local) {
    w.u64(m.compressedSize);
    w.u64(m.size);
  } else {
    w.u32(m.compressedSize);
    w.u32(m.size);
  }
  return w.bytes;
}

/** Central directory file header, with a zip64 extra field for whatever does not fit in 32 bits. */
export function centralDirectoryHeader(m: WrittenMember, force64 = false): Uint8Array {
  const { bytes: name, flags } = nameBytes(m.name);
  const sizes64 = force64 || m.zip64Local || needs64(m.size) || needs64(m.compressedSize);
  const offset64 = force64 || needs64(m.offset);
  const extraData = (sizes64 ? 16 : 0) + (offset64 ? 8 : 0);
  const extraLength = extraData ? 4 + extraData : 0;
  const version = extraData ? VERSION_ZIP64 : VERSION_DEFAULT;
  const { time, date } = dosDateTime(m.mtime);
  const w = writer(46 + name.byteLength + extraLength);
  w.u32(SIG_CENTRAL);
  w.u16(version); // made by (host 0: MS-DOS attributes)
  w.u16(version); // needed to extract
  w.u16(flags);
  w.u16(m.method);
  w.u16(time);
  w.u16(date);
  w.u32(m.crc >>> 0);
  w.u32(sizes64 ? MAX_U32 : m.compressedSize);
  w.u32(sizes64 ? MAX_U32 : m.size);
  w.u16(name.byteLength);
  w.u16(extraLength);
  w.u16(0); // comment length
  w.u16(0); // disk number start
  w.u16(0); // internal attributes
  w.u32(0); // external attributes
  w.u32(offset64 ? MAX_U32 : m.offset);
  w.raw(name);
  if (extraData) {
    // Fixed order: uncompressed size, compressed size, local header offset (each only if its field is 0xFFFFFFFF).
    w.u16(ZIP64_EXTRA_ID);
    w.u16(extraData);
    if (sizes64) {
      w.u64(m.size);
      w.u64(m.compressedSize);
    }
    if (offset64) w.u64(m.offset);
  }
  return w.bytes;
}

export interface ArchiveEnd {
  entries: number;
  /** Bytes of the central directory. */
  cdSize: number;
  /** Offset of the central directory from the start of the archive. */
  cdOffset: number;
  /** Some member used ZIP64 fields: readers that look for ZIP64 only via the end records then find them. */
  anyZip64Member?: boolean;
  force64?: boolean;
}

export function archiveNeedsZip64(end: ArchiveEnd): boolean {
  return Boolean(end.force64 || end.anyZip64Member || end.entries >= MAX_U16 || needs64(end.cdSize) || needs64(end.cdOffset));
}

/**
 * What follows the central directory: [zip64 end of central directory record, zip64 locator] when needed, then
 * the end of central directory record.
 */
export function archiveEnd(end: ArchiveEnd): Uint8Array {
  const zip64 = archiveNeedsZip64(end);
  const w = writer((zip64 ? 56 + 20 : 0) + 22);
  if (zip64) {
    const recordOffset = end.cdOffset + end.cdSize;
    w.u32(SIG_ZIP64_EOCD);
    w.u64(44); // size of the rest of this record
    w.u16(VERSION_ZIP64); // made by
    w.u16(VERSION_ZIP64); // needed
    w.u32(0); // this disk
    w.u32(0); // disk with the central directory
    w.u64(end.entries); // entries on this disk
    w.u64(end.entries); // entries in total
    w.u64(end.cdSize);
    w.u64(end.cdOffset);
    w.u32(SIG_ZIP64_LOCATOR);
    w.u32(0); // disk with the zip64 end record
    w.u64(recordOffset);
    w.u32(1); // disks in total
  }
  // Fields that do not fit (or, when forced, all of them) say "see the zip64 record".
  const all = Boolean(end.force64);
  const count = all || end.entries >= MAX_U16 ? MAX_U16 : end.entries;
  w.u32(SIG_EOCD);
  w.u16(0); // this disk
  w.u16(0); // disk with the central directory
  w.u16(count);
  w.u16(count);
  w.u32(all || needs64(end.cdSize) ? MAX_U32 : end.cdSize);
  w.u32(all || needs64(end.cdOffset) ? MAX_U32 : end.cdOffset);
  w.u16(0); // comment length
  return w.bytes;
}

// ---- CRC-32 (IEEE 802.3, as ZIP uses), slicing by 8 -----------------------------------------------------------------

const CRC_TABLES: Uint32Array[] = (() => {
  const t0 = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t0[n] = c >>> 0;
  }
  const tables = [t0];
  for (let i = 1; i < 8; i++) {
    const prev = tables[i - 1]!;
    const t = new Uint32Array(256);
    for (let n = 0; n < 256; n++) t[n] = (prev[n]! >>> 8) ^ t0[prev[n]! & 0xff]!;
    tables.push(t);
  }
  return tables;
})();

/** CRC-32 of `data` continuing from `crc` (0 to start). */
export function crc32(data: Uint8Array, crc = 0): number {
  const [t0, t1, t2, t3, t4, t5, t6, t7] = CRC_TABLES as [Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array];
  let c = ~crc >>> 0;
  let i = 0;
  const n = data.byteLength;
  for (; i + 8 <= n; i += 8) {
    const a = (c ^ (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24))) >>> 0;
    c =
      t7[a & 0xff]! ^
      t6[(a >>> 8) & 0xff]! ^
      t5[(a >>> 16) & 0xff]! ^
      t4[a >>> 24]! ^
      t3[data[i + 4]!]! ^
      t2[data[i + 5]!]! ^
      t1[data[i + 6]!]! ^
      t0[data[i + 7]!]!;
  }
  for (; i < n; i++) c = t0[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
