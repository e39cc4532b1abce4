import { z } from "zod";
import { declareRoute } from "../openapi/declare-route";

/** GET /files/{job_id}/{name} as the document shows it (mounted at /files; handler in files.ts). */

const header = (description: string) => ({ description, schema: { type: "string" } });
const file = { contentType: "application/octet-stream", schema: { type: "string", contentMediaType: "application/octet-stream" } };

export const downloadFile = declareRoute({
  method: "get",
  path: "/{job_id}/{name}",
  operationId: "downloadFile",
  tag: "files",
  summary: "One file behind a presigned deliverable link",
  description:
    "The `url` of a deliverable when the deployment signs links itself (with R2 API credentials configured the " +
    "links point at R2 directly instead). `expires` and `sig` are the credential; no API key. Supports Range " +
    "requests, so players can seek.",
  auth: "signedLink",
  params: z.object({
    job_id: z.string().meta({ description: "Job id." }),
    name: z.string().meta({ description: "File name (a deliverable's `name`)." }),
  }),
  // Read by the handler: a missing or altered signature is 403 invalid_link, not a 422.
  handlerParams: [
    { name: "expires", in: "query", required: true, description: "Unix time the link stops working.", schema: { type: "string", pattern: "^\\d+$" } },
    { name: "sig", in: "query", required: true, description: "Signature of the link (base64url).", schema: { type: "string" } },
    { name: "Range", in: "header", required: false, description: "One byte range, e.g. bytes=0-1023.", schema: { type: "string" } },
    { name: "If-Range", in: "header", required: false, description: "The ETag (or Last-Modified date) the client holds: the range is sent only if the file is that version, else the whole file (200).", schema: { type: "string" } },
  ],
  success: {
    status: 200,
    description: "The file.",
    schema: file,
    headers: {
      "Content-Type": header("The file's type: video/mp4, image/jpeg, application/x-subrip, application/json (also .otio), text/plain (.edl)."),
      "Content-Disposition": header('attachment; filename="<name>"'),
      "Accept-Ranges": header("bytes"),
      ETag: header("Entity tag of the stored object."),
    },
  },
  otherSuccess: [{ status: 206, description: "The requested byte range.", schema: file, headers: { "Content-Range": header("bytes <first>-<last>/<size>") } }],
  errors: ["file_not_found", "artifacts_expired", "range_not_satisfiable", "links_unavailable"],
});
