import { describe, expect, it } from "vitest";
import { parseByteRange } from "../../worker/src/artifacts/byte-range";
import { artifactLink, linkTtlSeconds, rendererJobToken, verificationKeys, verifyArtifactLink, verifyRendererJobToken, verifyZipToken, zipToken } from "../../worker/src/artifacts/links";

const KEY = { LINK_SIGNING_KEY: "k1" };
const now = () => Math.floor(Date.now() / 1000);

describe("Worker-signed file links", () => {
  it("verify for exactly the job, file and expiry they were made for", async () => {
    const exp = now() + 600;
    const url = new URL(await artifactLink(KEY, "https://api.example", "job_A", "short-01.mp4", exp));
    expect(url.origin + url.pathname).toBe("https://api.example/files/job_A/short-01.mp4");
    expect(url.searchParams.get("expires")).toBe(String(exp));
    const sig = url.searchParams.get("sig")!;
    expect(await verifyArtifactLink(KEY, "job_A", "short-01.mp4", String(exp), sig)).toBe("ok");
    expect(await verifyArtifactLink(KEY, "job_B", "short-01.mp4", String(exp), sig)).toBe("invalid");
    expect(await verifyArtifactLink(KEY, "job_A", "short-02.mp4", String(exp), sig)).toBe("invalid");
    expect(await verifyArtifactLink(KEY, "job_A", "short-01.mp4", String(exp + 1), sig)).toBe("invalid");
    expect(await verifyArtifactLink({ LINK_SIGNING_KEY: "k2" }, "job_A", "short-01.mp4", String(exp), sig)).toBe("invalid");
    expect(await verifyArtifactLink(KEY, "job_A", "short-01.mp4", "soon", sig)).toBe("invalid");
    expect(await verifyArtifactLink(KEY, "job_A", "short-01.mp4", String(exp), undefined)).toBe("invalid");
  });

  it("expire at their expiry", async () => {
    const exp = now() - 1;
    const sig = new URL(await artifactLink(KEY, "https://x", "job_A", "a.mp4", exp)).searchParams.get("sig")!;
    expect(await verifyArtifactLink(KEY, "job_A", "a.mp4", String(exp), sig)).toBe("expired");
  });
});

describe("download-all token", () => {
  it("grants one job's ZIP until it expires", async () => {
    const token = await zipToken(KEY, "job_A", now() + 60);
    expect(await verifyZipToken(KEY, "job_A", token)).toBe("ok");
    expect(await verifyZipToken(KEY, "job_B", token)).toBe("invalid");
    expect(await verifyZipToken(KEY, "job_A", token.replace(/^\d+/, (e) => String(Number(e) + 1)))).toBe("invalid");
    expect(await verifyZipToken(KEY, "job_A", "nodot")).toBe("invalid");
    expect(await verifyZipToken(KEY, "job_A", await zipToken(KEY, "job_A", now() - 1))).toBe("expired");
  });
});

