/** The selection stage of a job: every executed profile's moments, the shorts, and what the client is warned of. */
import { describe, expect, it } from "vitest";
import type { NormalizedManualHighlight, ProfileTuning } from "../../../common/contract/normalized-request";
import { silentLogger } from "../../../render-container/src/log";
import { JobProgress } from "../../../render-container/src/pipeline/progress";
import { chooseMoments } from "../../../render-container/src/pipeline/stages/choose-moments";
import type { Moment } from "../../../render-container/src/selection/types";
import { normalizedRequest } from "../pipeline/plan-fixtures";
import { audio } from "./signals";

const N = 900;
const progress = () => new JobProgress({ progress() {} });
const dur = (m: { start: number; end: number }) => m.end - m.start;
const total = (ms: readonly Moment[] = []) => ms.reduce((s, m) => s + dur(m), 0);
const overlap = (a: Moment, b: Moment) => Math.min(a.end, b.end) - Math.max(a.start, b.start) > 0;
// Eight shouts of decreasing strength, 100 s apart; chat is missing (scored on audio).
const loud = audio(N, { loud: Array.from({ length: 8 }, (_, i) => ({ at: 60 + i * 100, db: 20 - i })) });
const tuning = (t: Partial<ProfileTuning> = {}): ProfileTuning => ({
  target_duration_seconds: 120, audience_weight: 0.2, streamer_weight: 0.8, similarity_threshold: 0.5, highlight_min_score: 0.35, bucket_size_seconds: 5, ...t,
});
const manual = (start: number, end: number, run_profiles: NormalizedManualHighlight["run_profiles"], label: string | null = null): NormalizedManualHighlight => ({
  start_seconds: start, end_seconds: end, label, run_profiles,
});

function choose(req: Parameters<typeof normalizedRequest>[0], a = loud, duration = N) {
  return chooseMoments({ job: { request: normalizedRequest(req) }, ctx: { log: silentLogger }, progress: progress() }, { audio: a, comments: [], durationSeconds: duration });
}

