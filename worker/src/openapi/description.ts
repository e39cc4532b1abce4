import { ARTIFACT_RETENTION_DAYS } from "../orchestration/job-lifecycle";
import { MAX_BODY_BYTES } from "../middleware/json-body";
import { JOB_CREATION_LIMIT, JOB_CREATION_WINDOW_MS } from "../middleware/rate-limit";
import { DEFAULT_LINK_TTL_SECONDS } from "../config";
import { pricingTable } from "../routes/pricing";
import { REDELIVERY_LIMIT } from "../routes/webhooks";
import { MAX_PAGE } from "../../../common/contract";
import { ERROR_CODES } from "./error-catalog";

/** Version of this document. Raised on every change to the API surface (see "Versioning" below). */
export const API_DOCUMENT_VERSION = "1.1.0";

function table(head: string[], rows: Array<Array<string | number>>): string {
  return [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
}

/**
 * The document's top-level description: the API's rules and the choices behind them, with the numbers read from
 * the code that enforces them (prices, caps, tiers, limits), so the reference cannot drift from the behaviour.
 */
export function apiDescription(): string {
  const pricing = pricingTable();
  const caps = pricing.shorts_plan_caps;
  const errorRows = Object.entries(ERROR_CODES)
    .sort(([, a], [, b]) => a.status - b.status)
    .map(([code, spec]) => [spec.status, `\`${code}\``]);
  const tiers = pricing.cancel_refund_tiers.map((t, i, all) => {
    const previous = all[i - 1];
    const lower = previous && previous.status === t.status && previous.progress_below !== null ? previous.progress_below : 0;
    const when =
      t.status === "pending" ? "pending" : t.progress_below === null ? `running, progress >= ${lower} %` : `running, progress < ${t.progress_below} %`;
    return [when, `${t.refund_percent} %`];
  });
  const linkHours = DEFAULT_LINK_TTL_SECONDS / 3600;

  return `Turns a public Twitch VOD into highlight reels, vertical shorts with captions (burned in, plus an .srt sidecar) and
generated titles, descriptions and tags; for editors, each reel's cuts as an OpenTimelineIO timeline and a CMX 3600
EDL, and each short's word-level transcript. Jobs run asynchronously: \`POST /jobs\` answers 202 at once; follow the job by
polling \`GET /jobs/{id}\` (every few seconds is enough) or by webhooks (\`webhooks\` below).

## Authentication

| Who | How |
|---|---|
| API clients | \`X-API-Key: <key>\` on every call except the public ones (\`GET /pricing\`, \`GET /openapi.json\`, \`GET /docs\`). A missing or invalid key is 401; another account's job is 404. |
| Download-all | \`GET /jobs/{id}/download-all?token=...\`: the token in \`zip_url\` grants that one job's ZIP until \`links_expire_at\`, without a key (so the link can be handed to a browser). With \`X-API-Key\` no token is needed. |
| File links | \`url\` of each deliverable is presigned (signature and expiry in the query string); no key. |
| Operator API | \`Authorization: Bearer <ADMIN_TOKEN>\` on \`/admin/*\`. |
| Webhook receivers | Verify \`X-Service-Signature\` (hex HMAC-SHA256 of the raw body, keyed with the account's webhook signing secret); see \`webhooks\`. |

## Versioning

The API is unversioned: this is **v1**, and paths carry no version. Within v1 changes are additive only: new
endpoints, new optional request fields, new response fields, new error codes and new values in open sets (such as
deliverable \`type\`). Clients must ignore response fields they do not know; response schemas here therefore allow
additional properties. Request rules are never tightened within v1. A breaking change would ship under a \`/v2\`
path prefix, with v1 served in parallel for at least 6 months; deprecated operations are marked \`deprecated\` in
this document and answer with \`Deprecation\` and \`Sunset\` headers (RFC 9745, RFC 8594) for that period. Every change,
additive or not, raises \`info.version\` of this document (semantic versioning: minor for additions, major for
breaking ones); watching \`GET /openapi.json\` (ETag) is enough to notice one.

## Pricing

\`\`\`
${pricing.formula}
\`\`\`

${table(["model_preset", "credits per VOD hour"], [...pricing.model_presets].sort((a, b) => a.credits_per_vod_hour - b.credits_per_vod_hour).map((p) => [p.model_preset + (p.model_preset === pricing.default_model_preset ? " (default)" : ""), p.credits_per_vod_hour]))}

A reel (one per executed run profile) costs ${pricing.credits_per_reel} credits, a short ${pricing.credits_per_short}. VODs longer than
${pricing.max_vod_hours} h are rejected (422). \`POST /jobs/estimate\` prices a body without reserving anything; \`GET /pricing\`
returns these numbers as JSON. Credits are reserved when a job is accepted (402 if the balance is too low) and
refunded in full when it fails. A job that completes without some of what it was billed for (a profile where no
moment beat \`highlight_min_score\` gets no reel; a VOD with fewer good moments than \`num_shorts\` gets fewer shorts)
gets the price of each missing reel and short back with the completion: \`refunded_credits\` on the job record, the
results and the job.completed payload, and the manifest's \`warnings\` say why.

A job is billed for the VOD's real length. The price at acceptance is on the probed length (on \`vod_length_hours\`
only when Twitch cannot be reached); the renderer measures the real length before it renders anything. Longer than
billed by more than 2 % (at least 60 s): the difference, this formula at both lengths, is reserved then (added to
\`credit_cost\`), or the job fails at once with \`insufficient_credits\`, every credit back and the real length in
its message when the balance cannot cover it. Billed above the real length: the difference is refunded with the
completion, inside \`refunded_credits\`. The record's \`billed_vod_seconds\` is the length the processing credits are
for; the estimate's \`billing_note\` explains its price.

Re-cuts: a job on a VOD the same account had analysed recently (a completed job, the same \`model_preset\` and
\`stream_language\`, within the deployment's reuse window, 7 days by default, and before that job's files expire)
reuses that analysis instead of analysing the VOD again: its processing credits are waived (the estimate's
\`breakdown.processing_waived\`) and only its reels and shorts are charged, whatever else differs (manual
highlights, profiles, layout, captions, number of shorts). The 202 and the job record say so in
\`analysis_reused\` (\`{from_job_id, analysed_at}\`, else null).

## Plans and shorts

\`num_shorts\` above the plan's cap is silently reduced, and the reduced count is rendered and billed (the job
record's \`request.num_shorts_requested\` keeps the asked-for number): free ${caps.free}, starter ${caps.starter}, pro ${caps.pro},
studio ${caps.studio}; an account that never purchased credits is capped at ${caps.never_purchased} whatever its plan.

## Cancelling

\`POST /jobs/{id}/cancel\` works while a job is pending or running; the job becomes \`failed\` with error code
\`cancelled_by_user\`. Refund of the reserved credits, rounded down:

${table(["job at cancel", "refund"], tiers)}

## Paging and search (GET /jobs)

\`page\` >= 1 (default 1), \`page_size\` 1-100 (default 20), newest first. The answer carries \`total\` and \`has_more\`; a
page past the end is empty, not an error. \`status\` filters by status; \`search\` is a case-insensitive substring of
the job id, vod_url, VOD title, streamer_name or game_name (\`%\` and \`_\` match literally).

## Errors

Every non-2xx answer is \`{"error": {"code", "message", ...}}\` (schema \`ErrorEnvelope\`); branch on \`code\`, show
\`message\`. 422 lists every problem at once (at most 50) in \`error.detail[]\` (\`field\` is a dotted path such as
\`manual_highlights[1].end_seconds\`), repeated as a top-level \`detail\`. Bad input never produces a 500; a 500 carries \`request_id\` (also the
\`X-Request-Id\` header of every answer). Unknown paths are 404 \`not_found\`, wrong methods 405
\`method_not_allowed\` with \`Allow\`.

${table(["status", "code"], errorRows)}

## Limits

- \`POST /jobs\`: ${JOB_CREATION_LIMIT} requests per ${JOB_CREATION_WINDOW_MS / 1000} s per client (an IPv4 address, or the /64 of an IPv6
  address; sliding window), counted before authentication; 429 \`rate_limited\` with \`Retry-After\`. Counted answers
  carry \`X-RateLimit-Limit\` and \`X-RateLimit-Remaining\`. Reads are not limited.
- Redelivery: ${REDELIVERY_LIMIT} per webhook event per hour (429 with \`Retry-After\`).
- \`GET /jobs\` and \`/admin/accounts\`: \`page\` at most ${MAX_PAGE} (422 beyond); \`search\` up to 200 characters in any script.
- \`webhook_url\`: public internet addresses only. Loopback, private, carrier-grade NAT, link-local (cloud metadata),
  multicast, reserved and documentation ranges, IPv4 inside IPv6, names that only resolve inside a network and
  URLs with credentials are refused with 422 in every spelling: the service calls that URL and must not reach
  networks the client cannot. Delivery failures are logged as categories (HTTP status, timeout, connection
  failed), never raw network errors.
- \`Idempotency-Key\` on \`POST /jobs\`: the same key and body within 24 h answer the original 202; another body is
  422 \`idempotency_key_reused\`.
- Request bodies: at most ${MAX_BODY_BYTES} bytes (413), \`Content-Type: application/json\` (415).

## Retention and links

A completed job's files (videos, thumbnails, captions, transcripts, timelines, metadata) expire ${ARTIFACT_RETENTION_DAYS} days after completion and are
then deleted; the job record stays and \`artifacts_expires_at\` says when; from then on results, download-all and file
links answer 410 \`artifacts_expired\`. Download links (\`url\`, \`zip_url\`) are valid for ${linkHours} hours
(deployment setting) and never beyond \`artifacts_expires_at\`; \`links_expire_at\` gives the exact time. Do not store
links: call \`GET /jobs/{id}/results\` again for fresh ones.
`;
}
