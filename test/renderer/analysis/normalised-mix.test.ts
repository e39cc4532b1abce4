import { describe, expect, it } from "vitest";
import { PITCH_RISE, usualPitchOf } from "../../../render-container/src/analysis/voice-activity/measure-voice";
import { streamerEventLevel } from "../../../render-container/src/selection/evidence";
import { computeSecondScores, PITCH_EFFORT, pitchEffortDb } from "../../../render-container/src/selection/second-scores";
import { PROFILE_DEFAULTS } from "../../../worker/src/domain/profile-defaults";
import { COMPRESSED_MIX as C, NORMALISED_MIX_SPEC } from "./compressed-mix-fixture";
import { maxFrom, useAnalysedTalkClip } from "./talk-clip-fixture";

describe("the voice's pitch over its usual pitch", () => {
  it("adds nothing for the couple of semitones talk moves by, then a dB a semitone up to a cap", () => {
    expect(pitchEffortDb(undefined)).toBe(0);
    expect(pitchEffortDb(-99)).toBe(0);
    expect(pitchEffortDb(-5)).toBe(0);
    expect(pitchEffortDb(PITCH_EFFORT.freeSemitones)).toBe(0);
    expect(pitchEffortDb(PITCH_EFFORT.freeSemitones + 3)).toBeCloseTo(3 * PITCH_EFFORT.dbPerSemitone, 9);
    expect(pitchEffortDb(40)).toBe(PITCH_EFFORT.maxDb);
  });

  it("reads the usual pitch only where one voice leads the ordinary stretches", () => {
    const around = (center: number, n: number) => Array.from({ length: n }, (_, i) => center + ((i % 7) - 3) * 0.4);
    expect(usualPitchOf(around(88, 60))).toBeCloseTo(88, 6);
    // Too few windows to say.
    expect(usualPitchOf(around(88, PITCH_RISE.minUsualWindows - 1))).toBeNull();
    // A streamer and a guest an octave apart, taking turns: no usual pitch, so neither reads as raised.
    expect(usualPitchOf([...around(88, 40), ...around(100, 40)])).toBeNull();
    // A guest now and then leaves the streamer's pitch the usual one.
    expect(usualPitchOf([...around(88, 60), ...around(100, 8)])).toBeCloseTo(88, 0);
  });
});

const t = useAnalysedTalkClip(NORMALISED_MIX_SPEC);

describe("a stream through a loudness normaliser (FFmpeg loudnorm)", () => {
  it("makes the shouts it squeezed the streamer's events by the voice's pitch, and no calm talk", () => {
    // The premise: the normaliser leaves the shouts a few dB over the talk.
    for (const x of t.clip.shouts) expect(maxFrom(t.audio.loudnessAboveBaselineDb, x.start, x.end)).toBeLessThan(6);
    const events = (audio: typeof t.audio) => {
      const s = computeSecondScores(audio, null, PROFILE_DEFAULTS.streamer, C.duration).streamer;
      const level = streamerEventLevel(s);
      const near = (i: number) => t.clip.shouts.some((x) => i >= x.start - 2 && i <= x.end + 2);
      return { found: t.clip.shouts.filter((x) => maxFrom(s, x.start, x.end) >= level).length, elsewhere: Math.max(...s.filter((_, i) => !near(i))) - level };
    };
    const withPitch = events(t.audio);
    expect(withPitch.found).toBeGreaterThanOrEqual(4);
    // Nothing else near the event level: the highest elsewhere is the mix's first second (0.14 against 0.30), where
    // the normaliser has not yet settled its gain.
    expect(withPitch.elsewhere).toBeLessThan(-0.1);
    // Measured: 4 of 5 (0.64-0.88 against a level of 0.30; the fifth climbs over an octave and loses those windows).
    // The same analysis without the pitch: 2 of 5.
    expect(events({ ...t.audio, voicePitchRise: undefined }).found).toBeLessThan(withPitch.found);
  });
});
