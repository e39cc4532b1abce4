/**
 * Example request bodies shown in the reference. The OpenAPI tests post every one of them to the real Worker and
 * expect it to be accepted, so they stay valid as the rules change (the tests' Twitch server has a VOD with the
 * example id). They give `vod_length_hours`, which is what a job is billed for unless the probe finds it longer.
 */
type Examples = Record<string, { summary: string; value: unknown }>;

const vod = "https://www.twitch.tv/videos/2345678901";

const job: Examples = {
  minimal: {
    summary: "Smallest job: one balanced reel of the default length",
    value: { vod_url: vod, vod_length_hours: 2 },
  },
  full: {
    summary: "Two reels, shorts with split framing, a manual highlight, overrides and a webhook",
    value: {
      vod_url: vod,
      vod_length_hours: 3.5,
      streamer_name: "SynthRunner",
      game_name: "Celeste",
      streamer_twitch_url: "https://www.twitch.tv/synthrunner",
      streamer_pronouns: "she",
      webhook_url: "https://example.com/hooks/highlights",
      final_video_length_minutes: 12,
      num_shorts: 4,
      burn_captions: true,
      model_preset: "studio_polish",
      stream_language: "en",
      metadata_language: "de",
      run_profiles: ["balanced", "audience"],
      run_overrides: { audience: { audience_weight: 0.9, highlight_min_score: 0.4 } },
      manual_highlights: [{ start_seconds: 3600, end_seconds: 3660, label: "The golden berry", run_profiles: ["balanced"] }],
      parameters: {
        max_highlight_duration: 45,
        cold_open_enabled: true,
        cold_open_max_clips: 4,
        shorts_crop_mode: "split",
        shorts_split_ratio: 0.4,
        shorts_facecam_frame_enabled: true,
        shorts_facecam_frame_color: "violet",
      },
    },
  },
  shortsOnly: {
    summary: "Shorts only: no reel, three shorts chosen by the streamer profile",
    value: {
      vod_url: vod,
      vod_length_hours: 1.25,
      compilation_enabled: false,
      final_video_length_minutes: 0,
      num_shorts: 3,
      run_profiles: ["streamer"],
      parameters: { shorts_crop_mode: "fit" },
    },
  },
};

const feedback: Examples = {
  positive: { summary: "Thumbs up", value: { positive: true } },
  negative: { summary: "Thumbs down with a reason", value: { positive: false, reason: "timing_off" } },
  other: {
    summary: "Thumbs down, reason other (notes required)",
    value: { positive: false, reason: "other", notes: "The reel cut off the punchline of the second clip." },
  },
};

const createAccount: Examples = {
  paying: { summary: "A Pro account with purchased opening credits", value: { name: "Acme Clips", plan: "pro", credits: 1000, purchase: true } },
  trial: { summary: "A free account with no credits yet", value: { name: "Trial user" } },
};

const updateAccount: Examples = { upgrade: { summary: "Move to Starter", value: { plan: "starter" } } };

const credits: Examples = {
  purchase: { summary: "A purchase of 500 credits", value: { amount: 500, reason: "order 42", purchase: true } },
  adjustment: { summary: "A manual correction", value: { amount: -20, reason: "duplicate test job" } },
};

export const EXAMPLE_BODIES = { job, feedback, createAccount, updateAccount, credits };
