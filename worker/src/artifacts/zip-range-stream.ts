import { logEvent } from "../lib/log";
import { crcRecord, segmentEnd, type Segment, type ZipLayout } from "./zip-layout";
import { crc32 } from "./zip-records";
import { DEFAULT_STALL_MS, MAX_RESUMES, MemberStalledError, readWithin, STALLED, ZIP_RESUME_LOG } from "./zip-stream";

/** Reads `length` bytes of a member's file from `offset` (a ranged read of the stored object). */
export type OpenMember = (name: string, offset: number, length: number) => Promise<ReadableStream<Uint8Array> | null>;

/** CRC-32 values already known (from an earlier download), and where newly computed ones are reported. */
export interface CrcBook {
  known: ReadonlyMap<string, number>;
  /** Called once per member whose CRC this stream computed; awaited before the stream goes on. */
  learned(name: string, crc: number): Promise<void>;
}

export interface ByteSpan {
  offset: number;
  length: number;
}

/**
 * The bytes `span` of the archive `layout` describes, as a pull-driven stream: headers and end records from the
 * layout, each member's data by a ranged read of its file, descriptors and central directory headers once their
 * member's CRC is known.
 *
 * A CRC is known from `crcs`, or computed here: while the member's data passes through when the span holds all of
 * it (it always comes before the records that need it), otherwise by reading the file before the first byte is
 * sent (a resume that starts inside a member, or a range holding only the central directory of members an earlier
 * download never finished). Each computed CRC is reported to `crcs.learned` as soon as it is known, so a download
 * cut half-way leaves the CRCs of the members it sent for the request that resumes it.
 */
export async function zipRangeStream(layout: ZipLayout, span: ByteSpan, open: OpenMember, crcs: CrcBook, options: { stallMs?: number } = {}): Promise<ReadableStream<Uint8Array>> {
  const stallMs = options.stallMs ?? DEFAULT_STALL_MS;
  const first = span.offset;
  const last = span.offset + span.length; // exclusive
  const inSpan = layout.segments.filter((s) => segmentEnd(s) > first && s.start < last);
  const known = new Map<number, number>();
  layout.members.forEach((m, i) => {
    const crc = m.size === 0 ? 0 : crcs.known.get(m.name);
    if (crc !== undefined) known.set(i, crc);
  });

  // Members whose records are in the span but whose data is not all in it: their CRC is read up front.
  const wholeInSpan = (member: number) => {
    const data = layout.segments.find((s) => s.kind === "data" && s.member === member)!;
    return data.start >= first && segmentEnd(data) <= last;
  };
  for (const s of inSpan) {
    if ((s.kind === "descriptor" || s.kind === "central") && !known.has(s.member) && !wholeInSpan(s.member)) {
      const m = layout.members[s.member]!;
      let crc = 0;
      for await (const chunk of readMember(open, m.name, 0, m.size, stallMs)) crc = crc32(chunk, crc);
      known.set(s.member, crc);
      await crcs.learned(m.name, crc);
    }
  }

  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (const s of inSpan) {
      const from = Math.max(first, s.start);
      const to = Math.min(last, segmentEnd(s));
      if (s.kind === "bytes") yield s.bytes.subarray(from - s.start, to - s.start);
      else if (s.kind !== "data") yield crcRecord(layout, s, known.get(s.member)!).subarray(from - s.start, to - s.start);
      else {
        const m = layout.members[s.member]!;
        const computing = !known.has(s.member);
        let crc = 0;
        for await (const chunk of readMember(open, m.name, from - s.start, to - from, stallMs)) {
          if (computing) crc = crc32(chunk, crc);
          yield chunk;
        }
        if (computing) {
          known.set(s.member, crc);
          await crcs.learned(m.name, crc);
        }
      }
    }
  }

  // One chunk per pull: a file is passed on as the client takes it, never gathered.
  const source = chunks();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await source.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        await source.return(undefined).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/** [offset, offset + length) of a member's file, resumed from where it stopped if its body stalls. */
async function* readMember(open: OpenMember, name: string, offset: number, length: number, stallMs: number): AsyncGenerator<Uint8Array> {
  let done = 0;
  let resumes = 0;
  for (;;) {
    const body = await open(name, offset + done, length - done);
    if (!body) throw new Error(`${name} is no longer in storage`);
    const reader = body.getReader();
    try {
      for (;;) {
        const read = await readWithin(reader, stallMs);
        if (read === STALLED) {
          // A body that stops delivering would hold the download forever: drop it, read again from the same byte.
          if (resumes >= MAX_RESUMES) throw new MemberStalledError(name, offset + done);
          resumes += 1;
          logEvent("warn", ZIP_RESUME_LOG, { name, offset: offset + done, resume: resumes });
          break;
        }
        if (read.value?.byteLength) {
          done += read.value.byteLength;
          yield read.value;
        }
        if (read.done) {
          if (done !== length) throw new Error(`${name} ended after ${done} of ${length} bytes`);
          return;
        }
      }
    } finally {
      // Stalled, finished, failed or the client went away: the storage body is released either way.
      void reader.cancel().catch(() => undefined);
    }
  }
}
