import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { RenderTaskRequest } from "../../common/contract/job-plan";
import { PresignedRequest } from "../../common/contract/render";
import { rendererTaskToken } from "../../worker/src/artifacts/links";
import { createAccount, post, type TestAccount } from "./helpers";
import { callWithEnv, createJob } from "./job-steps";
import { plannedJob, waitForStart } from "./task-flow";

/**
 * POST /internal/jobs/{id}/tasks/{task}/attempts/{n}/storage/{name} (upload mode "presigned", issue 23 point 6) in
 * the Workers pool with the real Durable Object: what the renderer is handed is a presigned URL for one operation
 * on `jobs/{id}/{name}`, never a credential, and only with its own task attempt's token (which files that token
 * opens: task-storage-scope.test.ts); a file in parts through the route against the fake S3
 * (fake-s3-fixture.node.ts), which checks every signature. That one URL writes nothing else, and the real
 * renderer uploader on this path: test/renderer/output/presigned-upload.test.ts.
 */

declare module "vitest" {
  // Provided by the global setup fake-s3-fixture.node.ts (outside this type-check project).
  export interface ProvidedContext {
    fakeS3Url: string;
  }
}

const R2 = { R2_ACCESS_KEY_ID: "AKIDPRESIGN", R2_SECRET_ACCESS_KEY: "s3cr3t-never-leaves", R2_S3_ENDPOINT: "http://127.0.0.1:9000/" };
/** The fake S3 of fake-s3-fixture.node.ts (same credentials as FAKE_S3_CREDENTIALS there). */
const FAKE_R2 = () => ({ ...R2, R2_S3_ENDPOINT: inject("fakeS3Url") });

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

/** Where one task attempt asks for presigned URLs: its job, its storage route and its token. */
interface TaskStorage {
  id: string;
  path: string;
  token: string;
}

const storageOf = (t: Pick<RenderTaskRequest, "job_id" | "task" | "upload">): TaskStorage => ({
  id: t.job_id,
  path: `/internal/jobs/${t.job_id}/tasks/${t.task.id}/attempts/${t.task.attempt}/storage`,
  token: t.upload.mode === "s3" ? "" : t.upload.token,
});

/** The short task of a running job (the test plan of task-flow.ts), started through the real queue: it stores short-01.*. */
async function runningJob(): Promise<TaskStorage> {
  const { ack } = await plannedJob(acct.api_key);
  return storageOf(await waitForStart(ack.id, "short-01"));
}

function ask(job: TaskStorage, name: string, token: string | null, body: unknown, overrides: Record<string, string> = R2) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  return callWithEnv(overrides, `${job.path}/${name}`, { method: "POST", headers, body: JSON.stringify(body) });
}

