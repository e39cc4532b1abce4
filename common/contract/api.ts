import { z } from "zod";
import { AnalysisReused } from "./analysis-reuse";
import { FeedbackReason, JobStatus, ModelPreset, Plan, VodUnusableReason } from "./enums";
import { jobErrorCodesDescription } from "./job-errors";
import { NormalizedJobRequest } from "./normalized-request";
import { plainText } from "./plain-text";
import { RENDER_STAGES } from "./render";

/**
 * Response (and small request) schemas of the public REST API and the operator API. The Worker builds its
 * answers with these types; tests and the OpenAPI document read the same definitions.
 */

const isoTimestamp = z.string().meta({ description: "ISO 8601 UTC timestamp, e.g. 2026-01-31T12:00:00.000Z." });

// ---- errors ---------------------------------------------------------------------------------------------------

export const ErrorDetailItem = z.object({
  field: z.string().meta({ description: "Dotted path of the offending field, e.g. manual_highlights[1].end_seconds." }),
  message: z.string(),
});

export const ErrorBody = z
  .object({
    code: z.string().meta({ description: "Stable snake_case code, e.g. validation_failed, insufficient_credits." }),
    message: z.string(),
    detail: z.array(ErrorDetailItem).optional().meta({ description: "422 only: every problem found." }),
    needed: z.number().int().optional().meta({ description: "402 only: credits the job costs." }),
    available: z.number().int().optional().meta({ description: "402 only: the account's balance." }),
    retry_after_seconds: z.number().int().optional().meta({ description: "429 only; also in Retry-After." }),
    status: JobStatus.optional().meta({ description: "409/400 on a job: its current status." }),
    request_id: z.string().optional().meta({ description: "500 only: quote it when reporting the problem." }),
    artifacts_deleted_at: isoTimestamp.optional().meta({ description: "410 only: when the retention sweep deleted the files." }),
  })
  .meta({ description: "The single error envelope of every non-2xx answer." });
