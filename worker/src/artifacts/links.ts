import { AwsClient } from "aws4fetch";
import { timingSafeEqualStrings } from "../lib/crypto";
import { workerConfig } from "../config";
import { hmacBase64Url } from "./signing";
import type { R2S3Access } from "./r2-presign";

export interface LinkEnv {
  /** Signs every new link, zip token and renderer token; also accepted when verifying. */
  LINK_SIGNING_KEY: string;
  /**
   * The key before the last rotation, accepted when verifying (never used to sign), so rotating LINK_SIGNING_KEY
   * does not break outstanding links, zip tokens and running jobs' renderer tokens. Unset once they are gone.
   */
  LINK_SIGNING_KEY_PREVIOUS?: string;
  LINK_TTL_SECONDS?: string;
  R2_ACCOUNT_ID?: string;
  R2_ACCESS_KEY_ID?: string;
  R2_SECRET_ACCESS_KEY?: string;
  R2_BUCKET_NAME?: string;
  /** Overrides the S3 endpoint (tests, other S3-compatible stores). */
  R2_S3_ENDPOINT?: string;
}

export function artifactKey(jobId: string, name: string): string {
  return `jobs/${jobId}/${name}`;
}

export function linkTtlSeconds(env: LinkEnv): number {
  return workerConfig(env).linkTtlSeconds;
}

type S3Env = Pick<LinkEnv, "R2_ACCOUNT_ID" | "R2_ACCESS_KEY_ID" | "R2_SECRET_ACCESS_KEY" | "R2_S3_ENDPOINT" | "R2_BUCKET_NAME">;

/** R2 API credentials present: links are R2 presigned URLs and the renderer uploads straight to R2. */
export function s3Configured(env: S3Env): boolean {
  return Boolean(env.R2_ACCESS_KEY_ID && env.R2_SECRET_ACCESS_KEY && (env.R2_ACCOUNT_ID || workerConfig(env).r2S3Endpoint));
}

export function s3Endpoint(env: S3Env): string {
  return workerConfig(env).r2S3Endpoint ?? `https://${env.R2_ACCOUNT_ID}.r2.cloudflarestorage.com`;
}

/** The bucket's S3 endpoint and credentials, for presigning the renderer's requests (r2-presign.ts). Only when s3Configured(env). */
export function r2S3Access(env: S3Env): R2S3Access {
  return { endpoint: s3Endpoint(env), bucket: workerConfig(env).r2BucketName, accessKeyId: env.R2_ACCESS_KEY_ID!, secretAccessKey: env.R2_SECRET_ACCESS_KEY! };
}

/** Keys a signature may have been made with: the current one first, then the previous one if set. */
export function verificationKeys(env: Pick<LinkEnv, "LINK_SIGNING_KEY" | "LINK_SIGNING_KEY_PREVIOUS">): string[] {
  const keys = [env.LINK_SIGNING_KEY, env.LINK_SIGNING_KEY_PREVIOUS?.trim() ? env.LINK_SIGNING_KEY_PREVIOUS : undefined];
  return [...new Set(keys.filter((k): k is string => Boolean(k)))];
}

/** True when `given` is the signature of `payload` under any accepted key (each compared in constant time). */
export async function signedByAcceptedKey(env: LinkEnv, payload: string, given: string): Promise<boolean> {
  let ok = false;
  // Every key is checked (no early exit), so the time taken does not say which key matched.
  for (const key of verificationKeys(env)) {
    if (await timingSafeEqualStrings(await hmacBase64Url(key, payload), given)) ok = true;
  }
  return ok;
}

const fileSigPayload = (jobId: string, name: string, expires: number) => `file\n${jobId}\n${name}\n${expires}`;
const zipSigPayload = (jobId: string, expires: number) => `zip\n${jobId}\n${expires}`;

/**
 * A presigned, expiring download link for one artifact: R2's own S3 presigning when R2 API credentials are
 * configured (the file is then served by R2 directly), otherwise a link signed by this Worker and served from
 * the R2 binding by GET /files/{job_id}/{name}.
 */
