import type { MomentSignals } from "../../../common/contract/render";
import type { MetadataInput } from "../../../render-container/src/metadata/types";

export function signals(over: Partial<MomentSignals> = {}): MomentSignals {
  return {
    score: 0.8,
    audience_score: 0.7,
    streamer_score: 0.6,
    audio_hype: 0.5,
    chat_rate_ratio: 1,
    unique_chatters: 40,
    hype_density: 0.3,
    speech_activity: 0.6,
    loudness_db_above_baseline: 2,
    source: "auto",
    reasons: [],
    ...over,
  };
}

/** A job with three moments: a chat explosion, a loud rant, a hand-picked range; one reel, two shorts. */
export function sampleInput(over: Partial<MetadataInput> = {}): MetadataInput {
  return {
    language: "en",
    streamer: { name: "NovaPlays", pronouns: "she/her", twitch_url: "https://www.twitch.tv/novaplays", twitter_url: "https://x.com/novaplays" },
    game: "Elden Ring",
    vod_title: "Malenia or bust",
    moments: [
      {
        id: "m1", start: 120, end: 160, profile: "balanced",
        transcript: "oh my god the dragon the dragon is down we actually killed the dragon with one hit",
        top_chat_messages: ["POGGERS", "no way", "dragon down"], top_emotes: ["PogChamp", "KEKW"],
        signals: signals({ chat_rate_ratio: 8.04, loudness_db_above_baseline: 9 }), label: null,
      },
      {
        id: "m2", start: 400, end: 440, profile: "balanced",
        transcript: "this boss is so unfair the boss keeps spamming that attack and the camera is broken",
        top_chat_messages: ["skill issue"], top_emotes: [],
        signals: signals({ chat_rate_ratio: 1.1, loudness_db_above_baseline: 12.4 }), label: null,
      },
      {
        id: "m3", start: 900, end: 960, profile: "balanced",
        transcript: null, top_chat_messages: [], top_emotes: [],
        signals: signals({ source: "manual", chat_rate_ratio: null }), label: "The secret ending",
      },
    ],
    reels: [{ run_name: "balanced", moment_ids: ["m1", "m2", "m3"] }],
    shorts: [
      { index: 1, moment_id: "m1" },
      { index: 2, moment_id: "m2" },
    ],
    ...over,
  };
}