export const ErrorEnvelope = z.object({
  error: ErrorBody,
  detail: z.array(ErrorDetailItem).optional().meta({
    description:
      "422 only: the same list as error.detail, also at the top level, where clients written against the service " +
      "specification's \"detail field\" of a 422 look for it.",
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
export type ErrorDetailItem = z.infer<typeof ErrorDetailItem>;

// ---- jobs -----------------------------------------------------------------------------------------------------

export const JobAck = z
  .object({
    id: z.string(),
    status: z.literal("pending"),
    credit_cost: z.number().int(),
    webhook_url: z.string().nullable(),
    status_endpoint: z.string().meta({ description: "/jobs/<id>" }),
    results_endpoint: z.string().meta({ description: "/jobs/<id>/results" }),
    analysis_reused: AnalysisReused.nullable(),
    message: z.string(),
  })
  .meta({ description: "202 answer of POST /jobs." });
export type JobAck = z.infer<typeof JobAck>;

export const JobError = z.object({
  code: z.string().meta({ description: jobErrorCodesDescription }),
  message: z.string().meta({ description: "What happened and what to do, for people (never a stack trace)." }),
});
export type JobError = z.infer<typeof JobError>;

export const JobRecord = z
  .object({
    id: z.string(),
    status: JobStatus,
    progress: z.number().int().min(0).max(100),
    stage: z.string().nullable().meta({ description: `Current pipeline stage while running (${RENDER_STAGES.join(", ")}; some run side by side, the last reported shows); null while pending and once completed, the last stage reached once failed.` }),
    vod_url: z.string(),
    vod_id: z.string(),
    vod_title: z.string().nullable().meta({ description: "null when vod_length_hours skipped the probe." }),
    vod_duration_seconds: z.number().meta({
      description:
        "The VOD's length: probed at acceptance (the claimed vod_length_hours when Twitch could not be reached), replaced by the real length once the renderer has opened the VOD.",
    }),
    streamer_name: z.string().nullable(),
    game_name: z.string().nullable(),
    request: NormalizedJobRequest,
    billed_vod_seconds: z.number().meta({
      description:
        "The VOD length the processing credits are for. At acceptance the probed length (max(vod_length_hours, probed), a claim at most 2 % or 60 s short counting as enough; the claim alone when Twitch could not be reached). Once the renderer has opened the VOD, a real length longer beyond that tolerance is billed (the difference reserved; the job fails with insufficient_credits and a full refund when the account cannot cover it), and at completion a billed length above the real one is lowered to it (the difference refunded, in refunded_credits).",
    }),
    credit_cost: z.number().int().meta({ description: "Credits reserved: the price at acceptance plus any difference reserved for a VOD longer than billed." }),
    refunded_credits: z.number().int().meta({
      description: "Credits given back: a failure's or cancel's refund, or at completion the price of billed outputs not delivered plus the difference for a VOD shorter than billed.",
    }),
    error: JobError.nullable(),
    webhook_url: z.string().nullable(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    started_at: isoTimestamp.nullable(),
    finished_at: isoTimestamp.nullable(),
    artifacts_expires_at: isoTimestamp
      .nullable()
      .meta({ description: "When the job's files are deleted (30 days after completion); null until completed." }),
    // Rows from before analyses were reused have none.
    analysis_reused: AnalysisReused.nullable(),
    links: z.object({ self: z.string(), results: z.string(), cancel: z.string() }),
  })
  .meta({ description: "A job as returned by GET /jobs/{id} and in GET /jobs items." });
export type JobRecord = z.infer<typeof JobRecord>;

/**
 * Highest `page` of a list: far beyond any real list (100 items a page), and small enough that the row offset
 * stays an exact integer SQLite accepts (a page of 461168601842738790 used to fail in the database).
 */
export const MAX_PAGE = 100_000;

/** A whole number from a query string, 1 to `max` (the message is about the value; the field is named apart). */
export const boundedIntString = (max: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: "must be a whole number" })
    // Leading zeros and absurd lengths are read as numbers too; the range check below rejects the huge ones.
    .transform(Number)
    .pipe(
      z
        // Digits beyond any number (Infinity) get the same message as any other value out of range.
        .number({ error: `must be between 1 and ${max}` })
        .min(1, { error: `must be between 1 and ${max}` })
        .max(max, { error: `must be between 1 and ${max}` }),
    );

export const ListJobsQuery = z.object({
  page: boundedIntString(MAX_PAGE)
    .optional()
    .default(1)
    .meta({ description: `1-based page number, at most ${MAX_PAGE} (default 1); a larger page is refused with 422.` }),
  page_size: boundedIntString(100)
    .optional()
    .default(20)
    .meta({ description: "Items per page, 1-100 (default 20)." }),
  status: JobStatus.optional().meta({ description: "Only jobs in this status." }),
  search: z
    .string()
    .max(200, { error: "must be at most 200 characters" })
    .optional()
    .meta({ description: "Case-insensitive substring of id, vod_url, VOD title, streamer_name or game_name." }),
});
export type ListJobsQuery = z.infer<typeof ListJobsQuery>;

export const JobList = z.object({
  items: z.array(JobRecord),
  page: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int(),
  has_more: z.boolean(),
});
export type JobList = z.infer<typeof JobList>;

export const CancelResponse = z
  .object({ id: z.string(), status: z.literal("failed"), refund_credits: z.number().int() })
  .meta({ description: "Answer of POST /jobs/{id}/cancel." });
export type CancelResponse = z.infer<typeof CancelResponse>;

export const FeedbackInput = z
  .object({
    positive: z.boolean({
      error: (issue) => (issue.input === undefined ? "is required" : "must be true or false"),
    }),
    reason: FeedbackReason.nullish().meta({ description: "Negative votes only." }),
    notes: plainText(2000, { multiline: true }).nullish().meta({
      description: "Required when reason is other.",
    }),
  })
  .check((ctx) => {
    const { positive, reason, notes } = ctx.value;
    if (positive && reason != null) {
      ctx.issues.push({ code: "custom", input: reason, path: ["reason"], message: "applies only to negative votes" });
    }
    if (reason === "other" && !notes) {
      ctx.issues.push({ code: "custom", input: notes, path: ["notes"], message: "is required when reason is other" });
    }
  })
  .meta({ description: "Body of POST /jobs/{id}/feedback." });
export type FeedbackInput = z.infer<typeof FeedbackInput>;

// ---- estimate, pricing, VOD metadata ---------------------------------------------------------------------------

export const CostBreakdown = z.object({
  vod_duration_seconds: z.number(),
  vod_hours: z.number(),
  model_preset: ModelPreset,
  credits_per_vod_hour: z.number().int(),
  processing_credits: z.number().int().meta({ description: "ceil(vod_hours x credits_per_vod_hour); 0 when processing_waived." }),
  reels: z.number().int(),
  credits_per_reel: z.number().int(),
  generation_credits: z.number().int(),
  shorts: z.number().int().meta({ description: "After the plan cap." }),
  shorts_requested: z.number().int(),
  credits_per_short: z.number().int(),
  shorts_credits: z.number().int(),
  processing_waived: z
    .object({
      credits: z.number().int().meta({ description: "The processing credits not charged: ceil(vod_hours x credits_per_vod_hour)." }),
      reason: z.literal("analysis_reused"),
      message: z.string(),
      from_job_id: z.string(),
      analysed_at: z.string(),
    })
    .nullable()
    .meta({
      description:
        "Set when the job reuses an earlier analysis of the VOD by the same account (analysis_reused): the whole-VOD analysis the processing credits pay for is not run again, so processing_credits is 0 and only the outputs are charged. null otherwise.",
    }),
  total: z.number().int(),
});
export type CostBreakdown = z.infer<typeof CostBreakdown>;

export const VideoMetadata = z
  .object({
    vod_id: z.string(),
    vod_url: z.string(),
    title: z.string(),
    duration_seconds: z.number(),
    streamer_name: z.string().nullable(),
    game_name: z.string().nullable(),
    created_at: isoTimestamp.nullable(),
    usable: z.boolean(),
    reason: VodUnusableReason.nullable(),
  })
  .meta({ description: "Answer of GET /videos/metadata." });
export type VideoMetadata = z.infer<typeof VideoMetadata>;

export const CostEstimate = z
  .object({
    credit_cost: z.number().int(),
    breakdown: CostBreakdown,
    available_credits: z.number().int(),
    sufficient_credits: z.boolean(),
    billing_note: z.string().meta({
      description:
        "Which length the price is on (probed, or vod_length_hours) and how the job's bill follows the VOD's real length once the renderer opens it.",
    }),
    request: NormalizedJobRequest,
    vod: VideoMetadata.nullable().meta({ description: "null when vod_length_hours skipped the probe." }),
  })
  .meta({ description: "Answer of POST /jobs/estimate: nothing is reserved." });
export type CostEstimate = z.infer<typeof CostEstimate>;

export const PricingTable = z.object({
  default_model_preset: ModelPreset,
  model_presets: z.array(z.object({ model_preset: ModelPreset, credits_per_vod_hour: z.number().int() })),
  credits_per_reel: z.number().int(),
  credits_per_short: z.number().int(),
  shorts_plan_caps: z.object({ free: z.number().int(), starter: z.number().int(), pro: z.number().int(), studio: z.number().int(), never_purchased: z.number().int() }),
  max_vod_hours: z.number(),
  formula: z.string(),
  cancel_refund_tiers: z.array(
    z.object({ status: JobStatus, progress_below: z.number().nullable(), refund_percent: z.number().int() }),
  ),
});
export type PricingTable = z.infer<typeof PricingTable>;

// ---- operator (admin) API -------------------------------------------------------------------------------------

/** Largest single credit movement an operator can make (added or removed). */
export const MAX_CREDIT_AMOUNT = 1_000_000_000;
/** Largest balance an account can reach: far below 2^53, so every balance and sum stays an exact integer. */
export const MAX_CREDIT_BALANCE = 1_000_000_000_000;

const creditAmountRange = `must be between -${MAX_CREDIT_AMOUNT} and ${MAX_CREDIT_AMOUNT}`;

/**
 * An optional field of the operator API: omitted or null (the same meaning, as in the public API) is `fallback`.
 * The document shows the fallback as the default.
 */
const orDefault = <T extends z.ZodType>(schema: T, fallback: z.output<T>) =>
  schema
    .nullish()
    .meta({ default: fallback })
    .transform((value) => value ?? fallback);

export const CreateAccountInput = z.object({
  name: plainText(200).min(1, { error: "is required" }),
  plan: orDefault(Plan, "free"),
  credits: orDefault(
    z
      .int({ error: "must be an integer" })
      .min(0, { error: "must be 0 or more" })
      .max(MAX_CREDIT_AMOUNT, { error: `must be at most ${MAX_CREDIT_AMOUNT}` }),
    0,
  ),
  /** Starting credits count as a purchase (lifts the "never purchased" shorts cap). */
  purchase: orDefault(z.boolean(), false),
});
export type CreateAccountInput = z.infer<typeof CreateAccountInput>;

export const CreatedAccount = z.object({
  account_id: z.string(),
  api_key: z.string().meta({ description: "Shown once; only its hash is stored." }),
  key_id: z.string(),
  webhook_signing_secret: z.string(),
  plan: Plan,
  credits: z.number().int(),
});

export const CreditsInput = z
  .object({
    amount: z
      .int({ error: "must be an integer" })
      .min(-MAX_CREDIT_AMOUNT, { error: creditAmountRange })
      .max(MAX_CREDIT_AMOUNT, { error: creditAmountRange })
      .refine((n) => n !== 0, { error: "must not be 0" })
      .meta({
        description: `Positive adds credits, negative removes them (adjustment only); at most ${MAX_CREDIT_AMOUNT} either way, and the balance stays at most ${MAX_CREDIT_BALANCE}.`,
      }),
    reason: plainText(500).nullish(),
    purchase: orDefault(z.boolean(), false),
  })
  .check((ctx) => {
    if (ctx.value.purchase && ctx.value.amount < 0) {
      ctx.issues.push({ code: "custom", input: ctx.value.amount, path: ["amount"], message: "must be positive for a purchase" });
    }
  });
export type CreditsInput = z.infer<typeof CreditsInput>;

export const UpdateAccountInput = z.object({ plan: Plan });

export const LedgerEntry = z.object({
  id: z.number().int(),
  kind: z.enum(["reserve", "refund", "purchase", "adjustment"]),
  amount: z.number().int().meta({ description: "Signed: reserve is negative." }),
  balance_after: z.number().int(),
  job_id: z.string().nullable(),
  reason: z.string().nullable(),
  created_at: isoTimestamp,
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

export const ApiKeySummary = z.object({
  key_id: z.string(),
  prefix: z.string().meta({ description: "First characters of the key, to recognise it." }),
  created_at: isoTimestamp,
  revoked_at: isoTimestamp.nullable(),
});
export type ApiKeySummary = z.infer<typeof ApiKeySummary>;

export const AccountSummary = z.object({
  account_id: z.string(),
  name: z.string(),
  plan: Plan,
  credits: z.number().int(),
  purchased: z.boolean(),
  shorts_cap: z.number().int(),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
});
export type AccountSummary = z.infer<typeof AccountSummary>;

export const AccountDetail = AccountSummary.extend({
  webhook_signing_secret: z.string(),
  keys: z.array(ApiKeySummary),
  ledger: z.array(LedgerEntry),
});
export type AccountDetail = z.infer<typeof AccountDetail>;

export const AccountList = z.object({
  items: z.array(AccountSummary),
  page: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int(),
  has_more: z.boolean(),
});
export type AccountList = z.infer<typeof AccountList>;

export const CreatedApiKey = z.object({
  api_key: z.string().meta({ description: "Shown once; only its hash is stored." }),
  key_id: z.string(),
});
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const RevokedApiKey = z.object({ key_id: z.string(), revoked_at: isoTimestamp });
export type RevokedApiKey = z.infer<typeof RevokedApiKey>;

export const CreditBalance = z.object({ credits: z.number().int().meta({ description: "Balance after the change." }) });
export type CreditBalance = z.infer<typeof CreditBalance>;
