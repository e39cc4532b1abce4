import { env } from "cloudflare:workers";
import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobResults } from "../../common/contract";
import type { RenderTaskRequest } from "../../common/contract/job-plan";
import { rendererTaskToken } from "../../worker/src/artifacts/links";
import type { Env } from "../../worker/src/env";
import { createAccount, expectError, get, type TestAccount } from "./helpers";
import { callWithEnv, createJob, deliver, rendererAnswers, rendererLog, sameBytes, startedJob, taskFilePath, type RenderedFile } from "./job-steps";
import { completeJob } from "./task-flow";

/**
 * Rotating LINK_SIGNING_KEY: the deployment signs with the new key and, while LINK_SIGNING_KEY_PREVIOUS holds the
 * old one, still accepts what the old key signed: outstanding download links, zip tokens and the renderer tokens
 * of jobs dispatched before the rotation. The test Worker's LINK_SIGNING_KEY plays the old key.
 */

const OLD_KEY = env.LINK_SIGNING_KEY!;
const NEW_KEY = "rotated-link-signing-key";
/** Mid-rotation: new key, old key kept for verification. */
const ROTATED: Partial<Env> = { LINK_SIGNING_KEY: NEW_KEY, LINK_SIGNING_KEY_PREVIOUS: OLD_KEY };
/** After the rotation ended (or a rotation without the previous key): only the new key. */
const NEW_ONLY: Partial<Env> = { LINK_SIGNING_KEY: NEW_KEY, LINK_SIGNING_KEY_PREVIOUS: undefined };

const path = (url: string) => url.replace(/^https:\/\/api\.test/, "");

let acct: TestAccount;
let files: RenderedFile[];
let issuedBefore: JobResults;
let jobId: string;

beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
  const { render } = await startedJob(acct.api_key);
  jobId = render.job_id;
  ({ files } = await completeJob(render));
  // Links handed out before the rotation, signed with the old key.
  const res = await get(acct.api_key, `/jobs/${jobId}/results`);
  expect(res.status).toBe(200);
  issuedBefore = (await res.json()) as JobResults;
});

describe("download links and zip tokens across a LINK_SIGNING_KEY rotation", () => {
  it("links signed with the old key keep working while LINK_SIGNING_KEY_PREVIOUS holds it", async () => {
    for (const d of issuedBefore.deliverables) {
      const res = await callWithEnv(ROTATED, path(d.url));
      expect(res.status).toBe(200);
      expect(sameBytes(new Uint8Array(await res.arrayBuffer()), files.find((f) => f.ref.name === d.name)!.bytes)).toBe(true);
    }
    const zip = await callWithEnv(ROTATED, path(issuedBefore.zip_url));
    expect(zip.status).toBe(200);
    const entries = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    expect(Object.keys(entries)).toEqual(expect.arrayContaining(files.map((f) => f.ref.name)));
  });

  it("without LINK_SIGNING_KEY_PREVIOUS they stop working (what the previous key is for)", async () => {
    await expectError(await callWithEnv(NEW_ONLY, path(issuedBefore.deliverables[0]!.url)), 403, "invalid_link");
    await expectError(await callWithEnv(NEW_ONLY, path(issuedBefore.zip_url)), 401, "invalid_token");
  });

  it("new links are signed with the new key: valid after the previous key is removed, not under the old key alone", async () => {
    const res = await callWithEnv(ROTATED, `/jobs/${jobId}/results`, { headers: { "X-API-Key": acct.api_key } });
    expect(res.status).toBe(200);
    const fresh = (await res.json()) as JobResults;
    const link = path(fresh.deliverables[0]!.url);
    expect((await callWithEnv(NEW_ONLY, link)).status).toBe(200);
    expect((await callWithEnv(NEW_ONLY, path(fresh.zip_url))).status).toBe(200);
    await expectError(await callWithEnv({ LINK_SIGNING_KEY: OLD_KEY }, link), 403, "invalid_link");
    await expectError(await callWithEnv({ LINK_SIGNING_KEY: OLD_KEY }, path(fresh.zip_url)), 401, "invalid_token");
  });
});

describe("renderer tokens across a LINK_SIGNING_KEY rotation", () => {
  /** The analysis task's progress report (its share of the job's bar is the first 20 %). */
  const progress = (seq: number, fraction: number) => ({
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type: "progress", attempt: 1, seq, stage: "analysing", fraction }),
  });
  /** The analysis task's first attempt reports on its own path (its callback URL). */
  const events = (jobId: string) => `/internal/jobs/${jobId}/tasks/analyse/attempts/1/events`;
  const withToken = (init: RequestInit, token: string): RequestInit => ({ ...init, headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${token}` } });

  let running: RenderTaskRequest;
  beforeAll(async () => {
    ({ render: running } = await startedJob(acct.api_key));
    expect(running.callback.token).toBe(await rendererTaskToken({ LINK_SIGNING_KEY: OLD_KEY }, running.job_id, "analyse", 1));
  });

  it("a job dispatched before the rotation keeps reporting with its token", async () => {
    const res = await callWithEnv(ROTATED, events(running.job_id), withToken(progress(2, 0.5), running.callback.token));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ accepted: true, status: "running", progress: 10 });
  });

  it("and keeps storing its files with the same token", async () => {
    if (running.upload.mode !== "worker") throw new Error(running.upload.mode);
    const put = { method: "PUT", headers: { Authorization: `Bearer ${running.upload.token}`, "Content-Length": "3" }, body: "abc" };
    expect((await callWithEnv(ROTATED, taskFilePath(running, "analysis.json.gz"), put)).status).toBe(201);
    await expectError(await callWithEnv(NEW_ONLY, taskFilePath(running, "analysis.json.gz"), put), 401, "unauthorized");
  });

  it("without LINK_SIGNING_KEY_PREVIOUS its token is refused", async () => {
    await expectError(await callWithEnv(NEW_ONLY, events(running.job_id), withToken(progress(3, 0.6), running.callback.token)), 401, "unauthorized");
  });

  it("a job dispatched after the rotation gets a token made with the new key", async () => {
    const { ack, message } = await createJob(acct.api_key);
    await rendererAnswers(ack.id, 202);
    const result = await deliver(message, { env: ROTATED });
    expect(result.explicitAcks).toHaveLength(1);
    const start = (await rendererLog(ack.id)).starts[0] as RenderTaskRequest;
    const token = await rendererTaskToken({ LINK_SIGNING_KEY: NEW_KEY }, ack.id, "analyse", 1);
    expect(start.callback.token).toBe(token);
    expect(start.upload).toMatchObject({ mode: "worker", token });
    expect((await callWithEnv(NEW_ONLY, events(ack.id), withToken(progress(2, 0.1), start.callback.token))).status).toBe(200);
    await expectError(await callWithEnv({ LINK_SIGNING_KEY: OLD_KEY }, events(ack.id), withToken(progress(3, 0.2), start.callback.token)), 401, "unauthorized");
  });
});
