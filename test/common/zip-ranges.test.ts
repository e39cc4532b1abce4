import { execFile, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestedRange } from "../../worker/src/artifacts/byte-range";
import { layOutZip, type LayoutMember } from "../../worker/src/artifacts/zip-layout";
import { zipRangeStream, type CrcBook, type OpenMember } from "../../worker/src/artifacts/zip-range-stream";

/**
 * The resumable download-all archive (worker/src/artifacts/zip-layout.ts, zip-range-stream.ts; the route is
 * routes/downloads.ts) served over HTTP by the same modules and checked by independent clients: curl downloads it
 * in pieces and whole, Info-ZIP's `unzip -t` and Python's zipfile read it. Here because the Workers pool cannot
 * spawn processes, and because a ZIP64 archive (past 4 GiB) is made of files generated on the fly, not stored.
 */
const MTIME = new Date(Date.UTC(2026, 10, 26, 9, 0, 0));
const ETAG = '"test-archive"';
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "zip-ranges-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Served {
  url: string;
  server: Server;
}

/** Serves one archive as the route does: Content-Length, Accept-Ranges, 206 for a Range honouring If-Range. */
async function serve(members: LayoutMember[], open: OpenMember, crcs: CrcBook, forceZip64 = false): Promise<Served> {
  const layout = layOutZip(members, MTIME, { forceZip64 });
  const server = createServer((req, res) => {
    void (async () => {
      const range = requestedRange({ range: req.headers.range, ifRange: req.headers["if-range"] as string | undefined }, layout.length, ETAG, MTIME);
      if (range === "unsatisfiable") return res.writeHead(416, { "Content-Range": `bytes */${layout.length}` }).end();
      const span = range ?? { offset: 0, length: layout.length };
      const headers: Record<string, string> = { "Accept-Ranges": "bytes", ETag: ETAG, "Content-Length": String(span.length) };
      if (range) headers["Content-Range"] = `bytes ${span.offset}-${span.offset + span.length - 1}/${layout.length}`;
      res.writeHead(range ? 206 : 200, headers);
      Readable.fromWeb((await zipRangeStream(layout, span, open, crcs)) as import("node:stream/web").ReadableStream).pipe(res);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/archive.zip` };
}

/** A client process, run asynchronously: the server it talks to lives in this process. */
function run(cmd: string, args: string[]): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === "number" ? error.code : -1) : 0, out: `${stdout}${stderr}` });
    });
  });
}

async function curl(url: string, file: string, range?: string): Promise<void> {
  const r = await run("curl", ["-sS", "-f", "-o", file, ...(range ? ["-r", range] : []), url]);
  expect(r, r.out).toMatchObject({ status: 0 });
}

const sha = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");
const HAS_PYTHON = spawnSync("python3", ["--version"]).status === 0;

function bytesOf(seed: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed * 2654435761;
  for (let i = 0; i < length; i++) out[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  return out;
}

const inMemory = (files: Map<string, Uint8Array>): OpenMember => async (name, offset, length) => {
  const bytes = files.get(name)!;
  // Small chunks, so pieces fall inside a member's data as well as on its edges.
  return new ReadableStream({
    pull(c) {
      const at = offset;
      const n = Math.min(7_777, offset + length - at);
      if (n <= 0) return c.close();
      c.enqueue(bytes.slice(at, at + n));
      offset += n;
      length -= n;
    },
  });
};

const noCrcs = (): CrcBook & { learnedNames: string[] } => {
  const learnedNames: string[] = [];
  return { known: new Map(), learnedNames, learned: async (name) => void learnedNames.push(name) };
};

describe.each([
  ["a classic archive", false],
  ["an archive with every ZIP64 record", true],
])("%s downloaded by curl in pieces", (_label, forceZip64) => {
  let served: Served;
  let files: Map<string, Uint8Array>;

  beforeAll(async () => {
    files = new Map([
      ["reel-balanced.mp4", bytesOf(1, 300_001)],
      ["short-01.mp4", bytesOf(2, 120_000)],
      ["short-01.srt", new TextEncoder().encode("1\n00:00:00,000 --> 00:00:01,000\nlet's go\n")],
      ["empty.json", new Uint8Array(0)],
      ["manifest.json", new TextEncoder().encode(JSON.stringify({ shorts_count: 1 }))],
    ]);
    served = await serve([...files].map(([name, b]) => ({ name, size: b.byteLength })), inMemory(files), noCrcs(), forceZip64);
  });
  afterAll(() => served.server.close());

  it("joins to the whole download, which unzip and Python read back byte for byte", async () => {
    const whole = path.join(dir, `whole-${forceZip64}.zip`);
    await curl(served.url, whole);
    const size = fs.statSync(whole).size;
    const cuts = [0, 13, 30_000, 300_050, 420_100, size - 40, size];
    const pieces: Buffer[] = [];
    for (const [i, end] of cuts.slice(1).entries()) {
      const file = path.join(dir, `piece-${forceZip64}-${i}`);
      await curl(served.url, file, `${cuts[i]}-${end - 1}`);
      pieces.push(fs.readFileSync(file));
    }
    const joined = path.join(dir, `joined-${forceZip64}.zip`);
    fs.writeFileSync(joined, Buffer.concat(pieces));
    expect(sha(joined)).toBe(sha(whole));

    const t = await run("unzip", ["-tqq", joined]);
    expect({ status: t.status, out: t.out.trim() }).toEqual({ status: 0, out: "" });
    if (HAS_PYTHON) {
      const py = await run("python3", [
        "-c",
        `import hashlib,json,sys,zipfile
z=zipfile.ZipFile(sys.argv[1])
print(json.dumps({"bad": z.testzip(), "members": {i.filename: [i.compress_type, hashlib.sha256(z.read(i)).hexdigest()] for i in z.infolist()}, "zip64_end": b"PK\\x06\\x06" in open(sys.argv[1],"rb").read()[-120:]}))`,
        joined,
      ]);
      const view = JSON.parse(py.out) as { bad: string | null; members: Record<string, [number, string]>; zip64_end: boolean };
      expect(view.bad).toBeNull();
      expect(view.zip64_end).toBe(forceZip64);
      for (const [name, b] of files) expect(view.members[name]).toEqual([0, createHash("sha256").update(b).digest("hex")]);
    }
  });

  it("resumes with curl -C - after a download cut half-way", async () => {
    const whole = path.join(dir, `whole-${forceZip64}.zip`);
    const cut = path.join(dir, `cut-${forceZip64}.zip`);
    fs.writeFileSync(cut, fs.readFileSync(whole).subarray(0, 250_000));
    const r = await run("curl", ["-sS", "-f", "-C", "-", "-o", cut, served.url]);
    expect(r, r.out).toMatchObject({ status: 0 });
    expect(sha(cut)).toBe(sha(whole));
  });
});

describe("a real ZIP64 archive (a member of 4 GiB + 1 byte) read through ranges only", { timeout: 120_000 }, () => {
  const BIG = 2 ** 32 + 1;
  let served: Served;
  const small = bytesOf(3, 1000);

  beforeAll(async () => {
    // The big member is zeros generated on demand; its CRC is given (no reader here checks it, none reads it all).
    const zeros = new Uint8Array(1 << 20);
    const open: OpenMember = async (name, offset, length) => {
      if (name === "small.bin") return new Response(small.slice(offset, offset + length)).body;
      return new ReadableStream({
        pull(c) {
          if (length <= 0) return c.close();
          const n = Math.min(zeros.byteLength, length);
          c.enqueue(zeros.subarray(0, n));
          length -= n;
        },
      });
    };
    const crcs: CrcBook = { known: new Map([["reel.mp4", 0x12345678]]), learned: async () => undefined };
    served = await serve([{ name: "reel.mp4", size: BIG }, { name: "small.bin", size: small.byteLength }], open, crcs);
  });
  afterAll(() => served.server.close());

  it.runIf(HAS_PYTHON)("Python's zipfile lists it over HTTP ranges, finds the member past 4 GiB and reads the one after it", async () => {
    const py = await run("python3", [
      "-c",
      `import io,json,sys,urllib.request,zipfile
class Ranged(io.RawIOBase):
    def __init__(s, url):
        s.url, s.pos = url, 0
        s.size = int(urllib.request.urlopen(urllib.request.Request(url, method="HEAD")).headers["Content-Length"])
    def seekable(s): return True
    def readable(s): return True
    def tell(s): return s.pos
    def seek(s, off, whence=0):
        s.pos = off if whence == 0 else s.pos + off if whence == 1 else s.size + off
        return s.pos
    def read(s, n=-1):
        if n < 0: n = s.size - s.pos
        if n == 0 or s.pos >= s.size: return b""
        r = urllib.request.urlopen(urllib.request.Request(s.url, headers={"Range": f"bytes={s.pos}-{min(s.size, s.pos + n) - 1}"}))
        assert r.status == 206, r.status
        data = r.read()
        s.pos += len(data)
        return data
z = zipfile.ZipFile(Ranged(sys.argv[1]))
info = {i.filename: [i.file_size, i.header_offset] for i in z.infolist()}
with z.open("reel.mp4") as f: head = f.read(4096)
print(json.dumps({"info": info, "small": z.read("small.bin").hex(), "head_zero": head == bytes(4096)}))`,
      served.url,
    ]);
    expect(py.status, py.out).toBe(0);
    const view = JSON.parse(py.out) as { info: Record<string, [number, number]>; small: string; head_zero: boolean };
    expect(view.info["reel.mp4"]).toEqual([BIG, 0]);
    expect(view.info["small.bin"]![0]).toBe(1000);
    expect(view.info["small.bin"]![1]).toBeGreaterThan(2 ** 32);
    expect(view.small).toBe(Buffer.from(small).toString("hex"));
    expect(view.head_zero).toBe(true);
  });
});
