import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import {
  archiveEnd,
  centralDirectoryHeader,
  crc32,
  dataDescriptor,
  dosDateTime,
  localFileHeader,
  MAX_U16,
  MAX_U32,
  METHOD_DEFLATE,
  METHOD_STORE,
  type WrittenMember,
} from "../../worker/src/artifacts/zip-records";
import { memberNeedsZip64, zipStream } from "../../worker/src/artifacts/zip-stream";

/**
 * ZIP64 records checked field by field with sizes and offsets past 4 GiB (no such data is stored: the builders take
 * the numbers). Readers' acceptance of the same records is checked in test/common/zip-stream.test.ts with unzip and
 * Python's zipfile.
 */

const GiB = 2 ** 30;
const MTIME = new Date(Date.UTC(2026, 10, 22, 8, 30, 10));
const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
const u64 = (b: Uint8Array, at: number) => Number(view(b).getBigUint64(at, true));

function member(over: Partial<WrittenMember> = {}): WrittenMember {
  return { name: "reel-balanced.mp4", method: METHOD_STORE, mtime: MTIME, zip64Local: false, crc: 0xdeadbeef, compressedSize: 1234, size: 1234, offset: 100, ...over };
}

/** The zip64 extended information extra field (id 0x0001) of a central directory header, as 8-byte values. */
function zip64Extra(h: Uint8Array): number[] | null {
  const v = view(h);
  const nameLen = v.getUint16(28, true);
  const extraLen = v.getUint16(30, true);
  for (let e = 46 + nameLen; e < 46 + nameLen + extraLen; e += 4 + v.getUint16(e + 2, true)) {
    if (v.getUint16(e, true) === 1) return Array.from({ length: v.getUint16(e + 2, true) / 8 }, (_, i) => u64(h, e + 4 + 8 * i));
  }
  return null;
}

describe("central directory header", () => {
  it("classic when everything fits: version 2.0, no extra field", () => {
    const h = centralDirectoryHeader(member());
    const v = view(h);
    expect(v.getUint32(0, true)).toBe(0x02014b50);
    expect([v.getUint16(4, true), v.getUint16(6, true)]).toEqual([20, 20]);
    expect([v.getUint32(16, true), v.getUint32(20, true), v.getUint32(24, true), v.getUint32(42, true)]).toEqual([0xdeadbeef, 1234, 1234, 100]);
    expect(v.getUint16(30, true)).toBe(0);
    expect(zip64Extra(h)).toBeNull();
    expect(h.byteLength).toBe(46 + "reel-balanced.mp4".length);
  });

  it("a member over 4 GiB: both sizes move to the zip64 field (uncompressed first), fields say 0xFFFFFFFF", () => {
    const size = 5 * GiB + 7;
    const h = centralDirectoryHeader(member({ size, compressedSize: size, offset: 200 }));
    const v = view(h);
    expect(v.getUint16(6, true)).toBe(45);
    expect([v.getUint32(20, true), v.getUint32(24, true)]).toEqual([MAX_U32, MAX_U32]);
    expect(v.getUint32(42, true)).toBe(200);
    expect(zip64Extra(h)).toEqual([size, size]);
  });

  it("a deflated member whose sizes differ keeps the fixed order: uncompressed, compressed", () => {
    const h = centralDirectoryHeader(member({ method: METHOD_DEFLATE, size: 6 * GiB, compressedSize: 4 * GiB + 1 }));
    expect(zip64Extra(h)).toEqual([6 * GiB, 4 * GiB + 1]);
  });

  it("a small member whose local header lies past 4 GiB: only the offset moves", () => {
    const offset = 4 * GiB + 123;
    const h = centralDirectoryHeader(member({ offset }));
    const v = view(h);
    expect([v.getUint32(20, true), v.getUint32(24, true), v.getUint32(42, true)]).toEqual([1234, 1234, MAX_U32]);
    expect(zip64Extra(h)).toEqual([offset]);
    expect(v.getUint16(6, true)).toBe(45);
  });

  it("sizes, then offset, when all three overflow", () => {
    expect(zip64Extra(centralDirectoryHeader(member({ size: 5 * GiB, compressedSize: 5 * GiB, offset: 9 * GiB })))).toEqual([5 * GiB, 5 * GiB, 9 * GiB]);
  });

  it("0xFFFFFFFF itself is the ZIP64 marker, so it goes into the zip64 field too; one less does not", () => {
    expect(zip64Extra(centralDirectoryHeader(member({ size: MAX_U32, compressedSize: MAX_U32 })))).toEqual([MAX_U32, MAX_U32]);
    expect(zip64Extra(centralDirectoryHeader(member({ size: MAX_U32 - 1, compressedSize: MAX_U32 - 1, offset: MAX_U32 - 1 })))).toBeNull();
    expect(zip64Extra(centralDirectoryHeader(member({ offset: MAX_U32 })))).toEqual([MAX_U32]);
  });

  it("a member whose local header used ZIP64 keeps both sizes in the zip64 field", () => {
    expect(zip64Extra(centralDirectoryHeader(member({ zip64Local: true })))).toEqual([1234, 1234]);
  });

  it("UTF-8 names set flag bit 11; ASCII names do not", () => {
    expect(view(centralDirectoryHeader(member({ name: "résumé.txt" }))).getUint16(8, true)).toBe(0x0808);
    expect(view(centralDirectoryHeader(member())).getUint16(8, true)).toBe(0x0008);
  });
});

