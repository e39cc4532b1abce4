import { describe, expect, it } from "vitest";
import type { NormalizedManualHighlight } from "../../../common/contract/normalized-request";
import type { MomentSignals } from "../../../common/contract/render";
import { pickShorts } from "../../../render-container/src/selection/pick-shorts";
import type { Moment } from "../../../render-container/src/selection/types";

const sig = (score: number, source: "auto" | "manual" = "auto"): MomentSignals => ({
  score,
  audience_score: score,
  streamer_score: score,
  audio_hype: score,
  chat_rate_ratio: 3,
  unique_chatters: 10,
  hype_density: 0.3,
  speech_activity: 0.5,
  loudness_db_above_baseline: 10,
  source,
  reasons: ["test"],
});

function auto(start: number, end: number, score: number, profile: Moment["profile"] = "balanced", peak = (start + end) / 2): Moment {
  return { start, end, peak, score, profile, source: "auto", label: null, signals: sig(score) };
}

const manualRange: NormalizedManualHighlight = { start_seconds: 500, end_seconds: 560, label: "the clutch", run_profiles: ["balanced"] };
const manualMoment: Moment = { start: 500, end: 560, peak: 530, score: 0.4, profile: "balanced", source: "manual", label: "the clutch", signals: sig(0.4, "manual") };

describe("pickShorts", () => {
  it("makes every manual highlight a short, first, with the signals its reel moment carries", () => {
    const shorts = pickShorts({ balanced: [auto(100, 140, 0.9), manualMoment] }, 1, [manualRange]);
    expect(shorts).toHaveLength(1);
    expect(shorts[0]).toEqual(manualMoment);
  });

  it("keeps manual highlights even when num_shorts is smaller, and builds one when no reel moment exists", () => {
    const second: NormalizedManualHighlight = { start_seconds: 700, end_seconds: 730, label: null, run_profiles: ["audience"] };
    const shorts = pickShorts({ balanced: [manualMoment] }, 0, [manualRange, second]);
    expect(shorts.map((s) => [s.start, s.end, s.source])).toEqual([
      [500, 560, "manual"],
      [700, 730, "manual"],
    ]);
    expect(shorts[1]!.signals.reasons).toContain("manual highlight");
  });

  it("gives two manual entries on the same range (no shared profile) each its own reel moment", () => {
    const forAudience: NormalizedManualHighlight = { ...manualRange, label: "chat's pick", run_profiles: ["audience"] };
    const audienceCopy: Moment = { ...manualMoment, profile: "audience", label: "chat's pick", signals: sig(0.7, "manual") };
    const shorts = pickShorts({ balanced: [manualMoment], audience: [audienceCopy] }, 2, [manualRange, forAudience]);
    expect(shorts).toEqual([manualMoment, audienceCopy]);
  });

  it("cuts a manual range to the VOD's real length and drops one that starts past its end", () => {
    // vod_length_hours overstated the VOD: it is 540 s long.
    const beyond: NormalizedManualHighlight = { start_seconds: 560, end_seconds: 600, label: null, run_profiles: ["balanced"] };
    const cut: Moment = { ...manualMoment, end: 540 };
    const shorts = pickShorts({ balanced: [cut] }, 3, [manualRange, beyond], { durationSeconds: 540 });
    expect(shorts.map((s) => [s.start, s.end, s.source])).toEqual([[500, 540, "manual"]]);
    expect(shorts[0]).toBe(cut);
  });

  it("fills the remaining slots with the best automatic moments across profiles, ranked by score", () => {
    const shorts = pickShorts(
      {
        balanced: [auto(100, 140, 0.6), auto(300, 340, 0.9)],
        audience: [auto(800, 840, 0.95, "audience")],
        streamer: [auto(1000, 1040, 0.5, "streamer")],
      },
      4,
      [manualRange],
    );
    expect(shorts.map((s) => s.start)).toEqual([500, 800, 300, 100]);
  });

  it("does not repeat footage: the same moment chosen by two profiles becomes one short", () => {
    const shorts = pickShorts({ balanced: [auto(100, 140, 0.9)], audience: [auto(105, 150, 0.8, "audience")], streamer: [auto(400, 430, 0.5, "streamer")] }, 3, []);
    expect(shorts.map((s) => s.start)).toEqual([100, 400]);
  });

  it("tightens a long reel moment to a 60 s window around its peak, its why restated for the short's ends", () => {
    const long = auto(100, 190, 0.9, "balanced", 170);
    long.signals.reasons = ["voice +10 dB", "starts 70.0 s before the peak: a scene cut", "ends 20.0 s after the peak: the reaction has died down"];
    const [s] = pickShorts({ balanced: [long] }, 1, []);
    expect(s!.end - s!.start).toBe(60);
    expect(s!.start).toBeLessThanOrEqual(170);
    expect(s!.end).toBeGreaterThanOrEqual(170);
    expect(s!.start).toBeGreaterThanOrEqual(100);
    expect(s!.end).toBeLessThanOrEqual(190);
    expect([s!.start, s!.end]).toEqual([130, 190]);
    expect(s!.signals.reasons).toEqual(["voice +10 dB", "starts 40.0 s before the peak: a scene cut, then moved 30.0 s later to fit a short (at most 60 s)", "ends 20.0 s after the peak: the reaction has died down"]);
    // The reel keeps its moment as it was.
    expect(long.signals.reasons[1]).toBe("starts 70.0 s before the peak: a scene cut");
  });

  it("widens a moment shorter than 15 s, staying inside the VOD", () => {
    const [s] = pickShorts({ balanced: [auto(590, 598, 0.9)] }, 1, [], { durationSeconds: 600 });
    expect(s!.end - s!.start).toBe(15);
    expect(s!.end).toBeLessThanOrEqual(600);
  });

  it("returns fewer shorts when there are not enough moments", () => {
    expect(pickShorts({ balanced: [auto(100, 140, 0.9)] }, 5, [])).toHaveLength(1);
    expect(pickShorts({}, 3, [])).toEqual([]);
  });
});
