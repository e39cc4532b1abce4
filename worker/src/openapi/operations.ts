import { z } from "zod";
import { ListJobsQuery, VodUrlInput } from "../../../common/contract";
import type { RequestSchemaName, ResponseSchemaName } from "./components";
import type { ErrorCode, ErrorExamples } from "./error-catalog";
import { EXAMPLE_BODIES } from "./examples";
import type { JsonSchema } from "./json-schema";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/**
 * Who may call an operation. `zipTokenOrApiKey`: the token of a results `zip_url`, or the API key.
 * `signedLink`: a presigned link whose `expires` and `sig` query parameters are the credential.
 */
export type Auth = "apiKey" | "admin" | "zipTokenOrApiKey" | "signedLink" | "public";

export type Tag = "jobs" | "videos" | "pricing" | "webhooks" | "files" | "operator" | "reference";

export interface RequestBodySpec {
  schema: RequestSchemaName;
  /** Each must pass the real validation (tested by posting it). */
  examples?: Record<string, { summary: string; value: unknown }>;
}

export interface SuccessSpec {
  status: number;
  description: string;
  /** A named response schema, or an inline JSON Schema for answers that have no zod definition (files, HTML). */
  schema?: ResponseSchemaName | { contentType: string; schema: JsonSchema };
  headers?: Record<string, JsonSchema>;
}

export interface OperationSpec {
  method: HttpMethod;
  /** OpenAPI form: `/jobs/{id}`. */
  path: string;
  operationId: string;
  tag: Tag;
  summary: string;
  description?: string;
  auth: Auth;
  pathParams?: Record<string, string>;
  /** Query parameters, from the same zod object the route validates with. */
  query?: z.ZodObject;
  /** Parameters the handler reads itself (no zod schema of their own). */
  extraParams?: Array<{ name: string; in: "query" | "header"; description: string; required: boolean; schema: JsonSchema }>;
  body?: RequestBodySpec;
  success: SuccessSpec;
  /** Further 2xx answers (206 to a Range request). */
  otherSuccess?: SuccessSpec[];
  errors: ErrorCode[];
  /** Examples of this operation that replace the catalog's (each tested against the real answer). */
  errorExamples?: ErrorExamples;
}

const jobId = { id: "Job id (`job_` + 26-character ULID)." };
const header = (description: string, type: "string" | "integer" = "string"): JsonSchema => ({ description, schema: { type } });
const apiKeyErrors: ErrorCode[] = ["missing_api_key", "invalid_api_key"];
const jsonBodyErrors: ErrorCode[] = ["invalid_json", "payload_too_large", "unsupported_media_type", "validation_failed"];
const adminErrors: ErrorCode[] = ["unauthorized"];

/** Paging of the operator account list: the same rules as GET /jobs (page >= 1, page_size 1-100, default 20). */
const AdminPageQuery = ListJobsQuery.pick({ page: true, page_size: true });

