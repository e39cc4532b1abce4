import { AwsClient } from "aws4fetch";
import type { PresignedRequest } from "../../../common/contract/render";

/**
 * The renderer's access to R2 when R2 API credentials are configured (upload mode "presigned"): the Worker keeps
 * the credentials and hands the renderer, one request at a time, a presigned URL for exactly one operation on
 * exactly one object of its job (PUT the file, PUT one part, GET it back, HEAD it, DELETE an upload); the two
 * multipart calls R2 does not accept presigned (they are POSTs: CreateMultipartUpload, CompleteMultipartUpload)
 * the Worker makes itself. A renderer parsing untrusted media so never holds a key that reaches another job's
 * files, or any file after a few minutes.
 *
 * R2's documented presigned URLs: GET, PUT, HEAD or DELETE, expiry 1 second to 7 days ("R2: Presigned URLs").
 * The S3 API checks the expiry when a request starts, so a long part upload begun in time completes.
 */

/** How long a presigned URL stays valid: the renderer asks for each right before using it. */
export const PRESIGN_TTL_SECONDS = 15 * 60;

/** What signing needs (links.ts' r2S3Access builds it from the Worker's env). A leaf module: Node tests run it too. */
export interface R2S3Access {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const client = (s3: R2S3Access) => new AwsClient({ accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, service: "s3", region: "auto", retries: 0 });

function objectUrl(s3: R2S3Access, key: string, query: Record<string, string> = {}): URL {
  const url = new URL(`${s3.endpoint.replace(/\/+$/, "")}/${s3.bucket}/${key.split("/").map(encodeURIComponent).join("/")}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url;
}

/** A SigV4 query-signed URL (UNSIGNED-PAYLOAD) for one request on `key`; the query (part number, upload id) is signed too. */
export async function presignObjectRequest(
  s3: R2S3Access,
  r: { method: PresignedRequest["method"]; key: string; query?: Record<string, string>; ttlSeconds?: number; now?: Date },
): Promise<PresignedRequest> {
  const ttl = Math.max(1, Math.min(7 * 24 * 3600, r.ttlSeconds ?? PRESIGN_TTL_SECONDS));
  const now = r.now ?? new Date();
  const url = objectUrl(s3, r.key, { ...r.query, "X-Amz-Expires": String(ttl) });
  const datetime = now.toISOString().replace(/[:-]|\.\d{3}/g, "");
  const signed = await client(s3).sign(new Request(url, { method: r.method }), { aws: { signQuery: true, datetime } });
  return { method: r.method, url: signed.url, expires_at: Math.floor(now.getTime() / 1000) + ttl };
}

/** R2's answer to a multipart call, when it is an S3 error: its code. */
export class S3CallError extends Error {
  constructor(readonly status: number, readonly code: string | null, what: string, text: string) {
    super(`${what}: R2 answered HTTP ${status} ${text.slice(0, 200)}`);
    this.name = "S3CallError";
  }
}

async function signedCall(s3: R2S3Access, what: string, url: URL, init: RequestInit, fetchImpl: typeof fetch): Promise<string> {
  const req = await client(s3).sign(new Request(url, init));
  let res: Response;
  try {
    res = await fetchImpl(req);
  } catch (error) {
    // R2 not reached at all: the same as its 5xx for the caller (the renderer retries).
    throw new S3CallError(502, null, what, `unreachable (${String(error)})`);
  }
  const text = await res.text();
  // S3 may answer 200 and still report an error in the body (CompleteMultipartUpload).
  const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? null;
  if (!res.ok || /<Error>/.test(text)) throw new S3CallError(res.status, code, what, text);
  return text;
}

/** CreateMultipartUpload on `key`; R2's upload id. */
export async function createMultipartUpload(s3: R2S3Access, key: string, contentType: string, fetchImpl: typeof fetch = fetch): Promise<string> {
  const text = await signedCall(s3, "create multipart upload", objectUrl(s3, key, { uploads: "" }), { method: "POST", headers: { "content-type": contentType } }, fetchImpl);
  const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(text)?.[1];
  if (!uploadId) throw new S3CallError(502, null, "create multipart upload", "no UploadId in the answer");
  return uploadId;
}

const xmlEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * CompleteMultipartUpload of `uploadId` on `key`. A repeated completion (its first answer lost) finds the upload
 * gone: then the object's size says whether that earlier completion made it ("already"), else NoSuchUpload stands.
 */
export async function completeMultipartUpload(
  s3: R2S3Access,
  c: { key: string; uploadId: string; parts: { part_number: number; etag: string }[]; sizeBytes: number },
  fetchImpl: typeof fetch = fetch,
): Promise<"completed" | "already"> {
  const xml = `<CompleteMultipartUpload>${[...c.parts]
    .sort((a, b) => a.part_number - b.part_number)
    .map((p) => `<Part><PartNumber>${p.part_number}</PartNumber><ETag>${xmlEscape(p.etag)}</ETag></Part>`)
    .join("")}</CompleteMultipartUpload>`;
  try {
    await signedCall(s3, "complete multipart upload", objectUrl(s3, c.key, { uploadId: c.uploadId }), { method: "POST", headers: { "content-type": "application/xml" }, body: xml }, fetchImpl);
    return "completed";
  } catch (error) {
    if (!(error instanceof S3CallError) || error.status !== 404) throw error;
    const head = await fetchImpl(await client(s3).sign(new Request(objectUrl(s3, c.key), { method: "HEAD" })));
    await head.body?.cancel();
    if (head.ok && Number(head.headers.get("content-length")) === c.sizeBytes) return "already";
    throw error;
  }
}
