import { z } from "zod";
import { CaptionStyle, ChatOverlayStyle, CropMode, FrameColor, ModelPreset, RunProfile } from "./enums";

/**
 * The job request after validation, defaults, clamps and plan caps: what GET /jobs/{id} returns as `request`
 * and what the renderer receives. Every value is explicit so the renderer never re-derives a default.
 */
export const ProfileTuning = z.object({
  /** Reel length this profile aims for, in seconds (already resolved: override > share of final length > default). */
  target_duration_seconds: z.number().int(),
  audience_weight: z.number().min(0).max(1),
  streamer_weight: z.number().min(0).max(1),
  similarity_threshold: z.number().min(0).max(1),
  highlight_min_score: z.number().min(0).max(1),
  bucket_size_seconds: z.number().int().min(1).max(3600),
});
export type ProfileTuning = z.infer<typeof ProfileTuning>;

export const NormalizedManualHighlight = z.object({
  start_seconds: z.number(),
  end_seconds: z.number(),
  label: z.string().nullable(),
  /** Resolved: omitted in the request means every executed profile. */
  run_profiles: z.array(RunProfile),
});
export type NormalizedManualHighlight = z.infer<typeof NormalizedManualHighlight>;

export const NormalizedParameters = z.object({
  min_highlight_duration: z.number().int(),
  max_highlight_duration: z.number().int(),
  cold_open_enabled: z.boolean(),
  cold_open_max_clips: z.number().int().min(2).max(6),
  cold_open_snippet_duration: z.number().min(2).max(10),
  reel_title_card_enabled: z.boolean(),
  shorts_title_card_enabled: z.boolean(),
  shorts_crop_mode: CropMode,
  shorts_split_ratio: z.number().min(0.15).max(0.85),
  shorts_facecam_frame_enabled: z.boolean(),
  shorts_facecam_frame_color: FrameColor,
  // Defaults here too: job records stored before these options existed still parse.
  caption_style: CaptionStyle.default("plain"),
  mask_profanity: z.boolean().default(true),
  chat_overlay: ChatOverlayStyle.default("off"),
  reel_chat_overlay: z.boolean().default(false),
});
export type NormalizedParameters = z.infer<typeof NormalizedParameters>;

export const NormalizedJobRequest = z.object({
  vod_url: z.string(),
  vod_id: z.string(),
  streamer_name: z.string().nullable(),
  game_name: z.string().nullable(),
  streamer_twitch_url: z.string().nullable(),
  streamer_twitter_url: z.string().nullable(),
  streamer_pronouns: z.string(),
  webhook_url: z.string().nullable(),
  vod_length_hours: z.number().nullable(),
  /** As sent, or the sum of the executed profiles' own targets when omitted. 0 only without a reel. */
  final_video_length_minutes: z.number(),
  compilation_enabled: z.boolean(),
  /** After the plan cap; this is what is billed and rendered. */
  num_shorts: z.number().int().min(0).max(10),
  num_shorts_requested: z.number().int().min(0).max(10),
  burn_captions: z.boolean(),
  manual_highlights: z.array(NormalizedManualHighlight),
  model_preset: ModelPreset,
  stream_language: z.string().nullable(),
  metadata_language: z.string().nullable(),
  /** As requested (validated, de-duplicated order kept). */
  run_profiles: z.array(RunProfile).min(1),
  /** The profiles that actually run: all of run_profiles, or only the first when compilation_enabled is false. */
  executed_profiles: z.array(RunProfile).min(1),
  /** Fully resolved tuning for every executed profile. */
  profile_settings: z.partialRecord(RunProfile, ProfileTuning),
  parameters: NormalizedParameters,
});
export type NormalizedJobRequest = z.infer<typeof NormalizedJobRequest>;