/** Every public and operator route of the Worker. Renderer-only routes are left out on purpose (route-coverage.ts). */
export const OPERATIONS: OperationSpec[] = [
  {
    method: "post",
    path: "/jobs",
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
      "answer without a job (422, 402, 503) frees the key.",
    auth: "apiKey",
    extraParams: [
      {
        name: "Idempotency-Key",
        in: "header",
        description:
          "1-255 visible ASCII characters (a UUID): makes a retried creation safe. Kept 24 h per account; the body " +
          "is compared as canonical JSON (key order and spacing do not matter). The typed client sends one by default.",
        required: false,
        schema: { type: "string", minLength: 1, maxLength: 255 },
      },
    ],
    body: { schema: "JobRequest", examples: EXAMPLE_BODIES.job },
    success: {
      status: 202,
      description: "Accepted; processing continues in the background. A replay of an Idempotency-Key answers the original 202 byte for byte.",
      schema: "JobAck",
      headers: {
        Location: header("Path of the new job, /jobs/<id>."),
        "X-RateLimit-Limit": header("Job creations allowed per minute per client (IPv4 address or IPv6 /64).", "integer"),
        "X-RateLimit-Remaining": header("Creations left in the current window.", "integer"),
        "Idempotent-Replayed": header("`true` when this is the stored answer of an earlier request with the same Idempotency-Key."),
      },
    },
    errors: [...apiKeyErrors, ...jsonBodyErrors, "idempotency_key_reused", "insufficient_credits", "rate_limited", "service_unavailable"],
  },
  {
    method: "post",
    path: "/jobs/estimate",
    operationId: "estimateJob",
    tag: "jobs",
    summary: "Price a job without creating it",
    description:
      "Same body and validation as POST /jobs; answers the cost, its breakdown and the normalised request. Nothing " +
      "is reserved; not rate limited. Insufficient credits is not an error here (`sufficient_credits`).",
    auth: "apiKey",
    body: { schema: "JobRequest", examples: EXAMPLE_BODIES.job },
    success: { status: 200, description: "The cost of this body for this account.", schema: "CostEstimate" },
    errors: [...apiKeyErrors, ...jsonBodyErrors],
  },
  {
    method: "get",
    path: "/jobs",
    operationId: "listJobs",
    tag: "jobs",
    summary: "List jobs, newest first",
    auth: "apiKey",
    query: ListJobsQuery,
    success: { status: 200, description: "One page of the account's jobs.", schema: "JobList" },
    errors: [...apiKeyErrors, "validation_failed"],
    errorExamples: {
      validation_failed: {
        code: "validation_failed",
        message: 'Invalid request: status must be one of "pending", "running", "completed", "failed".',
        detail: [{ field: "status", message: 'must be one of "pending", "running", "completed", "failed"' }],
      },
    },
  },
  {
    method: "get",
    path: "/jobs/{id}",
    operationId: "getJob",
    tag: "jobs",
    summary: "Status and details of one job",
    auth: "apiKey",
    pathParams: jobId,
    success: { status: 200, description: "The job record.", schema: "JobRecord" },
    errors: [...apiKeyErrors, "job_not_found"],
  },
  {
    method: "get",
    path: "/jobs/{id}/results",
    operationId: "getResults",
    tag: "jobs",
    summary: "Download links of a completed job",
    description:
      "Fresh presigned links on every call (they expire at `links_expire_at`). 409 `job_not_completed` until the " +
      "job is completed.",
    auth: "apiKey",
    pathParams: jobId,
    success: { status: 200, description: "Deliverables, ZIP link and manifest.", schema: "JobResults" },
    errors: [...apiKeyErrors, "job_not_found", "job_not_completed", "artifacts_expired", "links_unavailable"],
  },
  {
    method: "post",
    path: "/jobs/{id}/cancel",
    operationId: "cancelJob",
    tag: "jobs",
    summary: "Cancel a pending or running job",
    description: "No body. The job becomes `failed` (`cancelled_by_user`); the refund follows the cancel tiers.",
    auth: "apiKey",
    pathParams: jobId,
    success: { status: 200, description: "Cancelled; the refund is in `refund_credits`.", schema: "CancelResponse" },
    errors: [...apiKeyErrors, "job_not_found", "job_not_cancellable"],
  },
  {
    method: "post",
    path: "/jobs/{id}/feedback",
    operationId: "sendFeedback",
    tag: "jobs",
    summary: "Rate a completed job",
    description: "Voting again replaces the previous vote.",
    auth: "apiKey",
    pathParams: jobId,
    body: { schema: "FeedbackRequest", examples: EXAMPLE_BODIES.feedback },
    success: { status: 204, description: "Stored." },
    errors: [...apiKeyErrors, ...jsonBodyErrors, "job_not_found", "job_not_completed"],
  },
  {
    method: "get",
    path: "/jobs/{id}/download-all",
    operationId: "downloadAll",
    tag: "files",
    summary: "Every file of a completed job as one ZIP",
    description:
      "Built while it streams (videos and images stored, text deflated), with the published manifest.json. Send " +
      "either the `token` of the results' `zip_url` (no API key: the link works in a browser until " +
      "`links_expire_at`) or the owner's `X-API-Key` (then no token is needed; a key that is sent is checked even " +
      "when a token is present).",
    auth: "zipTokenOrApiKey",
    pathParams: jobId,
    success: {
      status: 200,
      description: "The ZIP, streamed (no Content-Length).",
      schema: { contentType: "application/zip", schema: { type: "string", contentMediaType: "application/zip" } },
      headers: { "Content-Disposition": header('attachment; filename="<job_id>.zip"') },
    },
    errors: [...apiKeyErrors, "invalid_token", "link_expired", "job_not_found", "job_not_completed", "artifacts_expired", "links_unavailable"],
  },
  {
    method: "get",
    path: "/files/{job_id}/{name}",
    operationId: "downloadFile",
    tag: "files",
    summary: "One file behind a presigned deliverable link",
    description:
      "The `url` of a deliverable when the deployment signs links itself (with R2 API credentials configured the " +
      "links point at R2 directly instead). `expires` and `sig` are the credential; no API key. Supports Range " +
      "requests, so players can seek.",
    auth: "signedLink",
    pathParams: { job_id: "Job id.", name: "File name (a deliverable's `name`)." },
    extraParams: [
      { name: "expires", in: "query", required: true, description: "Unix time the link stops working.", schema: { type: "string", pattern: "^\\d+$" } },
      { name: "sig", in: "query", required: true, description: "Signature of the link (base64url).", schema: { type: "string" } },
      { name: "Range", in: "header", required: false, description: "One byte range, e.g. bytes=0-1023.", schema: { type: "string" } },
    ],
    success: {
      status: 200,
      description: "The file.",
      schema: { contentType: "application/octet-stream", schema: { type: "string", contentMediaType: "application/octet-stream" } },
      headers: {
        "Content-Type": header("The file's type: video/mp4, image/jpeg, application/x-subrip, application/json."),
        "Content-Disposition": header('attachment; filename="<name>"'),
        "Accept-Ranges": header("bytes"),
        ETag: header("Entity tag of the stored object."),
      },
    },
    otherSuccess: [
      {
        status: 206,
        description: "The requested byte range.",
        schema: { contentType: "application/octet-stream", schema: { type: "string", contentMediaType: "application/octet-stream" } },
        headers: { "Content-Range": header("bytes <first>-<last>/<size>") },
      },
    ],
    errors: ["invalid_link", "link_expired", "file_not_found", "artifacts_expired", "links_unavailable"],
  },
  {
    method: "get",
    path: "/jobs/{id}/webhooks",
    operationId: "listWebhookDeliveries",
    tag: "webhooks",
    summary: "Webhook deliveries of a job, with every attempt",
    description: "Shows what was sent to the job's webhook_url, when, and what the receiver answered.",
    auth: "apiKey",
    pathParams: jobId,
    success: { status: 200, description: "The delivery log.", schema: "WebhookDeliveryList" },
    errors: [...apiKeyErrors, "job_not_found"],
  },
  {
    method: "post",
    path: "/jobs/{id}/webhooks/{delivery_id}/redeliver",
    operationId: "redeliverWebhook",
    tag: "webhooks",
    summary: "Send a delivery again",
    description:
      "Queues a new delivery of the same event (same X-Service-Event-Id, so receivers can de-duplicate), with its " +
      "own retries. job.running and job.failed go out byte for byte as before; a job.completed body is rebuilt with " +
      "freshly signed links (same shape), even when the original's have expired. No body. At most 5 redeliveries " +
      "per event (original and redeliveries share the event id) per sliding hour; beyond, 429 with Retry-After.",
    auth: "apiKey",
    pathParams: { ...jobId, delivery_id: "Delivery id (`dlv_...`) from GET /jobs/{id}/webhooks." },
    success: { status: 202, description: "Queued.", schema: "WebhookRedelivery" },
    errors: [...apiKeyErrors, "job_not_found", "delivery_not_found", "rate_limited"],
    errorExamples: {
      rate_limited: {
        code: "rate_limited",
        message: "At most 5 redeliveries of one webhook event per hour; retry in 3412 s.",
        retry_after_seconds: 3412,
      },
    },
  },
  {
    method: "get",
    path: "/videos/metadata",
    operationId: "getVideoMetadata",
    tag: "videos",
    summary: "Probe a VOD before spending credits",
    description:
      "Title, duration, channel and whether the VOD can be processed. An unusable VOD (private, subscriber-only, " +
      "deleted, still live) is a normal 200 with `usable: false` and `reason`. No credits are spent.",
    auth: "apiKey",
    query: z.object({ vod_url: VodUrlInput }),
    success: { status: 200, description: "What Twitch says about the VOD.", schema: "VideoMetadata" },
    errors: [...apiKeyErrors, "validation_failed", "twitch_unavailable"],
    errorExamples: {
      validation_failed: {
        code: "validation_failed",
        message: "Invalid request: vod_url must be a Twitch VOD URL such as https://www.twitch.tv/videos/123456789.",
        detail: [{ field: "vod_url", message: "must be a Twitch VOD URL such as https://www.twitch.tv/videos/123456789" }],
      },
    },
  },
  {
    method: "get",
    path: "/pricing",
    operationId: "getPricing",
    tag: "pricing",
    summary: "Price table",
    description: "Public: rates per model preset, reel and short prices, plan caps, cancel refund tiers.",
    auth: "public",
    success: { status: 200, description: "The numbers behind every credit_cost.", schema: "PricingTable" },
    errors: [],
  },
  // ---- operator API -------------------------------------------------------------------------------------------
  {
    method: "post",
    path: "/admin/accounts",
    operationId: "adminCreateAccount",
    tag: "operator",
    summary: "Create an account with its first API key",
    auth: "admin",
    body: { schema: "CreateAccountRequest", examples: EXAMPLE_BODIES.createAccount },
    success: { status: 201, description: "The account, its API key (shown once) and webhook signing secret.", schema: "CreatedAccount" },
    errors: [...adminErrors, ...jsonBodyErrors],
  },
  {
    method: "get",
    path: "/admin/accounts",
    operationId: "adminListAccounts",
    tag: "operator",
    summary: "List accounts",
    auth: "admin",
    query: AdminPageQuery,
    success: { status: 200, description: "One page of accounts.", schema: "AccountList" },
    errors: [...adminErrors, "validation_failed"],
  },
  {
    method: "get",
    path: "/admin/accounts/{id}",
    operationId: "adminGetAccount",
    tag: "operator",
    summary: "One account with keys and credit ledger",
    auth: "admin",
    pathParams: { id: "Account id (`acct_` + ULID)." },
    extraParams: [
      {
        name: "ledger_limit",
        in: "query",
        description: "Newest ledger entries to include, 1-1000 (default 50).",
        required: false,
        schema: { type: "string", pattern: "^\\d+$", default: "50" },
      },
    ],
    success: { status: 200, description: "The account.", schema: "AccountDetail" },
    errors: [...adminErrors, "account_not_found", "validation_failed"],
  },
  {
    method: "patch",
    path: "/admin/accounts/{id}",
    operationId: "adminUpdateAccount",
    tag: "operator",
    summary: "Change an account's plan",
    auth: "admin",
    pathParams: { id: "Account id." },
    body: { schema: "UpdateAccountRequest", examples: EXAMPLE_BODIES.updateAccount },
    success: { status: 200, description: "The updated account.", schema: "AccountSummary" },
    errors: [...adminErrors, ...jsonBodyErrors, "account_not_found"],
  },
  {
    method: "post",
    path: "/admin/accounts/{id}/keys",
    operationId: "adminAddApiKey",
    tag: "operator",
    summary: "Issue another API key",
    auth: "admin",
    pathParams: { id: "Account id." },
    success: { status: 201, description: "The new key (shown once).", schema: "CreatedApiKey" },
    errors: [...adminErrors, "account_not_found"],
  },
  {
    method: "delete",
    path: "/admin/accounts/{id}/keys/{keyId}",
    operationId: "adminRevokeApiKey",
    tag: "operator",
    summary: "Revoke an API key",
    description: "The key answers 401 from then on. Revoking twice keeps the first revocation time.",
    auth: "admin",
    pathParams: { id: "Account id.", keyId: "Key id (`key_` + ULID)." },
    success: { status: 200, description: "Revoked.", schema: "RevokedApiKey" },
    errors: [...adminErrors, "account_not_found", "key_not_found"],
  },
  {
    method: "post",
    path: "/admin/accounts/{id}/credits",
    operationId: "adminChangeCredits",
    tag: "operator",
    summary: "Add or remove credits",
    description: "A purchase (positive) lifts the never-purchased shorts cap; a change below a zero balance is 422 on `amount`.",
    auth: "admin",
    pathParams: { id: "Account id." },
    body: { schema: "CreditsRequest", examples: EXAMPLE_BODIES.credits },
    success: { status: 200, description: "The new balance.", schema: "CreditBalance" },
    errors: [...adminErrors, ...jsonBodyErrors, "account_not_found"],
  },
  // ---- this reference ---------------------------------------------------------------------------------------------
  {
    method: "get",
    path: "/openapi.json",
    operationId: "getOpenApiDocument",
    tag: "reference",
    summary: "This OpenAPI 3.1 document",
    description: "Public and cacheable (ETag; answers 304 to a matching If-None-Match).",
    auth: "public",
    success: {
      status: 200,
      description: "The document.",
      schema: { contentType: "application/json", schema: { type: "object", description: "OpenAPI 3.1 document." } },
      headers: { ETag: header("Changes whenever the document changes."), "Cache-Control": header("public, max-age=300") },
    },
    errors: [],
  },
  {
    method: "get",
    path: "/docs",
    operationId: "getReferencePage",
    tag: "reference",
    summary: "Interactive reference (HTML)",
    description: "Renders this document; lists every endpoint without JavaScript or network access too.",
    auth: "public",
    success: { status: 200, description: "HTML page.", schema: { contentType: "text/html", schema: { type: "string" } } },
    errors: [],
  },
  {
    method: "get",
    path: "/docs/swagger-ui.js",
    operationId: "getReferenceScript",
    tag: "reference",
    summary: "Script of the reference page",
    description: "Swagger UI's browser bundle (npm package swagger-ui-dist), served by this deployment so /docs needs no CDN.",
    auth: "public",
    success: { status: 200, description: "JavaScript.", schema: { contentType: "text/javascript", schema: { type: "string" } } },
    errors: [],
  },
  {
    method: "get",
    path: "/docs/swagger-ui.css",
    operationId: "getReferenceStylesheet",
    tag: "reference",
    summary: "Stylesheet of the reference page",
    description: "Swagger UI's stylesheet (npm package swagger-ui-dist), served by this deployment.",
    auth: "public",
    success: { status: 200, description: "CSS.", schema: { contentType: "text/css", schema: { type: "string" } } },
    errors: [],
  },
];
