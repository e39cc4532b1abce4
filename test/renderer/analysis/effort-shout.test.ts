import { describe, expect, it } from "vitest";
import { NO_VOICE_RISE } from "../../../render-container/src/analysis/voice-activity/measure-voice";
import { streamerEventLevel } from "../../../render-container/src/selection/evidence";
import { computeSecondScores, voiceLoudnessDb } from "../../../render-container/src/selection/second-scores";
import { PROFILE_DEFAULTS } from "../../../worker/src/domain/profile-defaults";
import { EFFORT_SHOUT as C, EFFORT_SHOUT_SPEC } from "./effort-shout-fixture";
import { maxFrom, useAnalysedTalkClip } from "./talk-clip-fixture";

const t = useAnalysedTalkClip(EFFORT_SHOUT_SPEC);

describe("the voice's loudness: its own rise where the voice model measured it", () => {
  it("keeps the voice's rise under gunfire, halfway to the voice's rise over a quiet mix, and the loudness where unmeasured", () => {
    const db = voiceLoudnessDb({ loudnessAboveBaselineDb: [12, 6, 6, 9], voiceRiseDb: [2, 14, 6, NO_VOICE_RISE] });
    expect(db).toEqual([2, 10, 6, 9]);
    expect(voiceLoudnessDb({ loudnessAboveBaselineDb: [5, -3] })).toEqual([5, -3]);
  });
});

describe("a shout whose effort shows more in the voice than in the mix's loudness", () => {
  it("rises in the voice's own power far more than in the stream's loudness (what the clip is made to show)", () => {
    for (const shout of t.clip.shouts) {
      const loud = maxFrom(t.audio.loudnessAboveBaselineDb, shout.start, shout.end);
      expect(loud).toBeLessThan(8);
      expect(maxFrom(t.audio.voiceRiseDb!, shout.start, shout.end)).toBeGreaterThan(loud + 4);
    }
  });

  it("makes every such shout the streamer's event, and none of the calm talk, through gunfire or not", () => {
    const s = computeSecondScores(t.audio, null, PROFILE_DEFAULTS.streamer, C.duration).streamer;
    const level = streamerEventLevel(s);
    // Measured: the shouts 0.63-0.92 against a level of 0.46; with the loudness capped by the voice's rise (the
    // rule before), 0.27-0.35 against 0.30, three of four shouts no event.
    for (const shout of t.clip.shouts) expect(maxFrom(s, shout.start, shout.end)).toBeGreaterThanOrEqual(level);
    const near = (i: number) => t.clip.shouts.some((x) => i >= x.start - 2 && i <= x.end + 2);
    const calm = s.filter((_, i) => !near(i));
    // The gunfire is louder than the shouts (else the calm talk under it would test nothing).
    for (const at of C.calmUnderGunfire) expect(maxFrom(t.audio.loudnessAboveBaselineDb, at, at + 3)).toBeGreaterThan(6);
    expect(Math.max(...calm)).toBeLessThan(level - 0.2);
  });
});
