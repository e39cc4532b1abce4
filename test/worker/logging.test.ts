import { afterEach, describe, expect, it, vi } from "vitest";
import { jobIdOfPath } from "../../worker/src/lib/log";
import { call, createAccount, get } from "./helpers";

afterEach(() => vi.restoreAllMocks());

function jsonLines(spy: { mock: { calls: unknown[][] } }): Record<string, unknown>[] {
  return spy.mock.calls.flatMap((args) => {
    try {
      return [JSON.parse(String(args[0])) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

describe("structured request logs", () => {
  it("writes one JSON line per request with the request id, status and duration", async () => {
    const spy = vi.spyOn(console, "log");
    const res = await call("/pricing");
    const line = jsonLines(spy).find((l) => l.msg === "request" && l.path === "/pricing");
    expect(line).toMatchObject({ level: "info", service: "worker", method: "GET", status: 200, request_id: res.headers.get("X-Request-Id") });
    expect(typeof line?.duration_ms).toBe("number");
  });

  it("names the job a request is about", async () => {
    const acct = await createAccount({ plan: "pro", credits: 100, purchase: true });
    const spy = vi.spyOn(console, "log");
    const res = await get(acct.api_key, "/jobs/job_01ABCDEFGHJKMNPQRSTVWXYZ12");
    expect(res.status).toBe(404);
    const line = jsonLines(spy).find((l) => l.msg === "request" && String(l.path).startsWith("/jobs/"));
    expect(line).toMatchObject({ job_id: "job_01ABCDEFGHJKMNPQRSTVWXYZ12", status: 404 });
  });

  it("finds job ids in API, file and internal paths only", () => {
    expect(jobIdOfPath("/jobs/job_01X/results")).toBe("job_01X");
    expect(jobIdOfPath("/files/job_01X/short-01.mp4")).toBe("job_01X");
    expect(jobIdOfPath("/internal/jobs/job_01X/events")).toBe("job_01X");
    expect(jobIdOfPath("/pricing")).toBeUndefined();
  });
});
