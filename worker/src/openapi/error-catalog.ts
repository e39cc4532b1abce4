import type { ErrorEnvelope } from "../../../common/contract";
import type { ErrorStatus } from "../lib/api-error";
import type { JsonSchema } from "./json-schema";
import { componentRef } from "./json-schema";

/**
 * Every error code the API answers with, its status and an example envelope. Operations list the codes they can
 * produce; the document groups them by status, one example per code, so a client sees exactly which codes to
 * expect from each call.
 */
export interface ErrorCodeSpec {
  status: ErrorStatus;
  example: ErrorEnvelope["error"];
  /** Response headers that come with this code. */
  headers?: readonly HeaderName[];
}

type HeaderName = "Retry-After" | "WWW-Authenticate" | "Content-Range";

const HEADERS: Record<HeaderName, JsonSchema> = {
  "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 0 } },
  "WWW-Authenticate": { description: "Bearer challenge of the operator API.", schema: { type: "string" } },
  "Content-Range": { description: "`bytes */<size>`: the size of the file or archive.", schema: { type: "string" } },
};

export const ERROR_CODES = {
  invalid_json: { status: 400, example: { code: "invalid_json", message: "The request body is not valid JSON: it ends before the JSON text is complete." } },
  job_not_cancellable: {
    status: 400,
    example: { code: "job_not_cancellable", message: "The job is already completed; only pending or running jobs can be cancelled.", status: "completed" },
  },
  missing_api_key: { status: 401, example: { code: "missing_api_key", message: "Send your API key in the X-API-Key header." } },
  invalid_api_key: { status: 401, example: { code: "invalid_api_key", message: "The API key is not valid or has been revoked." } },
  unauthorized: {
    status: 401,
    example: { code: "unauthorized", message: "The operator API needs Authorization: Bearer <ADMIN_TOKEN>." },
    headers: ["WWW-Authenticate"],
  },
  invalid_token: {
    status: 401,
    example: { code: "invalid_token", message: "The download token is not valid for this job." },
  },
  invalid_link: {
    status: 403,
    example: { code: "invalid_link", message: "This download link is not valid (it was altered or is incomplete)." },
  },
  link_expired: {
    status: 403,
    example: {
      code: "link_expired",
      message: "This download link has expired. Request GET /jobs/job_01JQ2V6S5XK3W8T9N4M7B1C0DE/results for fresh links.",
    },
  },
  insufficient_credits: {
    status: 402,
    example: { code: "insufficient_credits", message: "This job costs 230 credits but the account has 120.", needed: 230, available: 120 },
  },
  job_not_found: { status: 404, example: { code: "job_not_found", message: "No job with this id exists for this account." } },
  account_not_found: { status: 404, example: { code: "account_not_found", message: "No account with this id." } },
  key_not_found: { status: 404, example: { code: "key_not_found", message: "No key with this id on this account." } },
  delivery_not_found: { status: 404, example: { code: "delivery_not_found", message: "This job has no webhook delivery with that id." } },
  file_not_found: { status: 404, example: { code: "file_not_found", message: "No such file." } },
  job_not_completed: {
    status: 409,
    example: { code: "job_not_completed", message: "Results exist once the job is completed; it is running.", status: "running" },
  },
  artifacts_expired: {
    status: 410,
    example: {
      code: "artifacts_expired",
      message:
        "The files of job job_01JQ2V6S5XK3W8T9N4M7B1C0DE expired on 2026-03-02T10:00:00.000Z and are deleted under the 30-day retention policy; the job record remains available.",
      artifacts_deleted_at: "2026-03-02T10:00:00.000Z",
    },
  },
  payload_too_large: { status: 413, example: { code: "payload_too_large", message: "The request body is larger than 65536 bytes." } },
  unsupported_media_type: {
    status: 415,
    example: { code: "unsupported_media_type", message: "Send the body as JSON with Content-Type: application/json (got text/plain)." },
  },
  range_not_satisfiable: {
    status: 416,
    example: { code: "range_not_satisfiable", message: "The requested range lies outside the file, which has 1048576 bytes." },
    headers: ["Content-Range"],
  },
  validation_failed: {
    status: 422,
    example: {
      code: "validation_failed",
      message: "Invalid request: 2 problems; see detail.",
      detail: [
        { field: "manual_highlights[0].end_seconds", message: "must be 20 to 180 seconds after start_seconds, not 10" },
        { field: "final_video_length_minutes", message: "may be 0 only together with compilation_enabled false (a shorts-only job)" },
      ],
    },
  },
  idempotency_key_reused: {
    status: 422,
    example: {
      code: "idempotency_key_reused",
      message: "This Idempotency-Key was already used with a different request body in the last 24 hours; use a new key for a new job.",
      detail: [
        { field: "Idempotency-Key", message: "was already used with a different request body in the last 24 hours; use a new key for a new job" },
      ],
    },
  },
  rate_limited: {
    status: 429,
    example: { code: "rate_limited", message: "At most 10 job creations per minute per client (IPv4 address or IPv6 /64); retry in 12 s.", retry_after_seconds: 12 },
    headers: ["Retry-After"],
  },
  internal_error: {
    status: 500,
    example: {
      code: "internal_error",
      message: "Something went wrong on our side. Quote the request_id if you report it.",
      request_id: "req_3k2j5h6g7f8d9s0a1q2w",
    },
  },
  service_unavailable: {
    status: 503,
    example: { code: "service_unavailable", message: "The job queue is unavailable; nothing was charged. Retry shortly." },
    headers: ["Retry-After"],
  },
  twitch_unavailable: {
    status: 503,
    example: { code: "twitch_unavailable", message: "Twitch could not be reached to check the VOD (timed out). Retry shortly." },
    headers: ["Retry-After"],
  },
  links_unavailable: {
    status: 503,
    example: { code: "links_unavailable", message: "Download links are not configured on this deployment." },
  },
} satisfies Record<string, ErrorCodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Not authenticated",
  402: "Not enough credits",
  404: "Not found",
  403: "Link not valid or expired",
  409: "Conflict with the job's state",
  410: "Files deleted under the retention policy (the job record remains)",
  413: "Body too large",
  415: "Body is not JSON",
  416: "Range not satisfiable",
  422: "Validation failed: every problem is listed in error.detail",
  429: "Rate limited: wait Retry-After seconds",
  500: "Internal error",
  503: "Temporarily unavailable",
};

