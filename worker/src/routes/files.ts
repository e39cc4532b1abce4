import { serveStoredObject } from "../artifacts/serve-object";
import { artifactsExpired, filesGoneAt } from "../artifacts/expired";
import { artifactKey, verifyArtifactLink } from "../artifacts/links";
import { ApiRouter } from "../openapi/api-router";
import { downloadFile } from "./files.routes";
import { ApiError } from "../lib/api-error";
import { openDb } from "../storage/db";
import { findJobById } from "../storage/jobs";

/**
 * GET /files/{job_id}/{name}?expires=&sig= : the Worker-signed download links of results and webhooks (used
 * when R2 API credentials are not configured). The signature is the only credential, so no API key is needed.
 * Supports Range requests (players seek in the videos).
 */
export const filesRoutes = new ApiRouter();

function contentDisposition(name: string): string {
  return `attachment; filename="${name}"`;
}

filesRoutes.openapi(downloadFile, async (c) => {
  const jobId = c.req.param("job_id");
  const name = c.req.param("name");
  const key = c.env.LINK_SIGNING_KEY;
  if (!key) throw new ApiError(503, "links_unavailable", "Download links are not configured on this deployment.");
  // A parameter given twice is an altered link: which copy counts would depend on who reads it (a cache, a proxy).
  const given = (param: string) => c.req.queries(param) ?? [];
  const single = given("expires").length <= 1 && given("sig").length <= 1;
  const verdict = single
    ? await verifyArtifactLink({ LINK_SIGNING_KEY: key, LINK_SIGNING_KEY_PREVIOUS: c.env.LINK_SIGNING_KEY_PREVIOUS }, jobId, name, c.req.query("expires"), c.req.query("sig"))
    : "invalid";
  if (verdict === "invalid") throw new ApiError(403, "invalid_link", "This download link is not valid (it was altered or is incomplete).");
  if (verdict === "expired") {
    throw new ApiError(403, "link_expired", `This download link has expired. Request GET /jobs/${jobId}/results for fresh links.`);
  }

  const job = await findJobById(openDb(c.env.DB), jobId);
  if (!job) throw new ApiError(404, "file_not_found", "No such file.");
  const goneAt = filesGoneAt(job);
  if (goneAt) throw artifactsExpired(job, goneAt);

  const objectKey = artifactKey(jobId, name);
  if (c.req.method === "HEAD") {
    // Hono answers HEAD with the GET route and drops the body: an R2 body opened for it would stay unread and
    // hold its storage read open. HEAD reads the object's metadata only.
    const meta = await c.env.ARTIFACTS.head(objectKey);
    if (!meta) throw new ApiError(404, "file_not_found", "No such file.");
    return new Response(null, {
      status: 200,
      headers: {
        "Content-Type": meta.httpMetadata?.contentType ?? "application/octet-stream",
        "Content-Disposition": contentDisposition(name),
        "Accept-Ranges": "bytes",
        ETag: meta.httpEtag,
        "Cache-Control": "private, max-age=3600",
        "Content-Length": String(meta.size),
      },
    });
  }
  const served = await serveStoredObject(c.env.ARTIFACTS, objectKey, { range: c.req.header("Range"), ifRange: c.req.header("If-Range") }, { "Content-Disposition": contentDisposition(name), "Cache-Control": "private, max-age=3600" });
  if (!served) throw new ApiError(404, "file_not_found", "No such file.");
  return served;
});