describe("chooseMoments: edge cases a client can ask for", () => {
  it("honours a highlight_min_score nothing beats: that profile has no reel, and a warning says why and what to change", () => {
    const c = choose({
      run_profiles: ["balanced", "streamer"], executed_profiles: ["balanced", "streamer"],
      profile_settings: { balanced: tuning({ highlight_min_score: 1 }), streamer: tuning() },
    });
    expect(c.momentsByProfile.balanced).toEqual([]);
    expect(c.momentsByProfile.streamer!.length).toBeGreaterThan(0);
    expect(c.warnings).toHaveLength(1);
    expect(c.warnings![0]).toMatch(/highlight_min_score 1 for the balanced profile \(the best scored 1\.00\), so it has no reel; lower highlight_min_score in run_overrides\.balanced/);
  });

  it("says a reel came out short because the VOD is shorter than the target", () => {
    const c = choose({ profile_settings: { balanced: tuning({ target_duration_seconds: 300 }) } }, audio(90, { loud: [{ at: 40 }] }), 90);
    const ms = c.momentsByProfile.balanced!;
    expect(ms).toHaveLength(1);
    expect(ms[0]!.end).toBeLessThanOrEqual(90);
    expect(c.warnings).toEqual([`The balanced reel runs ${Math.round(total(ms))} s of its 300 s target: the VOD is only 90 s long.`]);
  });

  it("takes at most one automatic moment per bucket: bucket_size_seconds 3600 on a 15-minute VOD gives one, and says so", () => {
    const c = choose({ profile_settings: { balanced: tuning({ bucket_size_seconds: 3600, target_duration_seconds: 300 }) } });
    const ms = c.momentsByProfile.balanced!;
    expect(ms).toHaveLength(1);
    // The bucket's best second: the loudest shout.
    expect(ms[0]!.start <= 61 && 61 < ms[0]!.end).toBe(true);
    expect(c.warnings![0]).toMatch(/bucket_size_seconds 3600 allows at most 1 automatic moment\(s\) in this 900 s VOD/);
  });

  it("warns of nothing when the reel reaches its target (within one clip)", () => {
    const c = choose({ profile_settings: { balanced: tuning({ target_duration_seconds: 150 }) } });
    expect(total(c.momentsByProfile.balanced)).toBeGreaterThanOrEqual(150 - 60);
    expect(c.warnings).toEqual([]);
  });

  it("keeps only the manual highlights when they cover the whole target, without a warning", () => {
    const c = choose({ profile_settings: { balanced: tuning({ target_duration_seconds: 120 }) }, manual_highlights: [manual(300, 360, ["balanced"]), manual(500, 560, ["balanced"])] });
    expect(c.momentsByProfile.balanced!.map((m) => [m.start, m.end, m.source])).toEqual([
      [300, 360, "manual"],
      [500, 560, "manual"],
    ]);
    expect(c.warnings).toEqual([]);
  });

  it("gives overlapping manual ranges of disjoint profiles each to its own reel, and both become shorts", () => {
    const forBalanced = manual(150, 210, ["balanced"], "the climb");
    const forStreamer = manual(180, 240, ["streamer"], "the rage");
    const c = choose({
      run_profiles: ["balanced", "streamer"], executed_profiles: ["balanced", "streamer"], num_shorts: 3,
      profile_settings: { balanced: tuning({ target_duration_seconds: 200 }), streamer: tuning({ target_duration_seconds: 200 }) },
      manual_highlights: [forBalanced, forStreamer],
    });
    for (const [profile, own, other] of [["balanced", forBalanced, forStreamer], ["streamer", forStreamer, forBalanced]] as const) {
      const ms = c.momentsByProfile[profile]!;
      const man = ms.filter((m) => m.source === "manual");
      expect(man.map((m) => [m.start, m.end, m.label])).toEqual([[own.start_seconds, own.end_seconds, own.label]]);
      expect(ms.some((m) => m.start === other.start_seconds && m.end === other.end_seconds)).toBe(false);
      // Automatic moments make room for this profile's manual range; each reel's seconds never repeat.
      for (let i = 0; i < ms.length; i++) for (let j = i + 1; j < ms.length; j++) expect(overlap(ms[i]!, ms[j]!)).toBe(false);
      // The manual seconds were deducted from this profile's target: the automatic ones fill the rest.
      expect(Math.abs(total(ms.filter((m) => m.source === "auto")) - (200 - 60))).toBeLessThanOrEqual(15);
    }
    expect(c.shorts.slice(0, 2).map((s) => [s.start, s.end, s.label])).toEqual([
      [150, 210, "the climb"],
      [180, 240, "the rage"],
    ]);
    expect(c.shorts).toHaveLength(3);
  });

  it("cuts a manual range at the VOD's real end and says so", () => {
    const c = choose({ num_shorts: 1, manual_highlights: [manual(870, 930, ["balanced"], "the ending")] });
    const m = c.momentsByProfile.balanced!.find((x) => x.source === "manual")!;
    expect([m.start, m.end]).toEqual([870, 900]);
    expect([c.shorts[0]!.start, c.shorts[0]!.end]).toEqual([870, 900]);
    expect(c.warnings).toContain("manual_highlights[0] (870-930 s) runs past the VOD's end (900 s) and was cut there.");
  });

  it("in a shorts-only job warns only about shorts, when fewer than num_shorts could be made", () => {
    const c = choose(
      { compilation_enabled: false, num_shorts: 3, final_video_length_minutes: 0, profile_settings: { balanced: tuning({ target_duration_seconds: 300 }) } },
      audio(N, { loud: [{ at: 300 }] }),
    );
    expect(c.shorts).toHaveLength(1);
    expect(c.warnings).toEqual(["1 of the 3 shorts asked for were made: the VOD had no more distinct moments above highlight_min_score."]);
  });
});
