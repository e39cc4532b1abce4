import { Hono, type Context } from "hono";
import { artifactsExpired, isCompressible } from "../artifacts/expired";
import { artifactKey, verifyZipToken } from "../artifacts/links";
import { zipStream, type ZipEntrySource } from "../artifacts/zip-stream";
import { MANIFEST_FILE, type StoredResult } from "../artifacts/results";
import type { AppEnv } from "../hono-env";
import { ApiError, jobNotFound } from "../lib/api-error";
import { findAccountByApiKey } from "../storage/accounts";
import { openDb } from "../storage/db";
import { findJob, findJobById } from "../storage/jobs";
import type { JobRow } from "../storage/schema";

/**
 * GET /jobs/{id}/download-all: every file of a completed job as one ZIP, built while it streams (videos and
 * images stored, text deflated). Access: the `token` of zip_url (no API key needed; it grants this one job's
 * ZIP until links_expire_at) or the owner's X-API-Key.
 */
export const downloadRoutes = new Hono<AppEnv>();

async function authorisedJob(c: Context<AppEnv>, jobId: string): Promise<JobRow> {
  const db = openDb(c.env.DB);
  const apiKey = c.req.header("X-API-Key")?.trim();
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
  const verdict = await verifyZipToken({ LINK_SIGNING_KEY: key, LINK_SIGNING_KEY_PREVIOUS: c.env.LINK_SIGNING_KEY_PREVIOUS }, jobId, token);
  if (verdict === "invalid") throw new ApiError(401, "invalid_token", "The download token is not valid for this job.");
  if (verdict === "expired") {
    throw new ApiError(403, "link_expired", `This download link has expired. Request GET /jobs/${jobId}/results for a fresh zip_url.`);
  }
  const job = await findJobById(db, jobId);
  if (!job) throw jobNotFound();
  return job;
}

downloadRoutes.get("/:id/download-all", async (c) => {
  const job = await authorisedJob(c, c.req.param("id"));
  if (job.status !== "completed") {
    throw new ApiError(409, "job_not_completed", `The ZIP exists once the job is completed; it is ${job.status}.`, { status: job.status });
  }
  if (job.artifactsDeletedAt) throw artifactsExpired(job);
  if (!job.resultJson) throw new Error(`completed job ${job.id} has no stored result`);
  const result = JSON.parse(job.resultJson) as StoredResult;
  const mtime = new Date(job.finishedAt ?? job.updatedAt);

  // The ZIP holds the stored files byte for byte: the same names and sizes as the deliverables list.
  const entries: ZipEntrySource[] = result.artifacts.map((a) => ({
    name: a.name,
    compress: isCompressible(a.content_type),
    mtime,
    // Verified against storage when the job completed; decides whether the member needs ZIP64 sizes (>= 4 GiB).
    size: a.size_bytes,
    // A resumed member reads the rest of the object from where its first body stopped.
    open: async (offset = 0) => (await c.env.ARTIFACTS.get(artifactKey(job.id, a.name), offset > 0 ? { range: { offset } } : {}))?.body ?? null,
  }));
  if (!result.artifacts.some((a) => a.name === MANIFEST_FILE)) {
    // A renderer that did not store its manifest: the ZIP still describes itself (asset names are ZIP paths).
    const manifestBytes = new TextEncoder().encode(`${JSON.stringify(result.manifest, null, 2)}\n`);
    entries.push({ name: MANIFEST_FILE, compress: true, mtime, size: manifestBytes.byteLength, open: async () => new Response(manifestBytes).body });
  }

  return new Response(zipStream(entries), {
    status: 200,
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${job.id}.zip"`,
      "Cache-Control": "private, no-store",
    },
  });
});
