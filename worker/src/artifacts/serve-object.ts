import { rangeNotSatisfiable } from "../lib/api-error";
import { requestedRange } from "./byte-range";

/** What a request says about the part of a file it wants: `Range`, and `If-Range` (send the part only if unchanged). */
export interface RangeRequest {
  range?: string;
  ifRange?: string;
}

/**
 * A stored R2 object as an HTTP answer: the whole file (200) or the one byte range the client asked for (206; 416
 * when it lies past the end, thrown as the API's error), with its type, ETag and `Accept-Ranges`, plus the caller's own headers. Null when
 * the object does not exist (the caller says so in its own words). An `If-Range` naming another version than the
 * stored one gets the whole file (RFC 9110 13.1.5): a client resuming a download must not splice two versions.
 */
export async function serveStoredObject(bucket: R2Bucket, key: string, request: RangeRequest, extraHeaders: Record<string, string> = {}): Promise<Response | null> {
  // Only a Range request needs the size first; a plain GET opens the body once.
  const head = request.range ? await bucket.head(key) : null;
  const range = head ? requestedRange(request, head.size, head.httpEtag, head.uploaded) : null;
  if (range === "unsatisfiable") throw rangeNotSatisfiable(head!.size, "file");
  const object = await bucket.get(key, range ? { range } : {});
  if (!object) return null;
  const headers = new Headers({
    "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
    "Accept-Ranges": "bytes",
    ETag: object.httpEtag,
    ...extraHeaders,
  });
  if (range) {
    headers.set("Content-Range", `bytes ${range.offset}-${range.offset + range.length - 1}/${object.size}`);
    headers.set("Content-Length", String(range.length));
    return new Response(object.body, { status: 206, headers });
  }
  headers.set("Content-Length", String(object.size));
  return new Response(object.body, { status: 200, headers });
}
