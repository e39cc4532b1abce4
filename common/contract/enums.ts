import { z } from "zod";

/** Values fixed by the public API (docs/API.md): clients rely on them, so they change only with the API. */
export const RUN_PROFILES = ["balanced", "audience", "streamer"] as const;
export const RunProfile = z.enum(RUN_PROFILES);
export type RunProfile = z.infer<typeof RunProfile>;

export const MODEL_PRESETS = [
  "rapid_sprint",
  "stable_tempo",
  "creator_focus",
  "auto_balance",
  "studio_polish",
  "director_finish",
] as const;
export const ModelPreset = z.enum(MODEL_PRESETS);
export type ModelPreset = z.infer<typeof ModelPreset>;

export const JOB_STATUSES = ["pending", "running", "completed", "failed"] as const;
export const JobStatus = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatus>;

export const CROP_MODES = ["crop", "fit", "split"] as const;
export const CropMode = z.enum(CROP_MODES);
export type CropMode = z.infer<typeof CropMode>;

export const FRAME_COLORS = ["white", "black", "violet"] as const;
export const FrameColor = z.enum(FRAME_COLORS);
export type FrameColor = z.infer<typeof FrameColor>;

/** How burned captions look: plain white words, or the word being said highlighted as it is spoken. */
export const CAPTION_STYLES = ["plain", "word_highlight"] as const;
export const CaptionStyle = z.enum(CAPTION_STYLES);
export type CaptionStyle = z.infer<typeof CaptionStyle>;

/**
 * Chat replay drawn into shorts (and reels): off; `panel`, a translucent chat box (names in their Twitch colour,
 * newest line at the bottom); `bubbles`, each message on its own rounded card, the way vertical-video apps show
 * live comments.
 */
export const CHAT_OVERLAY_STYLES = ["off", "panel", "bubbles"] as const;
export const ChatOverlayStyle = z.enum(CHAT_OVERLAY_STYLES);
export type ChatOverlayStyle = z.infer<typeof ChatOverlayStyle>;

export const PLANS = ["free", "starter", "pro", "studio"] as const;
export const Plan = z.enum(PLANS);
export type Plan = z.infer<typeof Plan>;

export const FEEDBACK_REASONS = ["wrong_moments", "timing_off", "needs_editing", "other"] as const;
export const FeedbackReason = z.enum(FEEDBACK_REASONS);

/** Why a VOD cannot be processed (GET /videos/metadata `reason`). */
export const VOD_UNUSABLE_REASONS = ["private", "subscriber_only", "deleted", "live"] as const;
export const VodUnusableReason = z.enum(VOD_UNUSABLE_REASONS);
export type VodUnusableReason = z.infer<typeof VodUnusableReason>;
