import type { NormalizedJobRequest, NormalizedParameters } from "../../../common/contract/normalized-request";
import type { MomentSignals } from "../../../common/contract/render";
import type { Moment } from "../../../render-container/src/selection/types";

/** A normalised request as the Worker hands it over (every value explicit), with the given changes. */
export function normalizedRequest(changes: Partial<Omit<NormalizedJobRequest, "parameters">> & { parameters?: Partial<NormalizedParameters> } = {}): NormalizedJobRequest {
  const tuning = { target_duration_seconds: 300, audience_weight: 0.5, streamer_weight: 0.5, similarity_threshold: 0.5, highlight_min_score: 0.35, bucket_size_seconds: 5 };
  const { parameters, ...rest } = changes;
  return {
    vod_url: "https://www.twitch.tv/videos/1", vod_id: "1", streamer_name: null, game_name: null, streamer_twitch_url: null,
    streamer_twitter_url: null, streamer_pronouns: "they", webhook_url: null, vod_length_hours: null, final_video_length_minutes: 5,
    compilation_enabled: true, num_shorts: 0, num_shorts_requested: 0, burn_captions: true, manual_highlights: [], model_preset: "auto_balance",
    stream_language: null, metadata_language: null, run_profiles: ["balanced"], executed_profiles: ["balanced"],
    profile_settings: { balanced: tuning, audience: tuning, streamer: tuning },
    ...rest,
    parameters: {
      min_highlight_duration: 20, max_highlight_duration: 60, cold_open_enabled: false, cold_open_max_clips: 3, cold_open_snippet_duration: 3,
      reel_title_card_enabled: false, shorts_title_card_enabled: false, shorts_crop_mode: "crop", shorts_split_ratio: 0.5,
      shorts_facecam_frame_enabled: false, shorts_facecam_frame_color: "white", caption_style: "plain", mask_profanity: true,
      chat_overlay: "off", reel_chat_overlay: false,
      ...parameters,
    },
  };
}

export function signals(score: number, source: "auto" | "manual" = "auto"): MomentSignals {
  return {
    score, audience_score: score, streamer_score: score, audio_hype: score, chat_rate_ratio: 2, unique_chatters: 5, hype_density: 0.2,
    speech_activity: 0.5, loudness_db_above_baseline: 8, source, reasons: ["test"],
  };
}

export function moment(start: number, end: number, score: number, o: Partial<Moment> = {}): Moment {
  return { start, end, peak: (start + end) / 2, score, profile: "balanced", source: "auto", label: null, signals: signals(score), ...o };
}
