import type { Context } from "hono";
import { artifactsExpired, filesGoneAt } from "../artifacts/expired";
import { artifactKey, verifyZipToken } from "../artifacts/links";
import { requestedRange } from "../artifacts/byte-range";
import { crcIndex } from "../artifacts/zip-crc-index";
import { layOutZip } from "../artifacts/zip-layout";
import { zipRangeStream } from "../artifacts/zip-range-stream";
import { MANIFEST_FILE, type StoredResult } from "../artifacts/results";
import type { AppEnv } from "../hono-env";
import { ApiRouter } from "../openapi/api-router";
import { downloadAll } from "./downloads.routes";
import { ApiError, jobNotFound, rangeNotSatisfiable } from "../lib/api-error";
import { findAccountByApiKey } from "../storage/accounts";
import { apiKeyHeader } from "../middleware/api-key-header";
import { openDb } from "../storage/db";
import { findJob, findJobById } from "../storage/jobs";
import type { JobRow } from "../storage/schema";

/**
 * GET /jobs/{id}/download-all: every file of a completed job as one ZIP of stored (uncompressed) members, laid out
 * before the first byte (artifacts/zip-layout.ts), so it has a Content-Length and a resumed download asks for the
 * rest with Range (206, If-Range). Access: the `token` of zip_url (no API key needed; it grants this one job's
 * ZIP until links_expire_at) or the owner's X-API-Key.
 */
export const downloadRoutes = new ApiRouter();

async function authorisedJob(c: Context<AppEnv>, jobId: string): Promise<JobRow> {
  const db = openDb(c.env.DB);
  const apiKey = apiKeyHeader(c.req.header("X-API-Key"));
  if (apiKey) {
    const owner = await findAccountByApiKey(db, apiKey);
    if (!owner) throw new ApiError(401, "invalid_api_key", "The API key is not valid or has been revoked.");
    const job = await findJob(db, owner.account.id, jobId);
    if (!job) throw jobNotFound();
    return job;
  }
  const token = c.req.query("token");
  if (!token) throw new ApiError(401, "missing_api_key", "Send your API key in the X-API-Key header, or use the zip_url of the job's results.");
  const key = c.env.LINK_SIGNING_KEY;
  if (!key) throw new ApiError(503, "links_unavailable", "Download links are not configured on this deployment.");
  // A token given twice is an altered link (which copy counts would depend on who reads it).
  const verdict =
    (c.req.queries("token") ?? []).length > 1
      ? "invalid"
      : await verifyZipToken({ LINK_SIGNING_KEY: key, LINK_SIGNING_KEY_PREVIOUS: c.env.LINK_SIGNING_KEY_PREVIOUS }, jobId, token);
  if (verdict === "invalid") throw new ApiError(401, "invalid_token", "The download token is not valid for this job.");
  if (verdict === "expired") {
    throw new ApiError(403, "link_expired", `This download link has expired. Request GET /jobs/${jobId}/results for a fresh zip_url.`);
  }
  const job = await findJobById(db, jobId);
  if (!job) throw jobNotFound();
  return job;
}

downloadRoutes.openapi(downloadAll, async (c) => {
  const job = await authorisedJob(c, c.req.param("id"));
  if (job.status !== "completed") {
    throw new ApiError(409, "job_not_completed", `The ZIP exists once the job is completed; it is ${job.status}.`, { status: job.status });
  }
  const goneAt = filesGoneAt(job);
  if (goneAt) throw artifactsExpired(job, goneAt);
  if (!job.resultJson) throw new Error(`completed job ${job.id} has no stored result`);
  const result = JSON.parse(job.resultJson) as StoredResult;
  const mtime = new Date(Math.floor(Date.parse(job.finishedAt ?? job.updatedAt) / 1000) * 1000);

  // The files as stored now (one listing): a file that vanished is left out, and each member has its real size.
  const stored = await storedSizes(c.env.ARTIFACTS, job.id);
  const members = result.artifacts.filter((a) => stored.has(a.name)).map((a) => ({ name: a.name, size: stored.get(a.name)! }));
  let manifestBytes: Uint8Array | null = null;
  if (!result.artifacts.some((a) => a.name === MANIFEST_FILE)) {
    // A renderer that did not store its manifest: the ZIP still describes itself (asset names are ZIP paths).
    manifestBytes = new TextEncoder().encode(`${JSON.stringify(result.manifest, null, 2)}\n`);
    members.push({ name: MANIFEST_FILE, size: manifestBytes.byteLength });
  }
  const layout = layOutZip(members, mtime);
  const etag = await archiveEtag(job.id, mtime, members);
  const range = requestedRange({ range: c.req.header("Range"), ifRange: c.req.header("If-Range") }, layout.length, etag, mtime);
  const headers = new Headers({
    "Content-Type": "application/zip",
    "Content-Disposition": `attachment; filename="${job.id}.zip"`,
    "Cache-Control": "private, no-store",
    "Accept-Ranges": "bytes",
    ETag: etag,
    "Last-Modified": mtime.toUTCString(),
  });
  if (range === "unsatisfiable") throw rangeNotSatisfiable(layout.length, "archive");
  const span = range ?? { offset: 0, length: layout.length };
  headers.set("Content-Length", String(span.length));
  if (range) headers.set("Content-Range", `bytes ${span.offset}-${span.offset + span.length - 1}/${layout.length}`);
  const status = range ? 206 : 200;
  if (c.req.method === "HEAD") return new Response(null, { status, headers });

  const sizes = new Map(members.map((m) => [m.name, m.size]));
  const crcs = await crcIndex(c.env.ARTIFACTS, job.id, sizes);
  const open = async (name: string, offset: number, length: number) => {
    if (manifestBytes && name === MANIFEST_FILE) return new Response(manifestBytes.subarray(offset, offset + length)).body;
    return (await c.env.ARTIFACTS.get(artifactKey(job.id, name), { range: { offset, length } }))?.body ?? null;
  };
  // A stream of known length: the runtime sends it with that Content-Length instead of chunked, and fails the
  // answer rather than send a different number of bytes than it promised.
  const body = (await zipRangeStream(layout, span, open, crcs)).pipeThrough(new FixedLengthStream(span.length));
  return new Response(body, { status, headers });
});

/** Sizes of the objects stored under the job's folder, by file name. */
async function storedSizes(bucket: R2Bucket, jobId: string): Promise<Map<string, number>> {
  const prefix = artifactKey(jobId, "");
  const sizes = new Map<string, number>();
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor });
    for (const o of page.objects) sizes.set(o.key.slice(prefix.length), o.size);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return sizes;
}

/**
 * A strong validator of the archive: its bytes follow from the layout (names, sizes, the job's finish time) and the
 * files' contents, which never change once a job completed.
 */
async function archiveEtag(jobId: string, mtime: Date, members: { name: string; size: number }[]): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(["zip-stored-v1", jobId, mtime.toISOString(), members])));
  return `"${[...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
}