describe("presigned storage for the renderer", () => {
  it("answers put, get, head, a part and an abort with a URL presigned for that one object, valid 15 minutes, holding no secret", async () => {
    const job = await runningJob();
    const { id, token } = job;
    const cases = [
      { body: { operation: "put" }, method: "PUT", query: {} },
      { body: { operation: "get" }, method: "GET", query: {} },
      { body: { operation: "head" }, method: "HEAD", query: {} },
      { body: { operation: "upload_part", upload_id: "UP-1/x+y", part_number: 3 }, method: "PUT", query: { partNumber: "3", uploadId: "UP-1/x+y" } },
      { body: { operation: "abort_multipart", upload_id: "UP-1/x+y" }, method: "DELETE", query: { uploadId: "UP-1/x+y" } },
    ];
    for (const c of cases) {
      const res = await ask(job, "short-01.mp4", token, c.body);
      expect(res.status, JSON.stringify(c.body)).toBe(200);
      const text = await res.text();
      expect(text).not.toContain(R2.R2_SECRET_ACCESS_KEY);
      const answer = PresignedRequest.parse(JSON.parse(text));
      expect(answer.method).toBe(c.method);
      const url = new URL(answer.url);
      expect(`${url.origin}${url.pathname}`).toBe(`http://127.0.0.1:9000/highlight-artifacts/jobs/${id}/short-01.mp4`);
      expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
      expect(url.searchParams.get("X-Amz-Credential")).toMatch(/^AKIDPRESIGN\/\d{8}\/auto\/s3\/aws4_request$/);
      expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
      for (const [k, v] of Object.entries(c.query)) expect(url.searchParams.get(k)).toBe(v);
      expect(Math.abs(answer.expires_at - (Math.floor(Date.now() / 1000) + 900))).toBeLessThanOrEqual(5);
    }
  });

  it("refuses another job's token, no token, a bad name, an unknown operation, a task never dispatched and a job that is not running", async () => {
    const a = await runningJob();
    const b = await runningJob();
    expect((await ask(a, "short-01.mp4", b.token, { operation: "put" })).status).toBe(401);
    expect((await ask(a, "short-01.mp4", null, { operation: "put" })).status).toBe(401);
    // The name cannot climb out of the job's folder.
    const badName = await ask(a, "..%2Fjob_other%2Fshort-01.mp4", a.token, { operation: "put" });
    expect(badName.status).toBe(422);
    const badOp = await ask(a, "short-01.mp4", a.token, { operation: "delete_everything" });
    expect(badOp.status).toBe(422);
    expect(((await badOp.json()) as { error: { code: string } }).error.code).toBe("validation_failed");
    const badPart = await ask(a, "short-01.mp4", a.token, { operation: "upload_part", upload_id: "u", part_number: 10_001 });
    expect(badPart.status).toBe(422);

    const { ack } = await createJob(acct.api_key); // pending, never dispatched: its analysis task does not exist yet
    const never = storageOf({ job_id: ack.id, task: { id: "analyse", kind: "analyse", attempt: 1 }, upload: { mode: "presigned", url: "", token: await rendererTaskToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, ack.id, "analyse", 1) } });
    const notDispatched = await ask(never, "analysis.json.gz", never.token, { operation: "put" });
    expect(notDispatched.status).toBe(404);
    expect(((await notDispatched.json()) as { error: { code: string } }).error.code).toBe("task_not_found");
    expect((await post(acct.api_key, `/jobs/${a.id}/cancel`)).status).toBe(200);
    const notRunning = await ask(a, "short-01.mp4", a.token, { operation: "put" });
    expect(notRunning.status).toBe(409);
    expect(((await notRunning.json()) as { error: { code: string } }).error.code).toBe("job_not_running");
  });

  it("stores a file in parts against an S3 server that checks every signature: the Worker creates and completes, the parts and the read go on presigned URLs", async () => {
    const job = await runningJob();
    const { token } = job;
    const name = "short-01.mp4";
    const call = async (body: unknown, status: number) => {
      const res = await ask(job, name, token, body, FAKE_R2());
      expect(res.status, `${JSON.stringify(body)}: ${await res.clone().text()}`).toBe(status);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const { upload_id } = (await call({ operation: "create_multipart", content_type: "video/mp4" }, 201)) as { upload_id: string };
    const chunks = [new Uint8Array(3000).fill(7), new Uint8Array(1234).fill(9)];
    const parts: { part_number: number; etag: string }[] = [];
    for (const [i, bytes] of chunks.entries()) {
      const put = PresignedRequest.parse(await call({ operation: "upload_part", upload_id, part_number: i + 1 }, 200));
      // No Authorization header: the URL is the only credential.
      const res = await fetch(put.url, { method: put.method, body: bytes });
      expect(res.status).toBe(200);
      parts.push({ part_number: i + 1, etag: res.headers.get("etag")! });
    }
    expect(await call({ operation: "complete_multipart", upload_id, size_bytes: 4234, parts }, 201)).toEqual({ name, size_bytes: 4234 });
    // A completion repeated after its answer was lost: the upload is gone, the object whole, the same answer.
    expect(await call({ operation: "complete_multipart", upload_id, size_bytes: 4234, parts }, 201)).toEqual({ name, size_bytes: 4234 });
    const get = PresignedRequest.parse(await call({ operation: "get" }, 200));
    const back = new Uint8Array(await (await fetch(get.url)).arrayBuffer());
    expect(back.length).toBe(4234);
    expect([back[0], back[2999], back[3000], back[4233]]).toEqual([7, 7, 9, 9]);
    // A completion of an upload that never existed for this file: 404 upload_not_found.
    const gone = await ask(job, "short-01.jpg", token, { operation: "complete_multipart", upload_id, size_bytes: 4234, parts }, FAKE_R2());
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { error: { code: string } }).error.code).toBe("upload_not_found");
  });

  it("answers 502 storage_unavailable when R2 cannot be reached for the calls the Worker makes itself (the renderer retries a 502)", async () => {
    const job = await runningJob();
    // Nothing listens on port 9 of 127.0.0.1: the connection is refused.
    const down = { ...R2, R2_S3_ENDPOINT: "http://127.0.0.1:9/" };
    const create = await ask(job, "short-01.mp4", job.token, { operation: "create_multipart", content_type: "video/mp4" }, down);
    expect(create.status).toBe(502);
    const body = (await create.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("storage_unavailable");
    expect(body.error.message).not.toContain(R2.R2_SECRET_ACCESS_KEY);
  });

  it("answers 409 presigning_not_configured without R2 API credentials (uploads then go through the Worker)", async () => {
    const job = await runningJob();
    const res = await ask(job, "short-01.mp4", job.token, { operation: "put" }, {});
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("presigning_not_configured");
  });
});
