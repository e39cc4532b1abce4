import { createHash, createHmac } from "node:crypto";
import { startRecorder, type RecordedRequest } from "./http-recorder";

/**
 * A local stand-in for R2's S3 API (an outside service): PUT, GET and HEAD object, multipart
 * create/upload/complete/abort. Every request's SigV4 signature is re-computed here with node:crypto,
 * independently of aws4fetch: in the Authorization header, or in the query of a presigned URL (X-Amz-Signature,
 * refused after X-Amz-Date + X-Amz-Expires, like S3). A multipart upload belongs to the key it was created for:
 * a part or completion for it on another key is NoSuchUpload, as on S3.
 */
export async function startFakeS3(creds: { accessKeyId: string; secretAccessKey: string; region: string }) {
  const objects = new Map<string, Buffer>();
  const uploads = new Map<string, Map<number, Buffer>>();
  const uploadKeys = new Map<string, string>();
  const signatureFailures: string[] = [];
  const expired: string[] = [];
  let nextUpload = 1;
  /** Failure injection: answer this status instead of handling the request. */
  let intercept: (req: RecordedRequest) => number | undefined = () => undefined;

  const server = await startRecorder((req, res) => {
    const injected = intercept(req);
    if (injected !== undefined) return void res.writeHead(injected).end(`<Error><Code>Injected</Code></Error>`);
    const url = new URL(req.url, "http://x");
    const verdict = url.searchParams.has("X-Amz-Signature") ? verifyPresigned(req, creds) : verifySigV4(req, creds) ? "ok" : "bad";
    if (verdict === "expired") {
      expired.push(`${req.method} ${req.url}`);
      res.writeHead(403).end("<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>");
      return;
    }
    if (verdict !== "ok") {
      signatureFailures.push(`${req.method} ${req.url}`);
      res.writeHead(403).end("<Error><Code>SignatureDoesNotMatch</Code></Error>");
      return;
    }
    const key = decodeURIComponent(url.pathname.slice(1));
    const noSuchUpload = () => void res.writeHead(404).end("<Error><Code>NoSuchUpload</Code></Error>");
    const uploadOf = (id: string) => (uploadKeys.get(id) === key ? uploads.get(id) : undefined);
    if (req.method === "POST" && url.searchParams.has("uploads")) {
      const id = `up${nextUpload++}`;
      uploads.set(id, new Map());
      uploadKeys.set(id, key);
      res.writeHead(200, { "content-type": "application/xml" }).end(`<InitiateMultipartUploadResult><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
    } else if (req.method === "PUT" && url.searchParams.has("partNumber")) {
      const parts = uploadOf(url.searchParams.get("uploadId") ?? "");
      if (!parts) return noSuchUpload();
      const n = Number(url.searchParams.get("partNumber"));
      parts.set(n, req.body);
      res.writeHead(200, { etag: `"etag-${n}"` }).end();
    } else if (req.method === "POST" && url.searchParams.has("uploadId")) {
      const id = url.searchParams.get("uploadId") ?? "";
      const parts = uploadOf(id);
      if (!parts) return noSuchUpload();
      const listed = [...req.body.toString().matchAll(/<PartNumber>(\d+)<\/PartNumber><ETag>"etag-(\d+)"<\/ETag>/g)].map((m) => Number(m[1]));
      objects.set(key, Buffer.concat(listed.map((n) => parts.get(n) ?? Buffer.alloc(0))));
      uploads.delete(id);
      res.writeHead(200).end("<CompleteMultipartUploadResult/>");
    } else if (req.method === "DELETE" && url.searchParams.has("uploadId")) {
      const id = url.searchParams.get("uploadId") ?? "";
      if (!uploadOf(id)) return noSuchUpload();
      uploads.delete(id);
      res.writeHead(204).end();
    } else if (req.method === "HEAD") {
      const body = objects.get(key);
      res.writeHead(body ? 200 : 404, body ? { "content-length": String(body.length) } : {}).end();
    } else if (req.method === "GET") {
      const body = objects.get(key);
      if (!body) return void res.writeHead(404).end("<Error><Code>NoSuchKey</Code></Error>");
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(body.length) }).end(body);
    } else if (req.method === "PUT") {
      objects.set(key, req.body);
      res.writeHead(200, { etag: '"x"' }).end();
    } else {
      res.writeHead(400).end();
    }
  });
  return {
    ...server,
    objects,
    uploads,
    signatureFailures,
    /** Presigned requests refused because their URL had expired. */
    expired,
    intercept(fn: typeof intercept) {
      intercept = fn;
    },
  };
}

function sha256Hex(data: string | Buffer) {
  return createHash("sha256").update(data).digest("hex");
}

function verifySigV4(req: RecordedRequest, creds: { accessKeyId: string; secretAccessKey: string; region: string }): boolean {
  const auth = String(req.headers.authorization ?? "");
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m || m[1] !== creds.accessKeyId || m[3] !== creds.region) return false;
  const [, , date, region, signedHeaders, signature] = m;
  const amzDate = String(req.headers["x-amz-date"]);
  const payloadHash = String(req.headers["x-amz-content-sha256"] ?? "");
  if (payloadHash !== "UNSIGNED-PAYLOAD" && payloadHash !== sha256Hex(req.body)) return false;
  const url = new URL(req.url, "http://x");
  const query = [...url.searchParams.entries()]
    .map(([k, v]) => [encodeRfc3986(k), encodeRfc3986(v)])
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const headerNames = signedHeaders.split(";");
  const canonicalHeaders = headerNames.map((h) => `${h}:${String(req.headers[h] ?? "").trim().replace(/\s+/g, " ")}\n`).join("");
  const canonicalRequest = [req.method, url.pathname, query, canonicalHeaders, signedHeaders, payloadHash].join("\n");
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
  let key: Buffer = createHmac("sha256", `AWS4${creds.secretAccessKey}`).update(date).digest();
  for (const part of [region, "s3", "aws4_request"]) key = createHmac("sha256", key).update(part).digest();
  return createHmac("sha256", key).update(stringToSign).digest("hex") === signature;
}

/** A presigned URL (query-string SigV4, UNSIGNED-PAYLOAD): "ok", "expired" or "bad". */
function verifyPresigned(req: RecordedRequest, creds: { accessKeyId: string; secretAccessKey: string; region: string }): "ok" | "expired" | "bad" {
  const url = new URL(req.url, "http://x");
  const q = url.searchParams;
  if (q.get("X-Amz-Algorithm") !== "AWS4-HMAC-SHA256") return "bad";
  const cred = /^([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request$/.exec(q.get("X-Amz-Credential") ?? "");
  const amzDate = q.get("X-Amz-Date") ?? "";
  const expires = Number(q.get("X-Amz-Expires"));
  const signedHeaders = q.get("X-Amz-SignedHeaders") ?? "";
  if (!cred || cred[1] !== creds.accessKeyId || cred[3] !== creds.region || !/^\d{8}T\d{6}Z$/.test(amzDate) || !amzDate.startsWith(cred[2]!)) return "bad";
  if (!Number.isInteger(expires) || expires < 1 || expires > 604_800) return "bad";
  const query = [...q.entries()]
    .filter(([k]) => k !== "X-Amz-Signature")
    .map(([k, v]) => [encodeRfc3986(k), encodeRfc3986(v)])
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const canonicalHeaders = signedHeaders.split(";").map((h) => `${h}:${String(req.headers[h] ?? "").trim().replace(/\s+/g, " ")}\n`).join("");
  const canonicalRequest = [req.method, url.pathname, query, canonicalHeaders, signedHeaders, "UNSIGNED-PAYLOAD"].join("\n");
  const scope = `${cred[2]}/${cred[3]}/s3/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
  let key: Buffer = createHmac("sha256", `AWS4${creds.secretAccessKey}`).update(cred[2]!).digest();
  for (const part of [cred[3]!, "s3", "aws4_request"]) key = createHmac("sha256", key).update(part).digest();
  if (createHmac("sha256", key).update(stringToSign).digest("hex") !== q.get("X-Amz-Signature")) return "bad";
  const signedAt = Date.UTC(+amzDate.slice(0, 4), +amzDate.slice(4, 6) - 1, +amzDate.slice(6, 8), +amzDate.slice(9, 11), +amzDate.slice(11, 13), +amzDate.slice(13, 15));
  return Date.now() > signedAt + expires * 1000 ? "expired" : "ok";
}

function encodeRfc3986(s: string) {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}
