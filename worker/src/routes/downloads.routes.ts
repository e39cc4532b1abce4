import { declareRoute } from "../openapi/declare-route";
import { JobIdParam } from "./path-params";

/** GET /jobs/{id}/download-all as the document shows it (mounted at /jobs; handler in downloads.ts). */

const header = (description: string) => ({ description, schema: { type: "string" } });
const zip = { contentType: "application/zip", schema: { type: "string", contentMediaType: "application/zip" } };
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
  handlerParams: [
    { name: "Range", in: "header", required: false, description: "One byte range of the archive, e.g. bytes=1048576- to resume.", schema: { type: "string" } },
    { name: "If-Range", in: "header", required: false, description: "The archive's ETag (or Last-Modified date) the client holds: the range is sent only if the archive is that version, else all of it (200).", schema: { type: "string" } },
  ],
  success: {
    status: 200,
    description: "The ZIP, streamed.",
    schema: zip,
    headers: {
      "Content-Disposition": header('attachment; filename="<job_id>.zip"'),
      "Accept-Ranges": header("bytes"),
      ETag: header("Entity tag of this version of the archive."),
      "Last-Modified": header("When the job's files were last written."),
    },
  },
  // A Range request resumes a download (it used to be answered but not documented).
  otherSuccess: [{ status: 206, description: "The requested byte range of the archive.", schema: zip, headers: { "Content-Range": header("bytes <first>-<last>/<size>") } }],
  errors: ["job_not_found", "job_not_completed", "artifacts_expired", "range_not_satisfiable", "links_unavailable"],
});
