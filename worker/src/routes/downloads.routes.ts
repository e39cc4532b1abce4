import { declareRoute } from "../openapi/declare-route";
import { JobIdParam } from "./path-params";

/** GET /jobs/{id}/download-all as the document shows it (mounted at /jobs; handler in downloads.ts). */
export const downloadAll = declareRoute({
  method: "get",
  path: "/{id}/download-all",
  operationId: "downloadAll",
  tag: "files",
  summary: "Every file of a completed job as one ZIP",
  description:
    "Built while it streams (videos and images stored, text deflated), with the published manifest.json. Send " +
    "either the `token` of the results' `zip_url` (no API key: the link works in a browser until " +
    "`links_expire_at`) or the owner's `X-API-Key` (then no token is needed; a key that is sent is checked even " +
    "when a token is present).",
  auth: "zipTokenOrApiKey",
  params: JobIdParam,
  success: {
    status: 200,
    description: "The ZIP, streamed (no Content-Length).",
    schema: { contentType: "application/zip", schema: { type: "string", contentMediaType: "application/zip" } },
    headers: { "Content-Disposition": { description: 'attachment; filename="<job_id>.zip"', schema: { type: "string" } } },
  },
  errors: ["job_not_found", "job_not_completed", "artifacts_expired", "range_not_satisfiable", "links_unavailable"],
});
