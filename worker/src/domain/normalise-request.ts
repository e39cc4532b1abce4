import type { NormalizedJobRequest, Plan, ProfileTuning, RunProfile } from "../../../common/contract";
import type { JobRequestInput, RunOverrideInput } from "../../../common/contract/job-request";
import { normaliseManualHighlights } from "./manual-highlights";
import { normaliseParameters } from "./parameters";
import { shortsCap } from "./plan-caps";
import { DEFAULT_MODEL_PRESET } from "./pricing";
import { PROFILE_DEFAULTS } from "./profile-defaults";

export interface NormaliseContext {
  vodId: string;
  canonicalUrl: string;
  plan: Plan;
  purchased: boolean;
}

const blankToNull = (v: string | null | undefined): string | null => (v === undefined || v === null || v === "" ? null : v);

/** An explicit target in the overrides: seconds win over minutes. */
function overrideTarget(o: RunOverrideInput | null | undefined): number | null {
  if (!o) return null;
  if (o.target_duration_seconds != null) return o.target_duration_seconds;
  if (o.target_duration_minutes != null) return o.target_duration_minutes * 60;
  return null;
}

/**
 * Resolves each executed profile's tuning. final_video_length_minutes is the total reel runtime: split across
 * the executed profiles in proportion to their own targets (omitted: each keeps its own target); a profile's
 * own override target replaces its share. 0 (shorts-only) keeps each profile's own target for moment choice.
 */
export function resolveProfileSettings(
  executed: RunProfile[],
  finalMinutes: number | null,
  overrides: Record<string, RunOverrideInput | null>,
): Partial<Record<RunProfile, ProfileTuning>> {
  const ownTotal = executed.reduce((sum, p) => sum + PROFILE_DEFAULTS[p].target_duration_seconds, 0);
  const settings: Partial<Record<RunProfile, ProfileTuning>> = {};
  for (const profile of executed) {
    const d = PROFILE_DEFAULTS[profile];
    const o = overrides[profile];
    const share =
      finalMinutes === null || finalMinutes === 0
        ? d.target_duration_seconds
        : Math.round((finalMinutes * 60 * d.target_duration_seconds) / ownTotal);
    settings[profile] = {
      target_duration_seconds: overrideTarget(o) ?? share,
      audience_weight: o?.audience_weight ?? d.audience_weight,
      streamer_weight: o?.streamer_weight ?? d.streamer_weight,
      similarity_threshold: o?.similarity_threshold ?? d.similarity_threshold,
      highlight_min_score: o?.highlight_min_score ?? d.highlight_min_score,
      bucket_size_seconds: o?.bucket_size_seconds ?? d.bucket_size_seconds,
    };
  }
  return settings;
}

/** Validated input -> the fully explicit request stored with the job and sent to the renderer. */
export function normaliseJobRequest(input: JobRequestInput, ctx: NormaliseContext): NormalizedJobRequest {
  const compilation = input.compilation_enabled ?? true;
  const runProfiles = input.run_profiles ?? ["balanced"];
  const executed = compilation ? [...runProfiles] : [runProfiles[0]!];
  const finalMinutes = input.final_video_length_minutes ?? null;
  const profileSettings = resolveProfileSettings(executed, finalMinutes, input.run_overrides ?? {});
  const resolvedTotalMinutes =
    executed.reduce((sum, p) => sum + (profileSettings[p]?.target_duration_seconds ?? 0), 0) / 60;
  const requestedShorts = input.num_shorts ?? 0;
  const streamLanguage = input.stream_language ?? null;
  return {
    vod_url: ctx.canonicalUrl,
    vod_id: ctx.vodId,
    streamer_name: blankToNull(input.streamer_name),
    game_name: blankToNull(input.game_name),
    streamer_twitch_url: input.streamer_twitch_url ?? null,
    streamer_twitter_url: input.streamer_twitter_url ?? null,
    streamer_pronouns: blankToNull(input.streamer_pronouns) ?? "they",
    webhook_url: input.webhook_url ?? null,
    vod_length_hours: input.vod_length_hours ?? null,
    final_video_length_minutes: finalMinutes ?? resolvedTotalMinutes,
    compilation_enabled: compilation,
    num_shorts: Math.min(requestedShorts, shortsCap(ctx.plan, ctx.purchased)),
    num_shorts_requested: requestedShorts,
    burn_captions: input.burn_captions ?? true,
    manual_highlights: normaliseManualHighlights(input.manual_highlights ?? [], executed, compilation),
    model_preset: input.model_preset ?? DEFAULT_MODEL_PRESET,
    stream_language: streamLanguage,
    metadata_language: input.metadata_language ?? streamLanguage,
    run_profiles: [...runProfiles],
    executed_profiles: executed,
    profile_settings: profileSettings,
    parameters: normaliseParameters(input.parameters),
  };
}
