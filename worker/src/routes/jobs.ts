import type { Context } from "hono";
import type { CostEstimate, JobAck, JobList } from "../../../common/contract";
import { artifactsExpired, filesGoneAt } from "../artifacts/expired";
import type { StoredResult } from "../artifacts/results";
import { publishResults } from "../artifacts/results";
import { newJobId } from "../domain/ids";
import { prepareJob, toVodInfo, type PreparedJob } from "../domain/prepare-job";
import { billingNote } from "../domain/vod-length";
import { targetPolicy } from "../domain/webhook-target";
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH, isValidIdempotencyKey, requestHash } from "../domain/idempotency-key";
import { claimIdempotencyKey, recordIdempotentResponse, releaseIdempotencyKey } from "../storage/idempotency";
import type { AppEnv } from "../hono-env";
import { onMethodNotAllowed } from "../middleware/errors";
import { ApiError, jobNotFound, validationError } from "../lib/api-error";
import { publicBaseUrl } from "../lib/base-url";
import { ApiRouter } from "../openapi/api-router";
import { openDb } from "../storage/db";
import { upsertFeedback } from "../storage/feedback";
import { findJob, listJobs, toJobRecord, type NewJob } from "../storage/jobs";
import type { AccountRow, JobRow } from "../storage/schema";
import { lookupVod } from "../twitch/vod-lookup";
import { analysisFinder } from "../storage/analyses";
import * as declared from "./jobs.routes";
import { toVideoMetadata } from "./videos";

/** The /jobs routes; what each accepts and answers is declared in jobs.routes.ts. */
export const jobsRoutes = new ApiRouter();

const jobState = (env: AppEnv["Bindings"], jobId: string) => env.JOB_STATE.get(env.JOB_STATE.idFromName(jobId));

function newJobFrom(jobId: string, accountId: string, p: PreparedJob): NewJob {
  return {
    job_id: jobId,
    account_id: accountId,
    vod_url: p.request.vod_url,
    vod_id: p.request.vod_id,
    vod_title: p.probe?.title ?? null,
    vod_duration_seconds: p.vodDurationSeconds,
    streamer_name: p.request.streamer_name ?? p.probe?.streamer_name ?? null,
    game_name: p.request.game_name ?? p.probe?.game_name ?? null,
    vod: p.probe ? toVodInfo(p.probe) : null,
    request: p.request,
    credit_cost: p.cost.total,
    billed_vod_seconds: p.billedVodSeconds,
    webhook_url: p.request.webhook_url,
    analysis_reused: p.analysisReused,
  };
}

function acceptanceMessage(p: PreparedJob, reserved: number): string {
  const parts = [`Job accepted; ${reserved} credits reserved.`];
  if (p.analysisReused) parts.push(`The VOD's analysis from job ${p.analysisReused.from_job_id} is reused: no processing credits are charged.`);
  if (p.request.num_shorts < p.request.num_shorts_requested) {
    parts.push(`num_shorts was reduced from ${p.request.num_shorts_requested} to ${p.request.num_shorts} by the plan cap.`);
  }
  parts.push("Poll status_endpoint or wait for the webhook.");
  return parts.join(" ");
}

/** The key of this request, or null without one; a malformed key is a 422 naming the header. */
function idempotencyKeyOf(header: string | undefined): string | null {
  if (header === undefined) return null;
  const key = header.trim();
  if (!isValidIdempotencyKey(key)) {
    throw validationError([{ field: IDEMPOTENCY_HEADER, message: `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters, such as a UUID` }]);
  }
  return key;
}

const IDEMPOTENCY_REUSED_DETAIL = {
  field: IDEMPOTENCY_HEADER,
  message: "was already used with a different request body in the last 24 hours; use a new key for a new job",
};

/** A concurrent request with the same Idempotency-Key gave its job id up before this one could create the job. */
class JobIdAbandoned extends Error {}

/**
 * Validates, prices, reserves and queues one job under `jobId`. The JobState object is keyed by the job id and
 * creates at most once, so two requests carrying one Idempotency-Key (which share the id) reserve credits once;
 * only the request that created the job queues it. Returns the 202 body.
 */
