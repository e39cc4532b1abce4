import type { StoredResult } from "../../worker/src/artifacts/results";

/** A finished render as the renderer reports it: one reel, one short and its captions. */
export const storedResult: StoredResult = {
  manifest: {
    summary: { total_videos: 1, generated_video_duration_seconds: 60, total_shorts: 1, source_vod_duration_seconds: 3600 },
    highlights: [{ story: "clutch", start: 100, end: 160, duration: 60, run_name: "balanced" }],
    shorts_count: 1,
    artifacts: {
      assets: {
        compilation: [{ name: "reel-balanced.mp4", run_name: "balanced" }],
        shorts: [{ name: "short-01.mp4", index: 1 }],
        thumbnails: [],
        captions: [{ name: "short-01.srt", index: 1 }],
        metadata: [],
        timelines: [],
        edls: [],
        transcripts: [],
      },
    },
    warnings: [],
  },
  artifacts: [
    { name: "reel-balanced.mp4", kind: "reel", content_type: "video/mp4", size_bytes: 11, run_name: "balanced", index: null, title: "Best of", duration_seconds: 60, tags: null },
    { name: "short-01.mp4", kind: "short", content_type: "video/mp4", size_bytes: 5, run_name: null, index: 1, title: "Clutch", duration_seconds: 30, tags: ["celeste"] },
    { name: "short-01.srt", kind: "captions", content_type: "application/x-subrip", size_bytes: 30, run_name: null, index: 1, title: null, duration_seconds: null, tags: null },
  ],
};
