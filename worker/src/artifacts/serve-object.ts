import { rangeNotSatisfiable } from "../lib/api-error";
import { parseByteRange } from "./byte-range";

/**
 * A stored R2 object as an HTTP answer: the whole file (200) or the one byte range the client asked for (206; 416
 * when it lies past the end, thrown as the API's error), with its type, ETag and `Accept-Ranges`, plus the caller's own headers. Null when
 * the object does not exist (the caller says so in its own words).
 */
export async function serveStoredObject(bucket: R2Bucket, key: string, rangeHeader: string | undefined, extraHeaders: Record<string, string> = {}): Promise<Response | null> {
  // Only a Range request needs the size first; a plain GET opens the body once.
  const head = rangeHeader ? await bucket.head(key) : null;
  const range = head ? parseByteRange(rangeHeader, head.size) : null;
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