async function acceptJob(c: Context<AppEnv>, body: unknown, jobId: string): Promise<JobAck> {
  const account = c.get("account");
  const prepared = await prepareJob(body, account, (vodId) => lookupVod(c.env, vodId), { webhookPolicy: targetPolicy(c.env), findReusable: analysisFinder(c.env, account.id) });
  const stub = jobState(c.env, jobId);
  const created = await stub.create(newJobFrom(jobId, account.id, prepared));
  if (!created.ok && created.code === "abandoned") throw new JobIdAbandoned();
  if (!created.ok) {
    throw new ApiError(
      402,
      "insufficient_credits",
      `This job costs ${created.needed} credits but the account has ${created.available}.`,
      { needed: created.needed, available: created.available },
    );
  }
  if (created.created) {
    try {
      await c.env.JOBS_QUEUE.send({ job_id: jobId });
    } catch (error) {
      // Nothing may be lost: the job fails at once and every reserved credit goes back.
      console.error(JSON.stringify({ level: "error", msg: "job queue send failed", job_id: jobId, error: String(error) }));
      await stub.fail("queue_unavailable", "The job could not be queued; no credits were charged. Retry shortly.", {
        refund: "full",
      });
      throw new ApiError(503, "service_unavailable", "The job queue is unavailable; nothing was charged. Retry shortly.", {}, {
        "Retry-After": "30",
      });
    }
  }
  return {
    id: jobId,
    status: "pending",
    credit_cost: created.state.credit_cost,
    webhook_url: prepared.request.webhook_url,
    status_endpoint: `/jobs/${jobId}`,
    results_endpoint: `/jobs/${jobId}/results`,
    analysis_reused: prepared.analysisReused,
    message: acceptanceMessage(prepared, created.state.credit_cost),
  };
}

const accepted = (c: Context<AppEnv>, jobId: string, body: string, status = 202, replayed = false) =>
  c.body(body, status as 202, {
    "Content-Type": "application/json",
    Location: `/jobs/${jobId}`,
    ...(replayed ? { "Idempotent-Replayed": "true" } : {}),
  });

jobsRoutes.openapi(declared.createJob, async (c) => {
  const account = c.get("account");
  const key = idempotencyKeyOf(c.req.header(IDEMPOTENCY_HEADER));
  const body: unknown = await c.req.json();
  if (key === null) {
    const jobId = newJobId();
    return accepted(c, jobId, JSON.stringify(await acceptJob(c, body, jobId)));
  }

  const db = openDb(c.env.DB);
  const hash = await requestHash(body);
  // A second round only follows a concurrent request's release of the key (JobIdAbandoned); a third is not expected.
  for (let round = 0; round < 3; round++) {
    const claim = await claimIdempotencyKey(db, { accountId: account.id, key, requestHash: hash, newJobId: newJobId(), now: Date.now() });
    if (claim.kind === "mismatch") {
      // Like every 422, it names the field in `detail` (the specification's "detail field" of a 422).
      throw new ApiError(
        422,
        "idempotency_key_reused",
        "This Idempotency-Key was already used with a different request body in the last 24 hours; use a new key for a new job.",
        { detail: [IDEMPOTENCY_REUSED_DETAIL] },
      );
    }
    if (claim.kind === "replay") {
      const replay = JSON.parse(claim.body) as JobAck;
      return accepted(c, replay.id, claim.body, claim.status, true);
    }
    let ack: JobAck;
    try {
      ack = await acceptJob(c, body, claim.jobId);
    } catch (error) {
      // No job came of it: the key is free again, so the same request can be sent once the cause is fixed. Unless
      // a concurrent request with the key created the job meanwhile: then the key keeps pointing at that job.
      await releaseClaim(c.env, db, { accountId: account.id, key, jobId: claim.jobId });
      if (error instanceof JobIdAbandoned) continue;
      throw error;
    }
    const stored = await recordIdempotentResponse(db, { accountId: account.id, key, jobId: claim.jobId, status: 202, body: JSON.stringify(ack) });
    return accepted(c, claim.jobId, stored.body, stored.status);
  }
  throw new Error("the idempotency key could not be claimed");
});

/**
 * Releases the key's row only once its job id is abandoned (JobState.abandon, serialised with create), so no job
 * can exist under a released key: deleting the row while another request is creating the job would let a later
 * retry create and bill a second one.
 */
async function releaseClaim(env: AppEnv["Bindings"], db: ReturnType<typeof openDb>, k: { accountId: string; key: string; jobId: string }): Promise<void> {
  if (await jobState(env, k.jobId).abandon()) await releaseIdempotencyKey(db, k);
}

