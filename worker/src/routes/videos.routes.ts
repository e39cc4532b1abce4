import { z } from "zod";
import { VideoMetadata, VodUrlInput } from "../../../common/contract";
import { declareRoute } from "../openapi/declare-route";

/** GET /videos/metadata as the document shows it (mounted at /videos; handler in videos.ts). */
export const getVideoMetadata = declareRoute({
  method: "get",
  path: "/metadata",
  operationId: "getVideoMetadata",
  tag: "videos",
  summary: "Probe a VOD before spending credits",
  description:
    "Title, duration, channel and whether the VOD can be processed. An unusable VOD (private, subscriber-only, " +
    "deleted, still live) is a normal 200 with `usable: false` and `reason`. No credits are spent.",
  auth: "apiKey",
  query: z.object({ vod_url: VodUrlInput }),
  success: { status: 200, description: "What Twitch says about the VOD.", schema: VideoMetadata },
  errors: ["twitch_unavailable"],
  errorExamples: {
    validation_failed: {
      code: "validation_failed",
      message: "Invalid request: vod_url is not a Twitch URL; only Twitch VODs are accepted, such as https://www.twitch.tv/videos/123456789.",
      detail: [{ field: "vod_url", message: "is not a Twitch URL; only Twitch VODs are accepted, such as https://www.twitch.tv/videos/123456789" }],
    },
  },
});
