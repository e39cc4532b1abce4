import { Deflate } from "fflate";
import { logEvent } from "../lib/log";
import {
  archiveEnd,
  centralDirectoryHeader,
  crc32,
  dataDescriptor,
  localFileHeader,
  METHOD_DEFLATE,
  METHOD_STORE,
  needs64,
  type MemberInfo,
  type WrittenMember,
} from "./zip-records";

export interface ZipEntrySource {
  name: string;
  /**
   * Opened lazily, one file at a time, so only one object body is in flight. `offset` > 0 asks for the rest of the
   * file from that byte on: used to resume a member whose body stopped delivering (see ZipOptions.stallMs).
   */
  open(offset?: number): Promise<ReadableStream<Uint8Array> | null>;
  /** Videos and images are already compressed: store them. Text compresses well. */
  compress: boolean;
  mtime?: Date;
  /**
   * Size in bytes when known in advance (the stored object's size). A member's local header is sent before its
   * data, so this decides whether it needs ZIP64 sizes; an unknown size gets them, to be safe.
   */
  size?: number;
}

export interface ZipOptions {
  /** Every ZIP64 record and field even where nothing needs them (to check that readers accept them). */
  forceZip64?: boolean;
  /**
   * A member's body that delivers nothing for this long is given up and opened again from the byte where it
   * stopped (at most MAX_RESUMES times per member, then the archive fails instead of hanging). Default 15 s.
   */
  stallMs?: number;
}

export const DEFAULT_STALL_MS = 15_000;
/** Logged at every resume: a healthy download never resumes, so tests count these lines and expect none. */
export const ZIP_RESUME_LOG = "zip member stalled; resuming";
export const MAX_RESUMES = 3;

/** Thrown into the archive when a member's body keeps stalling: the download ends with an error, never hangs. */
export class MemberStalledError extends Error {
  constructor(name: string, offset: number) {
    super(`${name} stopped delivering data at byte ${offset} and could not be resumed`);
    this.name = "MemberStalledError";
  }
}

export const STALLED = Symbol("stalled");

/** One read, or STALLED when nothing arrived within `ms` (the read itself is left to the reader's cancel). */
export async function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<ReadableStreamReadResult<Uint8Array> | typeof STALLED> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([reader.read(), new Promise<typeof STALLED>((resolve) => (timer = setTimeout(() => resolve(STALLED), ms)))]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/**
 * Whether a member's local header must carry ZIP64 sizes. Deflate can grow incompressible input a little (a few
 * bytes per block), so a compressed member gets a margin.
 */
export function memberNeedsZip64(size: number | undefined, compress: boolean): boolean {
  if (size === undefined || !Number.isFinite(size) || size < 0) return true;
  return needs64(compress ? size + Math.ceil(size / 16_384) * 5 + 1024 : size);
}

interface CurrentMember {
  source: ZipEntrySource;
  resumes: number;
  info: MemberInfo;
  offset: number;
  reader: ReadableStreamDefaultReader<Uint8Array>;
  crc: number;
  size: number;
  compressedSize: number;
  deflate: Deflate | null;
  out: Uint8Array[];
}

/**
 * Builds a ZIP as a pull-driven stream: each pull reads one chunk of the current file and sends it on (stored) or
 * through a deflate stream, so memory stays at a chunk or two whatever the archive size. Sizes and CRCs follow each
 * member in a data descriptor; ZIP64 records are written only when the archive needs them (members or offsets of
 * 4 GiB and more, 65535 members or more; see zip-records.ts). Missing files are skipped (a file deleted between
 * listing and zipping must not break the archive).
 */
export function zipStream(entries: ZipEntrySource[], options: ZipOptions = {}): ReadableStream<Uint8Array> {
  const force = Boolean(options.forceZip64);
  const stallMs = options.stallMs ?? DEFAULT_STALL_MS;
  const written: WrittenMember[] = [];
  let offset = 0;
  let index = 0;
  let current: CurrentMember | null = null;

  const emit = (controller: ReadableStreamDefaultController<Uint8Array>, chunk: Uint8Array) => {
    if (!chunk.byteLength) return;
    controller.enqueue(chunk);
    offset += chunk.byteLength;
  };

  const finish = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    const cdOffset = offset;
    const headers = written.map((m) => centralDirectoryHeader(m, force));
    const cd = new Uint8Array(headers.reduce((n, h) => n + h.byteLength, 0));
    let p = 0;
    for (const h of headers) cd.set(h, p), (p += h.byteLength);
    emit(controller, cd);
    const anyZip64Member = written.some((m) => m.zip64Local || needs64(m.size) || needs64(m.compressedSize) || needs64(m.offset));
    emit(controller, archiveEnd({ entries: written.length, cdSize: cd.byteLength, cdOffset, anyZip64Member, force64: force }));
    controller.close();
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          // Keep going until something was queued for this pull (or the archive ended).
          for (;;) {
            if (!current) {
              if (index >= entries.length) return finish(controller);
              const entry = entries[index++]!;
              const body = await entry.open();
              if (!body) continue;
              const info: MemberInfo = {
                name: entry.name,
                method: entry.compress ? METHOD_DEFLATE : METHOD_STORE,
                mtime: entry.mtime ?? new Date(),
                zip64Local: force || memberNeedsZip64(entry.size, entry.compress),
              };
              const member: CurrentMember = { source: entry, resumes: 0, info, offset, reader: body.getReader(), crc: 0, size: 0, compressedSize: 0, deflate: null, out: [] };
              if (entry.compress) member.deflate = new Deflate({ level: 6 }, (data) => void member.out.push(data));
              current = member;
              emit(controller, localFileHeader(info));
            }
            const member: CurrentMember = current;
            const read = await readWithin(member.reader, stallMs);
            if (read === STALLED) {
              // A body that stops delivering (storage or a connection under it stuck) would hold the whole download
              // forever: drop it and continue from the same byte with a fresh read of the object.
              void member.reader.cancel(new Error("stalled")).catch(() => undefined);
              if (member.resumes >= MAX_RESUMES) throw new MemberStalledError(member.info.name, member.size);
              member.resumes += 1;
              logEvent("warn", ZIP_RESUME_LOG, { name: member.info.name, offset: member.size, resume: member.resumes });
              const rest = await member.source.open(member.size);
              if (!rest) throw new MemberStalledError(member.info.name, member.size);
              member.reader = rest.getReader();
              continue;
            }
            const { value, done } = read;
            if (value?.byteLength) {
              member.crc = crc32(value, member.crc);
              member.size += value.byteLength;
              if (member.deflate) member.deflate.push(value);
              else member.out.push(value);
            }
            if (done) member.deflate?.push(new Uint8Array(0), true);
            for (const chunk of member.out) {
              member.compressedSize += chunk.byteLength;
              emit(controller, chunk);
            }
            member.out = [];
            if (done) {
              const finished: WrittenMember = { ...member.info, crc: member.crc, size: member.size, compressedSize: member.compressedSize, offset: member.offset };
              emit(controller, dataDescriptor(finished));
              written.push(finished);
              member.reader.releaseLock();
              current = null;
            }
            if ((controller.desiredSize ?? 1) <= 0) return;
          }
        } catch (error) {
          await current?.reader.cancel().catch(() => undefined);
          current = null;
          controller.error(error);
        }
      },
      async cancel(reason) {
        await current?.reader.cancel(reason).catch(() => undefined);
        current = null;
      },
    },
    { highWaterMark: 2 },
  );
}
