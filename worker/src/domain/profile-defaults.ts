import type { ProfileTuning, RunProfile } from "../../../common/contract";

/** Each profile's own tuning; `target_duration_seconds` is its own reel length. */
export const PROFILE_DEFAULTS: Record<RunProfile, ProfileTuning> = {
  balanced: {
    target_duration_seconds: 300,
    audience_weight: 0.5,
    streamer_weight: 0.5,
    similarity_threshold: 0.5,
    highlight_min_score: 0.35,
    bucket_size_seconds: 5,
  },
  audience: {
    target_duration_seconds: 240,
    audience_weight: 0.8,
    streamer_weight: 0.2,
    similarity_threshold: 0.5,
    highlight_min_score: 0.35,
    bucket_size_seconds: 5,
  },
  streamer: {
    target_duration_seconds: 240,
    audience_weight: 0.2,
    streamer_weight: 0.8,
    similarity_threshold: 0.5,
    highlight_min_score: 0.35,
    bucket_size_seconds: 5,
  },
};