describe("renderer job token", () => {
  it("differs per job and per signing key", async () => {
    const a = await rendererJobToken(KEY, "job_A");
    expect(a).toBe(await rendererJobToken(KEY, "job_A"));
    expect(a).not.toBe(await rendererJobToken(KEY, "job_B"));
    expect(a).not.toBe(await rendererJobToken({ LINK_SIGNING_KEY: "k2" }, "job_A"));
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe("signing-key rotation (LINK_SIGNING_KEY_PREVIOUS)", () => {
  const OLD = { LINK_SIGNING_KEY: "k1" };
  const ROTATED = { LINK_SIGNING_KEY: "k2", LINK_SIGNING_KEY_PREVIOUS: "k1" };
  const sigOf = async (env: typeof OLD, exp: number) => new URL(await artifactLink(env, "https://x", "job_A", "a.mp4", exp)).searchParams.get("sig")!;

  it("signs with the current key only", async () => {
    const exp = now() + 600;
    expect(await sigOf(ROTATED, exp)).toBe(await sigOf({ LINK_SIGNING_KEY: "k2" }, exp));
    expect(await zipToken(ROTATED, "job_A", exp)).toBe(await zipToken({ LINK_SIGNING_KEY: "k2" }, "job_A", exp));
    expect(await rendererJobToken(ROTATED, "job_A")).toBe(await rendererJobToken({ LINK_SIGNING_KEY: "k2" }, "job_A"));
  });

  it("accepts file links, zip tokens and renderer tokens made with either key, and no third", async () => {
    const exp = now() + 600;
    for (const env of [OLD, ROTATED, { LINK_SIGNING_KEY: "k2" }]) {
      const sig = await sigOf(env, exp);
      expect(await verifyArtifactLink(ROTATED, "job_A", "a.mp4", String(exp), sig)).toBe("ok");
      expect(await verifyZipToken(ROTATED, "job_A", await zipToken(env, "job_A", exp))).toBe("ok");
      expect(await verifyRendererJobToken(ROTATED, "job_A", await rendererJobToken(env, "job_A"))).toBe(true);
    }
    const other = { LINK_SIGNING_KEY: "k3" };
    expect(await verifyArtifactLink(ROTATED, "job_A", "a.mp4", String(exp), await sigOf(other, exp))).toBe("invalid");
    expect(await verifyZipToken(ROTATED, "job_A", await zipToken(other, "job_A", exp))).toBe("invalid");
    expect(await verifyRendererJobToken(ROTATED, "job_A", await rendererJobToken(other, "job_A"))).toBe(false);
    // Still bound to the job, file and expiry under the previous key.
    const oldSig = await sigOf(OLD, exp);
    expect(await verifyArtifactLink(ROTATED, "job_B", "a.mp4", String(exp), oldSig)).toBe("invalid");
    expect(await verifyArtifactLink(ROTATED, "job_A", "a.mp4", String(exp + 1), oldSig)).toBe("invalid");
    expect(await verifyRendererJobToken(ROTATED, "job_B", await rendererJobToken(OLD, "job_A"))).toBe(false);
    // Expired stays expired whichever key signed it.
    expect(await verifyArtifactLink(ROTATED, "job_A", "a.mp4", String(now() - 1), await sigOf(OLD, now() - 1))).toBe("expired");
    expect(await verifyZipToken(ROTATED, "job_A", await zipToken(OLD, "job_A", now() - 1))).toBe("expired");
  });

  it("without the previous key, the old key's signatures are invalid (the rotation ends by removing it)", async () => {
    const exp = now() + 600;
    const current = { LINK_SIGNING_KEY: "k2" };
    expect(await verifyArtifactLink(current, "job_A", "a.mp4", String(exp), await sigOf(OLD, exp))).toBe("invalid");
    expect(await verifyZipToken(current, "job_A", await zipToken(OLD, "job_A", exp))).toBe("invalid");
    expect(await verifyRendererJobToken(current, "job_A", await rendererJobToken(OLD, "job_A"))).toBe(false);
  });

  it("ignores an empty previous key and a previous key equal to the current one", () => {
    expect(verificationKeys({ LINK_SIGNING_KEY: "k2", LINK_SIGNING_KEY_PREVIOUS: "" })).toEqual(["k2"]);
    expect(verificationKeys({ LINK_SIGNING_KEY: "k2", LINK_SIGNING_KEY_PREVIOUS: "  " })).toEqual(["k2"]);
    expect(verificationKeys({ LINK_SIGNING_KEY: "k2", LINK_SIGNING_KEY_PREVIOUS: "k2" })).toEqual(["k2"]);
    expect(verificationKeys(ROTATED)).toEqual(["k2", "k1"]);
  });
});

describe("R2 presigned links (R2 API credentials configured)", () => {
  const s3 = { ...KEY, R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "secret", R2_ACCOUNT_ID: "acc123", R2_BUCKET_NAME: "bucket-x" };

  it("point at the bucket's S3 endpoint with a SigV4 query signature for the remaining lifetime", async () => {
    const url = new URL(await artifactLink(s3, "https://api.example", "job_A", "reel-balanced.mp4", now() + 3600));
    expect(url.origin).toBe("https://acc123.r2.cloudflarestorage.com");
    expect(url.pathname).toBe("/bucket-x/jobs/job_A/reel-balanced.mp4");
    expect(url.searchParams.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
    expect(url.searchParams.get("X-Amz-Credential")).toMatch(/^AKIDEXAMPLE\/\d{8}\/auto\/s3\/aws4_request$/);
    expect(Number(url.searchParams.get("X-Amz-Expires"))).toBeGreaterThan(3590);
    expect(Number(url.searchParams.get("X-Amz-Expires"))).toBeLessThanOrEqual(3600);
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("never exceed the S3 maximum of 7 days, and use R2_S3_ENDPOINT when set", async () => {
    const url = new URL(await artifactLink({ ...s3, R2_S3_ENDPOINT: "http://127.0.0.1:9000/" }, "https://x", "job_A", "a.mp4", now() + 30 * 86400));
    expect(url.origin).toBe("http://127.0.0.1:9000");
    expect(Number(url.searchParams.get("X-Amz-Expires"))).toBe(7 * 86400);
  });
});

describe("link lifetime", () => {
  it("defaults to 24 h and follows LINK_TTL_SECONDS", () => {
    expect(linkTtlSeconds(KEY)).toBe(86400);
    expect(linkTtlSeconds({ ...KEY, LINK_TTL_SECONDS: "600" })).toBe(600);
    // A malformed value is refused, not replaced by the default (config.ts).
    expect(() => linkTtlSeconds({ ...KEY, LINK_TTL_SECONDS: "nonsense" })).toThrow(/LINK_TTL_SECONDS must be a whole number of seconds/);
  });
});

describe("Range header", () => {
  it("parses single byte ranges against the file size", () => {
    expect(parseByteRange("bytes=0-99", 1000)).toEqual({ offset: 0, length: 100 });
    expect(parseByteRange("bytes=990-", 1000)).toEqual({ offset: 990, length: 10 });
    expect(parseByteRange("bytes=990-5000", 1000)).toEqual({ offset: 990, length: 10 });
    expect(parseByteRange("bytes=-100", 1000)).toEqual({ offset: 900, length: 100 });
    expect(parseByteRange("bytes=-5000", 1000)).toEqual({ offset: 0, length: 1000 });
    expect(parseByteRange("bytes=1000-", 1000)).toBe("unsatisfiable");
    expect(parseByteRange("bytes=-0", 1000)).toBe("unsatisfiable");
    for (const ignored of [undefined, "", "bytes=-", "bytes=5-3", "bytes=0-1,5-6", "items=0-5", "bytes=0 -5", "bytes =0-5"]) expect(parseByteRange(ignored, 1000)).toBeNull();
    // The unit in any case and blanks around the range, as RFC 9110's grammar allows (both used to be ignored).
    expect(parseByteRange("BYTES=0-99", 1000)).toEqual({ offset: 0, length: 100 });
    expect(parseByteRange("bytes= 990-\t", 1000)).toEqual({ offset: 990, length: 10 });
  });
});