describe("local header and data descriptor", () => {
  it("classic: sizes follow in a 16-byte descriptor", () => {
    const h = localFileHeader(member());
    const v = view(h);
    expect(v.getUint32(0, true)).toBe(0x04034b50);
    expect(v.getUint16(4, true)).toBe(20);
    expect(v.getUint16(6, true) & 0x0008).toBe(8);
    expect([v.getUint32(14, true), v.getUint32(18, true), v.getUint32(22, true), v.getUint16(28, true)]).toEqual([0, 0, 0, 0]);
    const d = dataDescriptor({ crc: 0xdeadbeef, compressedSize: 10, size: 20, zip64Local: false });
    expect(Array.from({ length: 4 }, (_, i) => view(d).getUint32(i * 4, true))).toEqual([0x08074b50, 0xdeadbeef, 10, 20]);
  });

  it("ZIP64: the local header carries a zip64 field with both sizes and the descriptor 8-byte sizes", () => {
    const h = localFileHeader(member({ zip64Local: true }));
    const v = view(h);
    expect(v.getUint16(4, true)).toBe(45);
    expect([v.getUint32(18, true), v.getUint32(22, true)]).toEqual([MAX_U32, MAX_U32]);
    const nameLen = v.getUint16(26, true);
    expect(v.getUint16(28, true)).toBe(20);
    expect([v.getUint16(30 + nameLen, true), v.getUint16(32 + nameLen, true)]).toEqual([1, 16]);
    const size = 4 * GiB + 3;
    const d = dataDescriptor({ crc: 1, compressedSize: size, size, zip64Local: true });
    expect(d.byteLength).toBe(24);
    expect([view(d).getUint32(0, true), view(d).getUint32(4, true), u64(d, 8), u64(d, 16)]).toEqual([0x08074b50, 1, size, size]);
  });

  it("refuses 4 GiB or more in a member whose local header promised 32-bit sizes", () => {
    expect(() => dataDescriptor({ crc: 1, compressedSize: 4 * GiB, size: 4 * GiB, zip64Local: false })).toThrow(/ZIP64/);
  });

  it("decides ZIP64 for the local header from the size known in advance", () => {
    expect(memberNeedsZip64(MAX_U32 - 1, false)).toBe(false);
    expect(memberNeedsZip64(MAX_U32, false)).toBe(true);
    expect(memberNeedsZip64(5 * GiB, false)).toBe(true);
    // Deflate may grow incompressible data a little: a margin below 4 GiB.
    expect(memberNeedsZip64(MAX_U32 - 1000, true)).toBe(true);
    expect(memberNeedsZip64(100 * 2 ** 20, true)).toBe(false);
    expect(memberNeedsZip64(undefined, false)).toBe(true);
  });
});

