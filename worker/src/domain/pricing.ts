import type { AnalysisReused, CostBreakdown, ModelPreset } from "../../../common/contract";
import type { NormalizedJobRequest } from "../../../common/contract/normalized-request";
import { MAX_VOD_HOURS } from "../../../common/contract/job-request";

/** Credits per VOD hour of each model preset (faster presets analyse less and cost less). */
export const CREDITS_PER_VOD_HOUR: Record<ModelPreset, number> = {
  rapid_sprint: 20,
  stable_tempo: 30,
  auto_balance: 40,
  creator_focus: 50,
  studio_polish: 70,
  director_finish: 100,
};
export const DEFAULT_MODEL_PRESET: ModelPreset = "auto_balance";
/** Generation credits of one reel (one per executed profile; none for a shorts-only job). */
export const CREDITS_PER_REEL = 25;
export const CREDITS_PER_SHORT = 10;
export { MAX_VOD_HOURS };
export const MAX_VOD_SECONDS = MAX_VOD_HOURS * 3600;

export interface CostInput {
  vodDurationSeconds: number;
  modelPreset: ModelPreset;
  /** Reels actually rendered: executed profiles, or 0 when compilation_enabled is false. */
  reels: number;
  shorts: number;
  shortsRequested: number;
  /**
   * An earlier analysis of this VOD by the same account is reused (analysis-reuse.ts): the whole-VOD analysis the
   * processing credits pay for does not run, so they are waived; the outputs are charged as always.
   */
  analysisReused?: AnalysisReused | null;
}

/** What a job is billed to deliver: a reel per executed profile (none for shorts-only jobs) and its shorts. */
export function billedOutputs(request: Pick<NormalizedJobRequest, "compilation_enabled" | "executed_profiles" | "num_shorts">): { reels: number; shorts: number } {
  return { reels: request.compilation_enabled ? request.executed_profiles.length : 0, shorts: request.num_shorts };
}

/**
 * Credits of billed outputs a completed job did not deliver (a profile where no moment beat highlight_min_score,
 * a VOD with fewer good moments than shorts asked for): the reel and short prices of what is missing.
 */
export function undeliveredCredits(billed: { reels: number; shorts: number }, delivered: { reels: number; shorts: number }): number {
  return Math.max(0, billed.reels - delivered.reels) * CREDITS_PER_REEL + Math.max(0, billed.shorts - delivered.shorts) * CREDITS_PER_SHORT;
}

export function computeCost(input: CostInput): CostBreakdown {
  const vodHours = input.vodDurationSeconds / 3600;
  const rate = CREDITS_PER_VOD_HOUR[input.modelPreset];
  // Rounded to 1e-9 first so 1.5 h x 30 = 45.000000000000007 does not become 46.
  const fullProcessing = Math.ceil(Math.round(vodHours * rate * 1e9) / 1e9);
  const reused = input.analysisReused ?? null;
  const processing = reused ? 0 : fullProcessing;
  const generation = input.reels * CREDITS_PER_REEL;
  const shortsCredits = input.shorts * CREDITS_PER_SHORT;
  return {
    vod_duration_seconds: input.vodDurationSeconds,
    vod_hours: vodHours,
    model_preset: input.modelPreset,
    credits_per_vod_hour: rate,
    processing_credits: processing,
    reels: input.reels,
    credits_per_reel: CREDITS_PER_REEL,
    generation_credits: generation,
    shorts: input.shorts,
    shorts_requested: input.shortsRequested,
    credits_per_short: CREDITS_PER_SHORT,
    shorts_credits: shortsCredits,
    processing_waived: reused
      ? {
          credits: fullProcessing,
          reason: "analysis_reused",
          message: `Processing credits waived: this account's analysis of the VOD from job ${reused.from_job_id} (${reused.analysed_at}) is reused, so only the outputs are charged.`,
          from_job_id: reused.from_job_id,
          analysed_at: reused.analysed_at,
        }
      : null,
    total: processing + generation + shortsCredits,
  };
}
