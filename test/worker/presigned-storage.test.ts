import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { PresignedRequest } from "../../common/contract/render";
import { rendererJobToken } from "../../worker/src/artifacts/links";
import { createAccount, type TestAccount } from "./helpers";
import { callWithEnv, createJob, jobState } from "./job-steps";

/**
 * POST /internal/jobs/{id}/storage/{name} (upload mode "presigned", issue 23 point 6) in the Workers pool with the
 * real Durable Object: what the renderer is handed is a presigned URL for one operation on `jobs/{id}/{name}`,
 * never a credential, and only with its own job's token. That the URLs are valid SigV4 and that one URL writes
 * nothing else is checked against the fake S3 in test/renderer/output/presigned-upload.test.ts.
 */

const R2 = { R2_ACCESS_KEY_ID: "AKIDPRESIGN", R2_SECRET_ACCESS_KEY: "s3cr3t-never-leaves", R2_S3_ENDPOINT: "http://127.0.0.1:9000/" };

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

async function runningJob(): Promise<{ id: string; token: string }> {
  const { ack } = await createJob(acct.api_key);
  expect((await jobState(ack.id).markRunning()).changed).toBe(true);
  return { id: ack.id, token: await rendererJobToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, ack.id) };
}

function ask(jobId: string, name: string, token: string | null, body: unknown, overrides: Record<string, string> = R2) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  return callWithEnv(overrides, `/internal/jobs/${jobId}/storage/${name}`, { method: "POST", headers, body: JSON.stringify(body) });
}

describe("presigned storage for the renderer", () => {
  it("answers put, get, head, a part and an abort with a URL presigned for that one object, valid 15 minutes, holding no secret", async () => {
    const { id, token } = await runningJob();
    const cases = [
      { body: { operation: "put" }, method: "PUT", query: {} },
      { body: { operation: "get" }, method: "GET", query: {} },
      { body: { operation: "head" }, method: "HEAD", query: {} },
      { body: { operation: "upload_part", upload_id: "UP-1/x+y", part_number: 3 }, method: "PUT", query: { partNumber: "3", uploadId: "UP-1/x+y" } },
      { body: { operation: "abort_multipart", upload_id: "UP-1/x+y" }, method: "DELETE", query: { uploadId: "UP-1/x+y" } },
    ];
    for (const c of cases) {
      const res = await ask(id, "short-01.mp4", token, c.body);
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

  it("refuses another job's token, no token, a bad name, an unknown operation and a job that is not running", async () => {
    const a = await runningJob();
    const b = await runningJob();
    expect((await ask(a.id, "short-01.mp4", b.token, { operation: "put" })).status).toBe(401);
    expect((await ask(a.id, "short-01.mp4", null, { operation: "put" })).status).toBe(401);
    // The name cannot climb out of the job's folder.
    const badName = await ask(a.id, "..%2Fjob_other%2Fshort-01.mp4", a.token, { operation: "put" });
    expect(badName.status).toBe(422);
    const badOp = await ask(a.id, "short-01.mp4", a.token, { operation: "delete_everything" });
    expect(badOp.status).toBe(422);
    expect(((await badOp.json()) as { error: { code: string } }).error.code).toBe("validation_failed");
    const badPart = await ask(a.id, "short-01.mp4", a.token, { operation: "upload_part", upload_id: "u", part_number: 10_001 });
    expect(badPart.status).toBe(422);

    const { ack } = await createJob(acct.api_key); // pending, never dispatched
    const pendingToken = await rendererJobToken({ LINK_SIGNING_KEY: env.LINK_SIGNING_KEY! }, ack.id);
    const notRunning = await ask(ack.id, "short-01.mp4", pendingToken, { operation: "put" });
    expect(notRunning.status).toBe(409);
    expect(((await notRunning.json()) as { error: { code: string } }).error.code).toBe("job_not_running");
  });

  it("answers 502 storage_unavailable when R2 cannot be reached for the calls the Worker makes itself (the renderer retries a 502)", async () => {
    const { id, token } = await runningJob();
    // Nothing listens on port 9 of 127.0.0.1: the connection is refused.
    const down = { ...R2, R2_S3_ENDPOINT: "http://127.0.0.1:9/" };
    const create = await ask(id, "reel-balanced.mp4", token, { operation: "create_multipart", content_type: "video/mp4" }, down);
    expect(create.status).toBe(502);
    const body = (await create.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("storage_unavailable");
    expect(body.error.message).not.toContain(R2.R2_SECRET_ACCESS_KEY);
  });

  it("answers 409 presigning_not_configured without R2 API credentials (uploads then go through the Worker)", async () => {
    const { id, token } = await runningJob();
    const res = await ask(id, "short-01.mp4", token, { operation: "put" }, {});
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("presigning_not_configured");
  });
});
