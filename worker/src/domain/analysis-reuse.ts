import { ANALYSIS_OPTION_FIELDS, ANALYSIS_VERSION } from "../../../common/contract/analysis-reuse";
import type { NormalizedJobRequest } from "../../../common/contract/normalized-request";
import { sha256Hex } from "../lib/crypto";
import { canonicalJson } from "./idempotency-key";

/**
 * The rules of reusing a stored analysis (common/contract/analysis-reuse.ts; docs/PRICING-AND-RULES.md,
 * "Re-cuts: reusing an analysis"): which requests share one, how long it is offered, what invalidates it.
 */

/**
 * The analysis-relevant options of a request as one key: SHA-256 of the canonical JSON of ANALYSIS_OPTION_FIELDS.
 * Two requests with the same key on the same VOD would make the same stored analysis.
 */
export function analysisOptionsHash(request: Pick<NormalizedJobRequest, (typeof ANALYSIS_OPTION_FIELDS)[number]>): Promise<string> {
  const options = Object.fromEntries(ANALYSIS_OPTION_FIELDS.map((f) => [f, request[f] ?? null]));
  return sha256Hex(canonicalJson({ analysis_version: ANALYSIS_VERSION, ...options }));
}

/**
 * A stored analysis is offered only while at least this long is left before it expires: the new job's analysis
 * task may wait for a renderer (up to 3 hours, docs/TASK-MODEL.md) before it reads the object, and the object
 * must still be there then. Whatever happens, a task that cannot read it analyses the VOD instead.
 */
export const REUSE_MIN_REMAINING_MS = 4 * 3600_000;

/**
 * A VOD whose length Twitch now reports differently from when it was analysed is not the one analysed (Twitch
 * re-processed or trimmed it): GQL's lengthSeconds is whole seconds, so any difference counts.
 */
export const PROBED_LENGTH_TOLERANCE_SECONDS = 0.5;

/** When a stored analysis stops being offered: the reuse window after it was made, never past its job's files. */
export function analysisExpiry(analysedAt: string, reuseHours: number, artifactsExpiresAt: string | null): string {
  const window = Date.parse(analysedAt) + reuseHours * 3600_000;
  const files = artifactsExpiresAt === null ? window : Date.parse(artifactsExpiresAt);
  return new Date(Math.min(window, files)).toISOString();
}
