import type { VideoMetadata } from "../../../common/contract";
import { TwitchUnavailableError } from "../../../common/twitch/errors";
import type { VodProbe } from "../../../common/twitch/probe";
import { parseVodUrl } from "../../../common/twitch/vod-url";
import { ApiError } from "../lib/api-error";
import { ApiRouter } from "../openapi/api-router";
import { lookupVod } from "../twitch/vod-lookup";
import { getVideoMetadata } from "./videos.routes";

export const videosRoutes = new ApiRouter();

export function toVideoMetadata(p: VodProbe): VideoMetadata {
  return {
    vod_id: p.vod_id,
    vod_url: `https://www.twitch.tv/videos/${p.vod_id}`,
    title: p.title,
    duration_seconds: p.duration_seconds,
    streamer_name: p.streamer_name,
    game_name: p.game_name,
    created_at: p.created_at,
    usable: p.usable,
    reason: p.reason,
  };
}

/** Probe a VOD before spending credits. An unusable VOD is a normal 200 answer with `usable: false` and why. */
videosRoutes.openapi(getVideoMetadata, async (c) => {
  const target = parseVodUrl(c.req.valid("query").vod_url)!;
  try {
    return c.json(toVideoMetadata(await lookupVod(c.env, target.vod_id)), 200);
  } catch (error) {
    if (!(error instanceof TwitchUnavailableError)) throw error;
    throw new ApiError(503, "twitch_unavailable", `Twitch could not be reached to check the VOD (${error.message}). Retry shortly.`, {}, {
      "Retry-After": "30",
    });
  }
});
