import { FRAME_COLORS, type FrameColor, type NormalizedParameters } from "../../../common/contract";
import type { ParametersInput } from "../../../common/contract/job-request";

export const PARAMETER_DEFAULTS: NormalizedParameters = {
  min_highlight_duration: 20,
  max_highlight_duration: 60,
  cold_open_enabled: false,
  cold_open_max_clips: 3,
  cold_open_snippet_duration: 3,
  reel_title_card_enabled: false,
  shorts_title_card_enabled: true,
  shorts_crop_mode: "crop",
  shorts_split_ratio: 0.5,
  shorts_facecam_frame_enabled: false,
  shorts_facecam_frame_color: "white",
  caption_style: "plain",
  mask_profanity: true,
  chat_overlay: "off",
  reel_chat_overlay: false,
};

/** Highest value of either highlight duration. */
export const HIGHLIGHT_DURATION_CEILING = 180;

const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));

/** Defaults and the silent clamps of `parameters` (docs/API.md; the schema has already rejected wrong types). */
export function normaliseParameters(input: ParametersInput | null | undefined): NormalizedParameters {
  const p = input ?? {};
  const d = PARAMETER_DEFAULTS;
  const min = Math.min(p.min_highlight_duration ?? d.min_highlight_duration, HIGHLIGHT_DURATION_CEILING);
  const max = clamp(p.max_highlight_duration ?? d.max_highlight_duration, min, HIGHLIGHT_DURATION_CEILING);
  const color = p.shorts_facecam_frame_color?.trim().toLowerCase();
  return {
    min_highlight_duration: min,
    max_highlight_duration: max,
    cold_open_enabled: p.cold_open_enabled ?? d.cold_open_enabled,
    cold_open_max_clips: clamp(p.cold_open_max_clips ?? d.cold_open_max_clips, 2, 6),
    cold_open_snippet_duration: clamp(p.cold_open_snippet_duration ?? d.cold_open_snippet_duration, 2, 10),
    reel_title_card_enabled: p.reel_title_card_enabled ?? d.reel_title_card_enabled,
    shorts_title_card_enabled: p.shorts_title_card_enabled ?? d.shorts_title_card_enabled,
    shorts_crop_mode: p.shorts_crop_mode ?? d.shorts_crop_mode,
    shorts_split_ratio: clamp(p.shorts_split_ratio ?? d.shorts_split_ratio, 0.15, 0.85),
    shorts_facecam_frame_enabled: p.shorts_facecam_frame_enabled ?? d.shorts_facecam_frame_enabled,
    shorts_facecam_frame_color: (FRAME_COLORS as readonly string[]).includes(color ?? "") ? (color as FrameColor) : "white",
    caption_style: p.caption_style ?? d.caption_style,
    mask_profanity: p.mask_profanity ?? d.mask_profanity,
    chat_overlay: p.chat_overlay ?? d.chat_overlay,
    reel_chat_overlay: p.reel_chat_overlay ?? d.reel_chat_overlay,
  };
}
