import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zipStream, type ZipEntrySource, type ZipOptions } from "../../worker/src/artifacts/zip-stream";

/**
 * The download-all ZIP writer (worker/src/artifacts/zip-stream.ts, Web streams only, so it runs in Node too) checked
 * by independent readers: Info-ZIP's `unzip -t` and Python's zipfile. Here because workers-pool tests cannot spawn
 * processes. Archives past the classic format's limits (65535 members, 4 GiB) need ZIP64 records.
 */

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "zip-stream-"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const MTIME = new Date(Date.UTC(2026, 10, 22, 8, 30, 0));

function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(c) {
      if (bytes.byteLength) c.enqueue(bytes);
      c.close();
    },
  });
}

function entry(name: string, bytes: Uint8Array, compress: boolean, opts: { unknownSize?: boolean } = {}): ZipEntrySource {
  return { name, compress, mtime: MTIME, size: opts.unknownSize ? undefined : bytes.byteLength, open: async () => streamOf(bytes) };
}

/**
 * Streams the archive to a file. Chunks that are `skip` itself (a shared all-zero buffer a stored member passes
 * through unchanged) leave a hole instead of being written, so a multi-GiB member costs no disk.
 */
async function writeArchive(file: string, entries: ZipEntrySource[], options?: ZipOptions, skip?: Uint8Array): Promise<number> {
  const handle = await fs.promises.open(file, "w");
  let position = 0;
  // Small chunks are gathered into one write (70,000 members would otherwise be ~300,000 writes).
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (!pendingBytes) return;
    const joined = Buffer.concat(pending);
    await handle.write(joined, 0, joined.byteLength, position - pendingBytes);
    pending = [];
    pendingBytes = 0;
  };
  try {
    const reader = zipStream(entries, options).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (value === skip) {
        await flush();
      } else {
        pending.push(value);
        pendingBytes += value.byteLength;
      }
      position += value.byteLength;
      if (pendingBytes >= 1 << 20) await flush();
    }
    await flush();
    await handle.truncate(position);
  } finally {
    await handle.close();
  }
  return position;
}