jobsRoutes.openapi(declared.estimateJob, async (c) => {
  const account = c.get("account");
  const prepared = await prepareJob(await c.req.json(), account, (vodId) => lookupVod(c.env, vodId), { webhookPolicy: targetPolicy(c.env), findReusable: analysisFinder(c.env, account.id) });
  const estimate: CostEstimate = {
    credit_cost: prepared.cost.total,
    breakdown: prepared.cost,
    available_credits: account.credits,
    sufficient_credits: account.credits >= prepared.cost.total,
    // A reusing job's price has no length in it: the note says why instead of how the length is settled.
    billing_note: prepared.cost.processing_waived
      ? `${prepared.cost.processing_waived.message} The price does not depend on the VOD's length.`
      : billingNote(prepared.billedVodSeconds, prepared.request.vod_length_hours === null ? null : prepared.request.vod_length_hours * 3600, prepared.probe?.duration_seconds ?? null),
    request: prepared.request,
    vod: prepared.probe ? toVideoMetadata(prepared.probe) : null,
  };
  return c.json(estimate, 200);
});

jobsRoutes.openapi(declared.listJobs, async (c) => {
  const query = c.req.valid("query");
  const { rows, total } = await listJobs(openDb(c.env.DB), c.get("account").id, query);
  const body: JobList = {
    items: rows.map(toJobRecord),
    page: query.page,
    page_size: query.page_size,
    total,
    has_more: query.page * query.page_size < total,
  };
  return c.json(body, 200);
});

/** The caller's job; another account's job is indistinguishable from a missing one (404). */
async function ownedJob(env: AppEnv["Bindings"], account: AccountRow, id: string): Promise<JobRow> {
  const row = await findJob(openDb(env.DB), account.id, id);
  if (!row) throw jobNotFound();
  return row;
}

jobsRoutes.openapi(declared.getJob, async (c) => {
  // GET /jobs/estimate lands here as job "estimate": a client that used the wrong method hears so (405 with
  // Allow), not "no job with this id".
  if (c.req.param("id") === "estimate") return onMethodNotAllowed(c, ["POST"]) as never;
  return c.json(toJobRecord(await ownedJob(c.env, c.get("account"), c.req.param("id"))), 200);
});

jobsRoutes.openapi(declared.getResults, async (c) => {
  const job = await ownedJob(c.env, c.get("account"), c.req.param("id"));
  if (job.status !== "completed") {
    throw new ApiError(409, "job_not_completed", `Results exist once the job is completed; it is ${job.status}.`, {
      status: job.status,
    });
  }
  const goneAt = filesGoneAt(job);
  if (goneAt) throw artifactsExpired(job, goneAt);
  const signingKey = c.env.LINK_SIGNING_KEY;
  if (!signingKey) throw new ApiError(503, "links_unavailable", "Download links are not configured on this deployment.");
  if (!job.resultJson) throw new Error(`completed job ${job.id} has no stored result`);
  const published = await publishResults(
    { ...c.env, LINK_SIGNING_KEY: signingKey },
    publicBaseUrl(c),
    { id: job.id, artifacts_expires_at: job.artifactsExpiresAt, refunded_credits: job.refundedCredits },
    JSON.parse(job.resultJson) as StoredResult,
  );
  return c.json(published, 200);
});

jobsRoutes.openapi(declared.cancelJob, async (c) => {
  const job = await ownedJob(c.env, c.get("account"), c.req.param("id"));
  const result = await jobState(c.env, job.id).cancel();
  if (result.ok) return c.json({ id: result.id, status: result.status, refund_credits: result.refund_credits }, 200);
  if (result.code === "job_not_cancellable") {
    throw new ApiError(400, "job_not_cancellable", `The job is already ${result.status}; only pending or running jobs can be cancelled.`, {
      status: result.status,
    });
  }
  throw new Error(`job ${job.id} exists in D1 but its JobState object has no state`);
});

jobsRoutes.openapi(declared.sendFeedback, async (c) => {
  const job = await ownedJob(c.env, c.get("account"), c.req.param("id"));
  if (job.status !== "completed") {
    throw new ApiError(409, "job_not_completed", `Only completed jobs can be rated; this one is ${job.status}.`, {
      status: job.status,
    });
  }
  await upsertFeedback(openDb(c.env.DB), job.id, job.accountId, c.req.valid("json"));
  return c.body(null, 204);
});
