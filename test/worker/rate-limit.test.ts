import { beforeAll, describe, expect, it } from "vitest";
import { call, createAccount, expectError, get, jsonInit, minimalJob, nextIp, post, postJob, type TestAccount } from "./helpers";

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

describe("POST /jobs rate limit (10 per minute per client IP)", () => {
  it("accepts 10 creations from one IP and answers the 11th with 429 and Retry-After", async () => {
    const ip = nextIp();
    for (let i = 0; i < 10; i++) {
      const res = await postJob(acct.api_key, minimalJob(), ip);
      expect(res.status).toBe(202);
      expect(res.headers.get("X-RateLimit-Remaining")).toBe(String(9 - i));
    }
    const limited = await postJob(acct.api_key, minimalJob(), ip);
    const err = await expectError(limited, 429, "rate_limited");
    const retryAfter = Number(limited.headers.get("Retry-After"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    expect(err.retry_after_seconds).toBe(retryAfter);

    // Another IP is not affected, and reads from the limited IP are not limited.
    expect((await postJob(acct.api_key, minimalJob(), nextIp())).status).toBe(202);
    for (let i = 0; i < 15; i++) {
      const res = await call("/jobs", { headers: { "X-API-Key": acct.api_key, "CF-Connecting-IP": ip } });
      expect(res.status).toBe(200);
    }
    const est = await call("/jobs/estimate", jsonInit("POST", minimalJob(), { "X-API-Key": acct.api_key, "CF-Connecting-IP": ip }));
    expect(est.status).toBe(200);
  });

  it("counts rejected attempts too (bad key, invalid body) and limits before authentication", async () => {
    const ip = nextIp();
    for (let i = 0; i < 5; i++) expect((await postJob("hk_live_wrong", minimalJob(), ip)).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await postJob(acct.api_key, { vod_url: "nope" }, ip)).status).toBe(422);
    await expectError(await postJob(acct.api_key, minimalJob(), ip), 429, "rate_limited");
    await expectError(await postJob("hk_live_wrong", minimalJob(), ip), 429, "rate_limited");
  });

  it("does not limit other endpoints", async () => {
    for (let i = 0; i < 12; i++) {
      expect((await get(acct.api_key, "/pricing")).status).toBe(200);
      expect((await post(acct.api_key, "/jobs/estimate", minimalJob())).status).toBe(200);
    }
  });
});