export async function artifactLink(env: LinkEnv, baseUrl: string, jobId: string, name: string, expiresAt: number): Promise<string> {
  const ttl = Math.max(1, Math.min(7 * 24 * 3600, expiresAt - Math.floor(Date.now() / 1000)));
  if (s3Configured(env)) {
    const client = new AwsClient({ accessKeyId: env.R2_ACCESS_KEY_ID!, secretAccessKey: env.R2_SECRET_ACCESS_KEY!, service: "s3", region: "auto" });
    const url = new URL(`${s3Endpoint(env)}/${workerConfig(env).r2BucketName}/${artifactKey(jobId, name)}`);
    url.searchParams.set("X-Amz-Expires", String(ttl));
    const signed = await client.sign(new Request(url, { method: "GET" }), { aws: { signQuery: true } });
    return signed.url;
  }
  const sig = await hmacBase64Url(env.LINK_SIGNING_KEY, fileSigPayload(jobId, name, expiresAt));
  return `${baseUrl}/files/${encodeURIComponent(jobId)}/${encodeURIComponent(name)}?expires=${expiresAt}&sig=${sig}`;
}

export async function verifyArtifactLink(env: LinkEnv, jobId: string, name: string, expires: string | undefined, sig: string | undefined): Promise<"ok" | "expired" | "invalid"> {
  const exp = Number(expires);
  if (!sig || !Number.isInteger(exp)) return "invalid";
  if (!(await signedByAcceptedKey(env, fileSigPayload(jobId, name, exp), sig))) return "invalid";
  return exp < Math.floor(Date.now() / 1000) ? "expired" : "ok";
}

/** download-all token: `<expires>.<signature>`; it grants that one job's ZIP, nothing else. */
export async function zipToken(env: LinkEnv, jobId: string, expiresAt: number): Promise<string> {
  return `${expiresAt}.${await hmacBase64Url(env.LINK_SIGNING_KEY, zipSigPayload(jobId, expiresAt))}`;
}

export async function verifyZipToken(env: LinkEnv, jobId: string, token: string): Promise<"ok" | "expired" | "invalid"> {
  const [expStr, sig] = token.split(".", 2);
  const exp = Number(expStr);
  if (!sig || !Number.isInteger(exp)) return "invalid";
  if (!(await signedByAcceptedKey(env, zipSigPayload(jobId, exp), sig))) return "invalid";
  return exp < Math.floor(Date.now() / 1000) ? "expired" : "ok";
}

const rendererTokenPayload = (jobId: string) => `renderer\n${jobId}`;

/**
 * The job-wide renderer token of before per-attempt tokens: derived, so nothing secret is stored per job. No longer
 * handed out; accepted on the job-wide legacy paths only for attempts claimed by the previous Worker version
 * (orchestration/task-call-scope.ts, task-storage-scope.ts). Remove with those paths in the next release.
 */
export async function rendererJobToken(env: LinkEnv, jobId: string): Promise<string> {
  return hmacBase64Url(env.LINK_SIGNING_KEY, rendererTokenPayload(jobId));
}

/**
 * A renderer's bearer token for this job, made with the current or the previous key: a job dispatched before a
 * rotation keeps reporting with the token it was given.
 */
export async function verifyRendererJobToken(env: LinkEnv, jobId: string, token: string): Promise<boolean> {
  return signedByAcceptedKey(env, rendererTokenPayload(jobId), token);
}

// A "renderer-task" payload cannot collide with a "renderer" one: job ids, task ids and attempts hold no newline.
const rendererTaskTokenPayload = (jobId: string, taskId: string, attempt: number) => `renderer-task\n${jobId}\n${taskId}\n${attempt}`;

/**
 * Bearer token of one attempt of one task, for everything it calls (its events, Workers AI, its storage routes):
 * derived from the job, the task and the attempt, so it speaks for that attempt only — its own events, its files
 * (which ones: common/plan/task-files.ts) — and stops opening anything once the attempt is no longer current
 * (orchestration/task-call-scope.ts, task-storage-scope.ts).
 */
export async function rendererTaskToken(env: LinkEnv, jobId: string, taskId: string, attempt: number): Promise<string> {
  return hmacBase64Url(env.LINK_SIGNING_KEY, rendererTaskTokenPayload(jobId, taskId, attempt));
}

/** An attempt's token, made with the current or the previous key (a rotation mid-task keeps it working). */
export async function verifyRendererTaskToken(env: LinkEnv, jobId: string, taskId: string, attempt: number, token: string): Promise<boolean> {
  return signedByAcceptedKey(env, rendererTaskTokenPayload(jobId, taskId, attempt), token);
}
