import { FeedbackInput, JobAck, JobList, JobRecord, JobRequestInput, JobResults, ListJobsQuery, CancelResponse, CostEstimate } from "../../../common/contract";
import { jobCreationRateLimit } from "../middleware/rate-limit";
import { declareRoute } from "../openapi/declare-route";
import { EXAMPLE_BODIES } from "../openapi/examples";
import { JobIdParam } from "./path-params";

/** The /jobs routes as the document shows them (mounted at /jobs; handlers in jobs.ts). */

const header = (description: string, type: "string" | "integer" = "string") => ({ description, schema: { type } });

export const createJob = declareRoute({
  method: "post",
  path: "/",
  operationId: "createJob",
  tag: "jobs",
  summary: "Create a job",
  description:
    "Validates the body, probes the VOD (also when `vod_length_hours` is given: the job is billed for max(claim, " +
    "real length), a claim at most 2 % or 60 s short counting as enough; the claim stands in only when Twitch " +
    "cannot be reached), reserves the credits and queues the job. The bill then follows the VOD's real length, " +
    "measured when the renderer opens it: longer beyond the tolerance reserves the difference before anything " +
    "is rendered (or fails the job with `insufficient_credits` and a full refund), shorter than billed is " +
    "refunded the difference at completion (`billed_vod_seconds`, `credit_cost` and `refunded_credits` on the record). Checks run in this order: rate limit, API key, " +
    "body (size, type, JSON), Idempotency-Key, validation (every problem at once), credits. Rate limited per " +
    "client: an IPv4 address, or the /64 of an IPv6 address. `webhook_url` must point to a public internet " +
    "address (422 otherwise; see the field). With `Idempotency-Key`, the same key and body within 24 h answer " +
    "the original 202 again (same job, nothing reserved again, `Idempotent-Replayed: true`), the same key with " +
    "another body is 422 `idempotency_key_reused`, and concurrent requests with one key create one job; an " +
    "answer without a job (422, 402, 503) frees the key. A re-cut of a VOD this account analysed recently (a " +
    "completed job, same `model_preset` and `stream_language`) reuses that analysis: no processing credits, " +
    "`analysis_reused` in the answer and the record.",
  auth: "apiKey",
  before: [jobCreationRateLimit],
  handlerParams: [
    {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description:
        "1-255 visible ASCII characters (a UUID): makes a retried creation safe. Kept 24 h per account; the body " +
        "is compared as canonical JSON (key order and spacing do not matter). The typed client sends one by default.",
      schema: { type: "string", minLength: 1, maxLength: 255 },
    },
  ],
  handlerBody: { schema: JobRequestInput, examples: EXAMPLE_BODIES.job },
  success: {
    status: 202,
    description: "Accepted; processing continues in the background. A replay of an Idempotency-Key answers the original 202 byte for byte.",
    schema: JobAck,
    headers: {
      Location: header("Path of the new job, /jobs/<id>."),
      "X-RateLimit-Limit": header("Job creations allowed per minute per client (IPv4 address or IPv6 /64).", "integer"),
      "X-RateLimit-Remaining": header("Creations left in the current window.", "integer"),
      "Idempotent-Replayed": header("`true` when this is the stored answer of an earlier request with the same Idempotency-Key."),
    },
  },
  errors: ["idempotency_key_reused", "insufficient_credits", "rate_limited", "service_unavailable"],
});

export const estimateJob = declareRoute({
  method: "post",
  path: "/estimate",
  operationId: "estimateJob",
  tag: "jobs",
  summary: "Price a job without creating it",
  description:
    "Same body and validation as POST /jobs; answers the cost, its breakdown and the normalised request. Nothing " +
    "is reserved; not rate limited. Insufficient credits is not an error here (`sufficient_credits`). When an " +
    "earlier analysis of the VOD would be reused, `breakdown.processing_waived` says so and the processing credits are 0.",
  auth: "apiKey",
  handlerBody: { schema: JobRequestInput, examples: EXAMPLE_BODIES.job },
  success: { status: 200, description: "The cost of this body for this account.", schema: CostEstimate },
  errors: [],
});

export const listJobs = declareRoute({
  method: "get",
  path: "/",
  operationId: "listJobs",
  tag: "jobs",
  summary: "List jobs, newest first",
  auth: "apiKey",
  query: ListJobsQuery,
  success: { status: 200, description: "One page of the account's jobs.", schema: JobList },
  errors: [],
  errorExamples: {
    validation_failed: {
      code: "validation_failed",
      message: 'Invalid request: status must be one of "pending", "running", "completed", "failed".',
      detail: [{ field: "status", message: 'must be one of "pending", "running", "completed", "failed"' }],
    },
  },
});

export const getJob = declareRoute({
  method: "get",
  path: "/{id}",
  operationId: "getJob",
  tag: "jobs",
  summary: "Status and details of one job",
  auth: "apiKey",
  params: JobIdParam,
  success: { status: 200, description: "The job record.", schema: JobRecord },
  errors: ["job_not_found"],
});

export const getResults = declareRoute({
  method: "get",
  path: "/{id}/results",
  operationId: "getResults",
  tag: "jobs",
  summary: "Download links of a completed job",
  description:
    "Fresh presigned links on every call (they expire at `links_expire_at`). 409 `job_not_completed` until the " +
    "job is completed.",
  auth: "apiKey",
  params: JobIdParam,
  success: { status: 200, description: "Deliverables, ZIP link and manifest.", schema: JobResults },
  errors: ["job_not_found", "job_not_completed", "artifacts_expired", "links_unavailable"],
});

export const cancelJob = declareRoute({
  method: "post",
  path: "/{id}/cancel",
  operationId: "cancelJob",
  tag: "jobs",
  summary: "Cancel a pending or running job",
  description: "No body. The job becomes `failed` (`cancelled_by_user`); the refund follows the cancel tiers.",
  auth: "apiKey",
  params: JobIdParam,
  success: { status: 200, description: "Cancelled; the refund is in `refund_credits`.", schema: CancelResponse },
  errors: ["job_not_found", "job_not_cancellable"],
});

export const sendFeedback = declareRoute({
  method: "post",
  path: "/{id}/feedback",
  operationId: "sendFeedback",
  tag: "jobs",
  summary: "Rate a completed job",
  description: "Voting again replaces the previous vote.",
  auth: "apiKey",
  params: JobIdParam,
  body: { schema: FeedbackInput, examples: EXAMPLE_BODIES.feedback },
  success: { status: 204, description: "Stored." },
  errors: ["job_not_found", "job_not_completed"],
});
