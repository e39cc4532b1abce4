import { env } from "cloudflare:workers";
import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { artifactKey } from "../../worker/src/artifacts/links";
import { CRC_INDEX_NAME } from "../../worker/src/artifacts/zip-crc-index";
import { call, createAccount, expectError, type TestAccount } from "./helpers";
import { record } from "./job-steps";
import { completeRenderTask, plannedJob, r2Keys, waitForStart } from "./task-flow";

/**
 * GET /jobs/{id}/download-all resumable (issue 23, point 5): a Content-Length, Accept-Ranges and 206 for a Range,
 * so a download cut half-way asks for the rest. Checked by downloading the archive in pieces with fetch and
 * comparing them, joined, with a whole download and with the stored files.
 */
let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

/** A job completed through its tasks (test/worker/task-flow.ts): 7 files, metadata.json and manifest.json included. */
async function completedJob(): Promise<string> {
  const { ack } = await plannedJob(acct.api_key);
  for (const id of ["reel-balanced-m01", "reel-balanced-m02", "short-01"]) await completeRenderTask(await waitForStart(ack.id, id));
  await completeRenderTask(await waitForStart(ack.id, "reel-balanced-join"));
  expect((await record(acct.api_key, ack.id)).status).toBe("completed");
  return ack.id;
}

const get = (apiKey: string, path: string, init: { headers?: Record<string, string> } = {}) => call(path, { headers: { "X-API-Key": apiKey, ...init.headers } });
const bytes = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const join = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.byteLength) - p.byteLength);
  return out;
};
const same = (a: Uint8Array, b: Uint8Array) => a.byteLength === b.byteLength && a.every((x, i) => x === b[i]);

describe("GET /jobs/{id}/download-all in pieces", { timeout: 90_000 }, () => {
  let jobId: string;
  let whole: Uint8Array;
  let etag: string;
  const zip = (headers: Record<string, string> = {}) => get(acct.api_key, `/jobs/${jobId}/download-all`, { headers });

  beforeAll(async () => {
    jobId = await completedJob();
  }, 90_000);

  it("a whole download states its length, offers ranges and holds every stored file byte for byte", async () => {
    const res = await zip();
    expect(res.status).toBe(200);
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    whole = await bytes(res);
    expect(res.headers.get("content-length")).toBe(String(whole.byteLength));
    const entries = unzipSync(whole);
    const names = (await r2Keys(jobId)).filter((k) => k !== CRC_INDEX_NAME);
    expect(Object.keys(entries).sort()).toEqual(names);
    for (const name of names) expect(same(entries[name]!, new Uint8Array(await (await env.ARTIFACTS.get(artifactKey(jobId, name)))!.arrayBuffer())), name).toBe(true);
  });

  it("pieces cut anywhere (inside headers, files, the central directory) join to the whole download", async () => {
    const cuts = [0, 7, 31, 1000, 5_001, 20_000, 49_999, whole.byteLength - 300, whole.byteLength - 21, whole.byteLength];
    const parts: Uint8Array[] = [];
    for (let i = 0; i + 1 < cuts.length; i++) {
      const res = await zip({ Range: `bytes=${cuts[i]}-${cuts[i + 1]! - 1}` });
      expect(res.status).toBe(206);
      expect(res.headers.get("content-range")).toBe(`bytes ${cuts[i]}-${cuts[i + 1]! - 1}/${whole.byteLength}`);
      expect(res.headers.get("content-length")).toBe(String(cuts[i + 1]! - cuts[i]!));
      parts.push(await bytes(res));
    }
    expect(same(join(parts), whole)).toBe(true);
    // Open-ended and suffix ranges, as resuming clients send them.
    expect(same(await bytes(await zip({ Range: "bytes=12345-" })), whole.subarray(12345))).toBe(true);
    expect(same(await bytes(await zip({ Range: "bytes=-100" })), whole.subarray(whole.byteLength - 100))).toBe(true);
  });

  it("If-Range: the same ETag gives the piece, another version the whole archive; HEAD the headers alone; past the end 416", async () => {
    const piece = await zip({ Range: "bytes=100-199", "If-Range": etag });
    expect(piece.status).toBe(206);
    expect(same(await bytes(piece), whole.subarray(100, 200))).toBe(true);
    const other = await zip({ Range: "bytes=100-199", "If-Range": '"0000"' });
    expect(other.status).toBe(200);
    expect(same(await bytes(other), whole)).toBe(true);
    const head = await call(`/jobs/${jobId}/download-all`, { method: "HEAD", headers: { "X-API-Key": acct.api_key } });
    expect([head.status, head.headers.get("content-length"), head.headers.get("etag"), (await bytes(head)).byteLength]).toEqual([200, String(whole.byteLength), etag, 0]);
    const past = await zip({ Range: `bytes=${whole.byteLength}-` });
    expect(past.headers.get("content-range")).toBe(`bytes */${whole.byteLength}`);
    const err = await expectError(past, 416, "range_not_satisfiable");
    expect(err.message).toBe(`The requested range lies outside the archive, which has ${whole.byteLength} bytes.`);
  });

  it("a first download cut half-way, resumed with Range on a job never downloaded before, joins to the whole", async () => {
    const fresh = await completedJob();
    const url = `/jobs/${fresh}/download-all`;
    const first = await get(acct.api_key, url);
    const length = Number(first.headers.get("content-length"));
    // Read a little more than half, then drop the connection.
    const reader = first.body!.getReader();
    const got: Uint8Array[] = [];
    let received = 0;
    while (received < length / 2) {
      const { value, done } = await reader.read();
      if (done) break;
      got.push(value);
      received += value.byteLength;
    }
    await reader.cancel();
    const rest = await get(acct.api_key, url, { headers: { Range: `bytes=${received}-`, "If-Range": first.headers.get("etag")! } });
    expect(rest.status).toBe(206);
    const resumed = join([...got, await bytes(rest)]);
    const again = await bytes(await get(acct.api_key, url));
    expect(same(resumed, again)).toBe(true);
    const listed = ((await (await get(acct.api_key, `/jobs/${fresh}/results`)).json()) as { deliverables: { name: string }[] }).deliverables.map((d) => d.name);
    expect(Object.keys(unzipSync(resumed)).sort()).toEqual(listed.sort());
  });

  it("answers a zip_url download (no API key) with the same bytes and ranges", async () => {
    const results = (await (await get(acct.api_key, `/jobs/${jobId}/results`)).json()) as { zip_url: string };
    const path = results.zip_url.replace(/^https:\/\/api\.test/, "");
    const res = await call(path, { headers: { Range: "bytes=0-99" } });
    expect(res.status).toBe(206);
    expect(same(await bytes(res), whole.subarray(0, 100))).toBe(true);
  });
});
