import path from "node:path";
import { synthCacheRoot, type SyntheticVodOptions } from "../../dev/synth-vod";

/** Generated once and cached across runs and test files (same options = same folder). */
export const FIXTURE_ROOT = path.join(synthCacheRoot(), "test-vods");

/** 95 s, small picture, one of each planted moment kind, segment 5 muted. */
export const SMALL_VOD: SyntheticVodOptions = {
  root: FIXTURE_ROOT,
  vodId: "710000001",
  durationSeconds: 95,
  width: 320,
  height: 180,
  seed: 7,
  moments: [
    { kind: "hype", peak: 30 },
    { kind: "loud_only", peak: 62 },
    { kind: "chat_only", peak: 78 },
  ],
  mutedSegments: [5],
};

/** 90 s, small picture, one hype moment at 50 s: enough for one real short (renderer service and CLI tests). */
export const ONE_MOMENT_VOD: SyntheticVodOptions = {
  root: FIXTURE_ROOT,
  vodId: "900000331",
  durationSeconds: 90,
  width: 320,
  height: 180,
  seed: 5,
  moments: [{ kind: "hype", peak: 50 }],
};
