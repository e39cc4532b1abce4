import { describe, expect, it } from "vitest";
import { LOUDNESS_RANGE, loudnessScale } from "../../../render-container/src/analysis/loudness-range";
import { streamerEventLevel } from "../../../render-container/src/selection/evidence";
import { computeSecondScores } from "../../../render-container/src/selection/second-scores";
import { PROFILE_DEFAULTS } from "../../../worker/src/domain/profile-defaults";
import { COMPRESSED_MIX as C, COMPRESSED_MIX_SPEC } from "./compressed-mix-fixture";
import { maxFrom, useAnalysedTalkClip } from "./talk-clip-fixture";

describe("the stream's loudness range", () => {
  const calm = (n: number) => Array.from({ length: n }, (_, i) => (i % 5) / 2);
  const withRise = (xs: number[], at: number, seconds: number, db: number) => xs.map((v, i) => (i >= at && i < at + seconds ? db : v));

  it("keeps an open mix's thresholds, even where its one big moment is a tiny share of a long VOD", () => {
    expect(loudnessScale(withRise(calm(1000), 500, 3, 12))).toBe(1);
    // Six hours of calm talk and one 5-second shout: 0.02 % of the seconds.
    expect(loudnessScale(withRise(calm(21_600), 9000, 5, 14))).toBe(1);
  });

  it("shrinks them in proportion where nothing rises far, never below the floor", () => {
    expect(loudnessScale(withRise(calm(1000), 500, 3, 6))).toBeCloseTo(6 / LOUDNESS_RANGE.openDb, 6);
    // One loud second is not a loud stretch: the range is the loudest 3 s.
    expect(loudnessScale(withRise(calm(1000), 500, 1, 15))).toBeLessThan(0.7);
    expect(loudnessScale(new Array<number>(1000).fill(0))).toBe(LOUDNESS_RANGE.minScale);
    expect(loudnessScale([])).toBe(1);
  });
});

const t = useAnalysedTalkClip(COMPRESSED_MIX_SPEC);

describe("a stream mixed through a broadcast compressor", () => {
  it("hears the shouts the compressor squeezed and makes them the streamer's events, and no calm talk", () => {
    // The premise: the shouts end a few dB over the talk, under the +4 dB an open mix's thresholds start at.
    for (const x of t.clip.shouts) expect(maxFrom(t.audio.loudnessAboveBaselineDb, x.start, x.end)).toBeLessThan(4);
    const s = computeSecondScores(t.audio, null, PROFILE_DEFAULTS.streamer, C.duration).streamer;
    const level = streamerEventLevel(s);
    // Measured (scale 0.5): four of the five shouts 0.45-0.91 against a level of 0.31 ("WE DID IT!", whose voice
    // rose 4 dB, 0.16). With an open mix's thresholds the model listened to none of them and none was an event.
    const events = t.clip.shouts.filter((x) => maxFrom(s, x.start, x.end) >= level);
    expect(events.length).toBeGreaterThanOrEqual(4);
    const near = (i: number) => t.clip.shouts.some((x) => i >= x.start - 2 && i <= x.end + 2);
    expect(Math.max(...s.filter((_, i) => !near(i)))).toBeLessThan(level - 0.2);
  });
});
