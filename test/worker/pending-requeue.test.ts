import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { PENDING_REQUEUE_AFTER_MS, requeueStalePendingJobs } from "../../worker/src/cron/pending-jobs";
import { createAccount, minimalJob, nextIp, call, type TestAccount } from "./helpers";

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 10_000, purchase: true });
});

async function pendingJob(): Promise<string> {
  const res = await call("/jobs", { method: "POST", headers: { "Content-Type": "application/json", "X-API-Key": acct.api_key, "CF-Connecting-IP": nextIp() }, body: JSON.stringify(minimalJob()) });
  expect(res.status).toBe(202);
  return ((await res.json()) as { id: string }).id;
}

/** The real queue binding, with every batch it is given recorded. */
function recordingQueue() {
  const sent: string[] = [];
  const queue = {
    sendBatch: async (messages: Iterable<MessageSendRequest<{ job_id: string }>>) => {
      for (const m of messages) sent.push(m.body.job_id);
      await env.JOBS_QUEUE.sendBatch(messages);
    },
  } as unknown as Queue<{ job_id: string }>;
  return { sent, queue };
}

describe("lost queue messages (hourly cron)", () => {
  it("queues a job again when it has been pending for too long, and leaves fresh ones alone", async () => {
    const stale = await pendingJob();
    const fresh = await pendingJob();
    const old = new Date(Date.now() - PENDING_REQUEUE_AFTER_MS - 60_000).toISOString();
    await env.DB.prepare("UPDATE jobs SET updated_at = ?, status = 'pending' WHERE id = ?").bind(old, stale).run();
    const { sent, queue } = recordingQueue();
    const outcome = await requeueStalePendingJobs({ DB: env.DB, JOBS_QUEUE: queue });
    expect(sent).toContain(stale);
    expect(sent).not.toContain(fresh);
    expect(outcome.requeued).toBe(sent.length);
  });
});