/** Codes every operation can answer with, whatever it does. */
export const ALWAYS_POSSIBLE: readonly ErrorCode[] = ["internal_error"];

/** An operation's own example of a code, where the catalog's one would not fit (a 422 of a query, say). */
export type ErrorExamples = Partial<Record<ErrorCode, ErrorEnvelope["error"]>>;

/** An example as answered: a 422's detail also at the top level (middleware/errors.ts). */
function envelopeOf(error: ErrorEnvelope["error"]): ErrorEnvelope {
  return error.detail ? { error, detail: error.detail } : { error };
}

/** OpenAPI `responses` entries (by status) for the given error codes, each with its examples. */
export function errorResponses(codes: readonly ErrorCode[], own: ErrorExamples = {}): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, ...ALWAYS_POSSIBLE]) {
    const list = byStatus.get(ERROR_CODES[code].status) ?? [];
    if (!list.includes(code)) list.push(code);
    byStatus.set(ERROR_CODES[code].status, list);
  }
  const out: Record<string, JsonSchema> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const list = byStatus.get(status)!;
    const headerNames = new Set(list.flatMap((code) => (ERROR_CODES[code] as ErrorCodeSpec).headers ?? []));
    out[String(status)] = {
      description: `${STATUS_TEXT[status] ?? "Error"} (${list.join(", ")}).`,
      ...(headerNames.size > 0 ? { headers: Object.fromEntries([...headerNames].map((h) => [h, HEADERS[h]])) } : {}),
      content: {
        "application/json": {
          schema: componentRef("ErrorEnvelope"),
          examples: Object.fromEntries(list.map((code) => [code, { value: envelopeOf(own[code] ?? ERROR_CODES[code].example) }])),
        },
      },
    };
  }
  return out;
}
