import { archiveEnd, centralDirectoryHeader, dataDescriptor, localFileHeader, METHOD_STORE, needs64, type MemberInfo, type WrittenMember } from "./zip-records";

/**
 * Where every byte of a stored-only ZIP lies, known before the first byte is sent: with no compression a member's
 * data is the file itself, so names and sizes fix every record's offset and length, and so the archive's length
 * (Content-Length) and what any byte range holds. Only the CRC-32 values, in the data descriptors and the central
 * directory, depend on the files' contents; those records' lengths do not.
 *
 * Records as zip-records.ts writes them (data descriptors, ZIP64 only where needed), so an archive laid out here is
 * the one a streaming writer would send for the same stored members.
 */

export interface LayoutMember {
  name: string;
  size: number;
}

export type Segment =
  /** Bytes known now: a local header, the end records. */
  | { kind: "bytes"; start: number; bytes: Uint8Array }
  /** A member's file, byte for byte. */
  | { kind: "data"; start: number; length: number; member: number }
  /** A member's data descriptor or its central directory header: written once its CRC is known. */
  | { kind: "descriptor" | "central"; start: number; length: number; member: number };

export interface ZipLayout {
  members: (LayoutMember & { info: MemberInfo; headerOffset: number })[];
  segments: Segment[];
  length: number;
  force64: boolean;
}

export const segmentEnd = (s: Segment): number => s.start + (s.kind === "bytes" ? s.bytes.byteLength : s.length);

export function layOutZip(members: readonly LayoutMember[], mtime: Date, options: { forceZip64?: boolean } = {}): ZipLayout {
  const force64 = Boolean(options.forceZip64);
  const placed: ZipLayout["members"] = [];
  const segments: Segment[] = [];
  let at = 0;
  members.forEach((m, i) => {
    const info: MemberInfo = { name: m.name, method: METHOD_STORE, mtime, zip64Local: force64 || needs64(m.size) };
    const header = localFileHeader(info);
    placed.push({ ...m, info, headerOffset: at });
    segments.push({ kind: "bytes", start: at, bytes: header });
    at += header.byteLength;
    if (m.size > 0) segments.push({ kind: "data", start: at, length: m.size, member: i });
    at += m.size;
    const descriptor = dataDescriptor({ crc: 0, compressedSize: m.size, size: m.size, zip64Local: info.zip64Local }).byteLength;
    segments.push({ kind: "descriptor", start: at, length: descriptor, member: i });
    at += descriptor;
  });
  const cdOffset = at;
  placed.forEach((m, i) => {
    const length = centralDirectoryHeader(writtenMember(m, 0), force64).byteLength;
    segments.push({ kind: "central", start: at, length, member: i });
    at += length;
  });
  const anyZip64Member = placed.some((m) => m.info.zip64Local || needs64(m.headerOffset));
  const end = archiveEnd({ entries: placed.length, cdSize: at - cdOffset, cdOffset, anyZip64Member, force64 });
  segments.push({ kind: "bytes", start: at, bytes: end });
  at += end.byteLength;
  return { members: placed, segments, length: at, force64 };
}

function writtenMember(m: ZipLayout["members"][number], crc: number): WrittenMember {
  return { ...m.info, crc, size: m.size, compressedSize: m.size, offset: m.headerOffset };
}

/** A descriptor or central directory header, now that its member's CRC is known. */
export function crcRecord(layout: ZipLayout, segment: Extract<Segment, { kind: "descriptor" | "central" }>, crc: number): Uint8Array {
  const m = layout.members[segment.member]!;
  if (segment.kind === "descriptor") return dataDescriptor({ crc, compressedSize: m.size, size: m.size, zip64Local: m.info.zip64Local });
  return centralDirectoryHeader(writtenMember(m, crc), layout.force64);
}