function run(cmd: string, args: string[]): { status: number | null; out: string } {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
  return { status: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

/** unzip -t: tests every member's CRC; exit 0 and "No errors detected" when the archive is sound. */
function unzipTest(file: string): void {
  const r = run("unzip", ["-tqq", file]);
  expect({ status: r.status, out: r.out.trim() }).toEqual({ status: 0, out: "" });
}

/** python3 is not among the packages scripts/setup-system.sh installs: its checks run where it exists; unzip always. */
const HAS_PYTHON = spawnSync("python3", ["--version"]).status === 0;
if (!HAS_PYTHON) console.warn("zip-stream.test: python3 not found, Python's zipfile checks are skipped (unzip -t still runs)");

interface PythonView {
  count: number;
  zip64_end: boolean;
  bad: string | null;
  members: Record<string, { size: number; compress_type: number; sha256: string | null }>;
}

/**
 * Python's zipfile: members with their sizes, CRC check of every member, and a SHA-256 of the small ones; `check`
 * runs only where python3 is installed.
 */
function withPython(file: string, check: (py: PythonView) => void): void {
  if (HAS_PYTHON) check(pythonRead(file));
}

function pythonRead(file: string, hashUpTo = 1 << 20): PythonView {
  const script = `
import hashlib, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    infos = z.infolist()
    members = {}
    for i in infos[:50]:
        digest = hashlib.sha256(z.read(i)).hexdigest() if i.file_size <= ${hashUpTo} else None
        members[i.filename] = {"size": i.file_size, "compress_type": i.compress_type, "sha256": digest}
    bad = z.testzip()
with open(sys.argv[1], "rb") as f:
    f.seek(-98, 2)
    tail = f.read()
print(json.dumps({"count": len(infos), "zip64_end": b"PK\\x06\\x06" in tail, "bad": bad, "members": members}))
`;
  const r = run("python3", ["-c", script, file]);
  expect(r.status, r.out).toBe(0);
  return JSON.parse(r.out);
}

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const text = (s: string) => new TextEncoder().encode(s);

function pseudoRandom(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** The central directory's "version needed" fields and whether any zip64 extra field (0x0001) is present. */
function centralDirectoryFacts(bytes: Uint8Array): { versions: number[]; zip64Extras: number; zip64End: boolean } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = bytes.byteLength - 22;
  while (eocd >= 0 && view.getUint32(eocd, true) !== 0x06054b50) eocd--;
  const zip64End = eocd >= 20 && view.getUint32(eocd - 20, true) === 0x07064b50;
  let p: number;
  let count: number;
  if (zip64End) {
    const record = Number(view.getBigUint64(eocd - 12, true));
    count = Number(view.getBigUint64(record + 32, true));
    p = Number(view.getBigUint64(record + 48, true));
  } else {
    count = view.getUint16(eocd + 10, true);
    p = view.getUint32(eocd + 16, true);
  }
  const versions: number[] = [];
  let zip64Extras = 0;
  for (let i = 0; i < count; i++) {
    expect(view.getUint32(p, true)).toBe(0x02014b50);
    versions.push(view.getUint16(p + 6, true));
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    for (let e = p + 46 + nameLen; e < p + 46 + nameLen + extraLen; e += 4 + view.getUint16(e + 2, true)) {
      if (view.getUint16(e, true) === 0x0001) zip64Extras++;
    }
    p += 46 + nameLen + extraLen + view.getUint16(p + 32, true);
  }
  return { versions, zip64Extras, zip64End };
}

const sample = (): Array<{ name: string; bytes: Uint8Array; compress: boolean }> => [
  { name: "reel-balanced.mp4", bytes: pseudoRandom(300_000, 7), compress: false },
  { name: "short-01.srt", bytes: text("1\n00:00:00,000 --> 00:00:02,500\nno way that worked\n\n".repeat(200)), compress: true },
  { name: "metadata.json", bytes: text(JSON.stringify({ title: "Best of the night", tags: ["celeste"] }, null, 2)), compress: true },
  { name: "résumé-ünïcode.txt", bytes: text("names in UTF-8\n"), compress: true },
  { name: "empty.bin", bytes: new Uint8Array(0), compress: false },
];

describe("download-all ZIP read by unzip and Python's zipfile", () => {
  it("a small archive has no ZIP64 records and opens everywhere, byte for byte", async () => {
    const file = path.join(dir, "small.zip");
    const files = sample();
    await writeArchive(file, files.map((f) => entry(f.name, f.bytes, f.compress)));
    unzipTest(file);
    withPython(file, (py) => {
      expect(py.bad).toBeNull();
      expect(py.zip64_end).toBe(false);
      for (const f of files) expect(py.members[f.name]).toEqual({ size: f.bytes.byteLength, compress_type: f.compress ? 8 : 0, sha256: sha256(f.bytes) });
    });
    const facts = centralDirectoryFacts(fs.readFileSync(file));
    expect(facts).toEqual({ versions: files.map(() => 20), zip64Extras: 0, zip64End: false });
  });

  it("the same archive forced into ZIP64 (every zip64 field and end record) opens everywhere, byte for byte", async () => {
    const file = path.join(dir, "forced.zip");
    const files = sample();
    await writeArchive(file, files.map((f) => entry(f.name, f.bytes, f.compress)), { forceZip64: true });
    unzipTest(file);
    withPython(file, (py) => {
      expect(py.bad).toBeNull();
      expect(py.zip64_end).toBe(true);
      for (const f of files) expect(py.members[f.name]).toEqual({ size: f.bytes.byteLength, compress_type: f.compress ? 8 : 0, sha256: sha256(f.bytes) });
    });
    const facts = centralDirectoryFacts(fs.readFileSync(file));
    expect(facts).toEqual({ versions: files.map(() => 45), zip64Extras: files.length, zip64End: true });
  });

  it("a member of unknown size gets ZIP64 sizes in its local header; the archive still opens", async () => {
    const file = path.join(dir, "unknown-size.zip");
    const bytes = pseudoRandom(50_000, 3);
    await writeArchive(file, [entry("known.bin", bytes, false), entry("unknown.bin", bytes, true, { unknownSize: true })]);
    unzipTest(file);
    withPython(file, (py) => {
      expect(py.bad).toBeNull();
      expect(py.members["unknown.bin"]!.sha256).toBe(sha256(bytes));
    });
    expect(centralDirectoryFacts(fs.readFileSync(file))).toEqual({ versions: [20, 45], zip64Extras: 1, zip64End: true });
  });

  it("more than 65535 members: the count goes into a zip64 end record, members stay classic", async () => {
    const file = path.join(dir, "many.zip");
    const count = 70_000;
    const entries = Array.from({ length: count }, (_, i) => entry(`f/${i}.txt`, text(`member ${i}\n`), i % 2 === 0));
    await writeArchive(file, entries);
    unzipTest(file);
    withPython(file, (py) => {
      expect(py.count).toBe(count);
      expect(py.bad).toBeNull();
      expect(py.zip64_end).toBe(true);
      expect(py.members["f/49.txt"]!.sha256).toBe(sha256(text("member 49\n")));
    });
    const facts = centralDirectoryFacts(fs.readFileSync(file));
    expect(facts.versions.length).toBe(count);
    expect(facts.zip64Extras).toBe(0);
  }, 120_000);
});

describe.runIf(process.env.ZIP64_LARGE === "1")("a member over 4 GiB (ZIP64_LARGE=1; streams 4 GiB through the writer)", () => {
  it("a stored member of 4 GiB + 3 bytes followed by another member opens with unzip -t and Python", async () => {
    const file = path.join(dir, "large.zip");
    const zero = new Uint8Array(1 << 20);
    const tail = text("end");
    const size = 4096 * zero.byteLength + tail.byteLength;
    const big: ZipEntrySource = {
      name: "reel-huge.mp4",
      compress: false,
      mtime: MTIME,
      size,
      open: async () => {
        let sent = 0;
        return new ReadableStream<Uint8Array>({
          pull(c) {
            if (sent < 4096) (c.enqueue(zero), sent++);
            else (c.enqueue(tail), c.close());
          },
        });
      },
    };
    const after = text("a member whose local header sits past 4 GiB\n");
    const total = await writeArchive(file, [big, entry("after.txt", after, true)], {}, zero);
    expect(total).toBeGreaterThan(2 ** 32);
    unzipTest(file);
    withPython(file, (py) => {
      expect(py.bad).toBeNull();
      expect(py.zip64_end).toBe(true);
      expect(py.members["reel-huge.mp4"]).toEqual({ size, compress_type: 0, sha256: null });
      expect(py.members["after.txt"]).toEqual({ size: after.byteLength, compress_type: 8, sha256: sha256(after) });
    });
  }, 300_000);
});

describe("a member whose body stops delivering", () => {
  /** Delivers `bytes` from `offset` in 64 KiB chunks; when `stallAfter` is set, stops (never ends) after that many bytes. */
  function source(bytes: Uint8Array, offset: number, stallAfter?: number): ReadableStream<Uint8Array> {
    let at = offset;
    return new ReadableStream<Uint8Array>({
      pull(c) {
        if (stallAfter !== undefined && at - offset >= stallAfter) return new Promise<void>(() => undefined);
        if (at >= bytes.byteLength) return c.close();
        const end = Math.min(bytes.byteLength, at + 65_536, stallAfter === undefined ? Infinity : offset + stallAfter);
        c.enqueue(bytes.slice(at, end));
        at = end;
      },
    });
  }

  it("is resumed from the byte where it stopped; the archive is complete and byte for byte", async () => {
    const video = new Uint8Array(1024 * 1024).map((_, i) => (i * 7) & 0xff);
    const notes = new TextEncoder().encode("caption line\n".repeat(20_000));
    const opens: [string, number][] = [];
    const stalling = (name: string, bytes: Uint8Array, compress: boolean, stalls: number[]): ZipEntrySource => ({
      name,
      compress,
      mtime: MTIME,
      size: bytes.byteLength,
      open: async (offset = 0) => {
        opens.push([name, offset]);
        const stall = stalls.shift();
        return source(bytes, offset, stall);
      },
    });
    const entries = [stalling("reel.mp4", video, false, [300_000, 200_001]), stalling("short.srt", notes, true, [50_000])];
    const file = path.join(dir, "resumed.zip");
    await writeArchive(file, entries, { stallMs: 200 });
    expect(opens).toEqual([
      ["reel.mp4", 0],
      ["reel.mp4", 300_000],
      ["reel.mp4", 500_001],
      ["short.srt", 0],
      ["short.srt", 50_000],
    ]);
    unzipTest(file);
    withPython(file, (py) => {
      expect(py.bad).toBeNull();
      expect(py.members["reel.mp4"]).toEqual({ size: video.byteLength, compress_type: 0, sha256: sha256(video) });
      expect(py.members["short.srt"]).toEqual({ size: notes.byteLength, compress_type: 8, sha256: sha256(notes) });
    });
  });

  it("that keeps stalling ends the archive with an error instead of hanging", async () => {
    const bytes = new Uint8Array(500_000);
    const entry: ZipEntrySource = { name: "stuck.mp4", compress: false, size: bytes.byteLength, open: async (offset = 0) => source(bytes, offset, 10_000) };
    const reader = zipStream([entry], { stallMs: 50 }).getReader();
    const error = await (async () => {
      for (;;) {
        const { done } = await reader.read();
        if (done) return null;
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toMatch(/stuck\.mp4 stopped delivering data at byte 40000/);
  });
});