describe("end of the archive", () => {
  it("classic: the 22-byte end record only", () => {
    const e = archiveEnd({ entries: 12, cdSize: 900, cdOffset: 50_000 });
    expect(e.byteLength).toBe(22);
    const v = view(e);
    expect([v.getUint32(0, true), v.getUint16(8, true), v.getUint16(10, true), v.getUint32(12, true), v.getUint32(16, true)]).toEqual([0x06054b50, 12, 12, 900, 50_000]);
  });

  it("central directory past 4 GiB: zip64 end record + locator, the offset field says 0xFFFFFFFF", () => {
    const cdOffset = 6 * GiB + 5;
    const e = archiveEnd({ entries: 3, cdSize: 300, cdOffset });
    expect(e.byteLength).toBe(56 + 20 + 22);
    const v = view(e);
    // zip64 end of central directory record
    expect(v.getUint32(0, true)).toBe(0x06064b50);
    expect(u64(e, 4)).toBe(44);
    expect([v.getUint16(12, true), v.getUint16(14, true), v.getUint32(16, true), v.getUint32(20, true)]).toEqual([45, 45, 0, 0]);
    expect([u64(e, 24), u64(e, 32), u64(e, 40), u64(e, 48)]).toEqual([3, 3, 300, cdOffset]);
    // locator: where the zip64 record starts (right after the central directory), one disk
    expect([v.getUint32(56, true), v.getUint32(60, true), u64(e, 64), v.getUint32(72, true)]).toEqual([0x07064b50, 0, cdOffset + 300, 1]);
    // classic record: what fits stays, what does not says 0xFFFFFFFF
    expect([v.getUint32(76, true), v.getUint16(84, true), v.getUint32(88, true), v.getUint32(92, true)]).toEqual([0x06054b50, 3, 300, MAX_U32]);
  });

  it("65535 members or more: the count moves, 0xFFFF in the classic record", () => {
    const e = archiveEnd({ entries: 70_000, cdSize: 4_000_000, cdOffset: 9_000_000 });
    const v = view(e);
    expect([u64(e, 24), u64(e, 32)]).toEqual([70_000, 70_000]);
    expect([v.getUint16(76 + 8, true), v.getUint16(76 + 10, true), v.getUint32(76 + 12, true), v.getUint32(76 + 16, true)]).toEqual([MAX_U16, MAX_U16, 4_000_000, 9_000_000]);
    expect(archiveEnd({ entries: MAX_U16, cdSize: 1, cdOffset: 1 }).byteLength).toBe(98);
    expect(archiveEnd({ entries: MAX_U16 - 1, cdSize: 1, cdOffset: 1 }).byteLength).toBe(22);
  });

  it("a member that used ZIP64 brings the zip64 end records along (readers look there first)", () => {
    expect(archiveEnd({ entries: 2, cdSize: 100, cdOffset: 100, anyZip64Member: true }).byteLength).toBe(98);
  });
});

describe("helpers", () => {
  it("CRC-32 as ZIP uses it, also continued chunk by chunk", () => {
    const data = new TextEncoder().encode("123456789");
    expect(crc32(data)).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    const long = new Uint8Array(100_003).map((_, i) => (i * 31 + 7) & 0xff);
    const whole = crc32(long);
    expect(crc32(long.subarray(50_001), crc32(long.subarray(0, 50_001)))).toBe(whole);
    expect(crc32(long.subarray(5), crc32(long.subarray(0, 5)))).toBe(whole);
  });

  it("MS-DOS time from the UTC fields, 2-second resolution", () => {
    const { time, date } = dosDateTime(MTIME);
    expect([time >> 11, (time >> 5) & 63, (time & 31) * 2]).toEqual([8, 30, 10]);
    expect([(date >> 9) + 1980, (date >> 5) & 15, date & 31]).toEqual([2026, 11, 22]);
    expect(dosDateTime(new Date(Date.UTC(1970, 0, 1)))).toEqual({ time: 0, date: (1 << 5) | 1 });
  });
});

describe("zipStream in workerd", () => {
  const read = async (s: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(s).arrayBuffer());
  const files = [
    { name: "a.mp4", bytes: new Uint8Array(70_000).map((_, i) => (i * 7) & 0xff), compress: false },
    { name: "b.srt", bytes: new TextEncoder().encode("hello captions\n".repeat(500)), compress: true },
  ];
  const entries = () => files.map((f) => ({ name: f.name, compress: f.compress, size: f.bytes.byteLength, mtime: MTIME, open: async () => new Response(f.bytes).body }));

  it("a normal archive has no ZIP64 record and reads back byte for byte", async () => {
    const zip = await read(zipStream(entries()));
    const text = Array.from(zip.subarray(zip.byteLength - 98), (b) => String.fromCharCode(b)).join("");
    expect(text.includes("PK\x06\x06")).toBe(false);
    expect(zip.byteLength).toBeLessThan(70_000 + 2_000);
    const out = unzipSync(zip);
    for (const f of files) expect(out[f.name]).toEqual(f.bytes);
  });

  it("forced into ZIP64 it still reads back byte for byte", async () => {
    const zip = await read(zipStream(entries(), { forceZip64: true }));
    expect(view(zip).getUint32(zip.byteLength - 98, true)).toBe(0x06064b50);
    const out = unzipSync(zip);
    for (const f of files) expect(out[f.name]).toEqual(f.bytes);
  });
});
