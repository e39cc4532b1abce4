import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsInto, ROOT, tsFiles } from "../support/source-imports";

/**
 * Orchestration (the JobState object and what it drives) calls the webhook outbox directly; webhooks/ never
 * imports it back, nor the Durable Objects: what it needs of a job's status change is plain data
 * (domain/job-transition.ts).
 */
describe("the Worker's webhooks stand below orchestration (dependencies point one way)", () => {
  it("no module of worker/src/webhooks imports worker/src/orchestration or worker/src/durable", async () => {
    const files = await tsFiles(path.join(ROOT, "worker/src/webhooks"));
    expect(files.length).toBeGreaterThan(3);
    expect(await importsInto(files, "worker/src/orchestration")).toEqual([]);
    expect(await importsInto(files, "worker/src/durable")).toEqual([]);
  });

  it("the check sees such an import: JobState's transitions import the webhook outbox", async () => {
    const offenders = await importsInto([path.join(ROOT, "worker/src/orchestration/job-transitions.ts")], "worker/src/webhooks");
    expect(offenders).toContain("worker/src/orchestration/job-transitions.ts -> ../webhooks/enqueue");
  });
});
