import { afterEach, describe, expect, it } from "vitest";
import type { RenderTaskRequest } from "../../../common/contract/job-plan";
import { CONTRACT_UNSUPPORTED_CODE, CONTRACT_UNSUPPORTED_STATUS, RENDERER_TASK_CONTRACTS, TASK_CONTRACT_VERSION } from "../../../common/contract/task-contract";
import type { TaskRunner } from "../../../render-container/src/pipeline/types";
import { SMALL_VOD } from "../../dev/fixture-vods";
import { startRecorder } from "../../support/http-recorder";
import { serveVodForTests } from "../../support/twitch-fixture";
import { handMadePlan, planMoment, taskRequest } from "../pipeline/task-fixtures";
import { closeAll, closers, smallVodJob, smallVodShort, startRenderService } from "./service-fixtures";

/**
 * The renderer's side of the versioned task contract (common/contract/task-contract.ts): during a rollout, Worker
 * code of the next version reaches renderers of the previous image. Such a renderer must answer the distinct,
 * retryable 409 contract_unsupported (never the 422 that reads as "this task is malformed") and start nothing;
 * a renderer that knows the version takes the task. Real renderer service; the runner only holds the task.
 */

afterEach(closeAll);

const twitchServer = serveVodForTests(SMALL_VOD);
const SHORT = smallVodShort();

/** The Worker's side, answering every task event and upload 200 (a cancelled task reports, then lets go). */
async function workerSide(): Promise<string> {
  const rec = await startRecorder((_q, res) => void res.writeHead(200).end());
  closers.push(rec.close);
  return rec.url;
}

async function shortRequest(jobId: string): Promise<RenderTaskRequest> {
  const base = await workerSide();
  const job = await smallVodJob(twitchServer(), jobId, { events: `${base}/events`, upload: `${base}/upload` });
  return taskRequest(job, handMadePlan(jobId, SMALL_VOD.durationSeconds, [planMoment("m1", 30, 50, 38)], [SHORT]), "short-01");
}

/** A renderer service speaking `contracts` (default: this code's); its runner holds every task until closed. */
async function startRenderer(contracts?: readonly number[]) {
  const runs: string[] = [];
  const runner: TaskRunner = (req, ctx) => {
    runs.push(req.task.id);
    return new Promise((_, reject) => {
      if (ctx.signal.aborted) return reject(ctx.signal.reason);
      ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true });
    });
  };
  const { url, tasks, post } = await startRenderService(runner, { contracts, prefix: "renderer-contract-" });
  return { url, tasks, runs, post };
}

describe("the task contract version", () => {
  it("this code's renderer speaks the version this code's Worker sends", () => {
    expect(RENDERER_TASK_CONTRACTS).toContain(TASK_CONTRACT_VERSION);
  });

  it("a renderer of the previous version meets a task of the next: 409 contract_unsupported, nothing started; one that knows it takes the task", async () => {
    const next = { ...(await shortRequest("job_contract")), contract: TASK_CONTRACT_VERSION + 1 };
    const previous = await startRenderer([TASK_CONTRACT_VERSION]);
    const refused = await previous.post(next);
    expect(refused.status).toBe(CONTRACT_UNSUPPORTED_STATUS);
    expect(await refused.json()).toMatchObject({ error: { code: CONTRACT_UNSUPPORTED_CODE, accepted: [TASK_CONTRACT_VERSION] } });
    expect(previous.tasks.runningCount).toBe(0);
    expect(previous.runs).toEqual([]);
    expect(((await (await fetch(`${previous.url}/health`)).json()) as { task_contracts: number[] }).task_contracts).toEqual([TASK_CONTRACT_VERSION]);

    const current = await startRenderer([TASK_CONTRACT_VERSION, TASK_CONTRACT_VERSION + 1]);
    const taken = await current.post(next);
    expect(taken.status).toBe(202);
    expect(current.tasks.list().map((t) => t.task_key)).toEqual(["job_contract.short-01"]);
  });

  it("a request without a version is version 1 (Workers from before versioning); this code's renderer takes both", async () => {
    // Requests first: each renderer is closed (its task cancelled, reporting to the Worker's side) before them.
    const { contract: _omitted, ...unversioned } = await shortRequest("job_unversioned");
    const versioned = { ...(await shortRequest("job_versioned")), contract: TASK_CONTRACT_VERSION };
    const renderer = await startRenderer();
    expect((await renderer.post(unversioned)).status).toBe(202);
    const other = await startRenderer();
    expect((await other.post(versioned)).status).toBe(202);
  });

  it("an unknown version is refused before the body is validated (a newer contract may not parse here)", async () => {
    const renderer = await startRenderer();
    const res = await renderer.post({ contract: TASK_CONTRACT_VERSION + 1, job_id: "j", task: { id: "a-field-renamed-in-the-next-version" } });
    expect(res.status).toBe(CONTRACT_UNSUPPORTED_STATUS);
    expect((await renderer.post({ contract: TASK_CONTRACT_VERSION, job_id: "j" })).status).toBe(422);
  });
});
