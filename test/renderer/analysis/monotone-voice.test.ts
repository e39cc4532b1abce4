import { describe, expect, it } from "vitest";
import { streamerEventLevel } from "../../../render-container/src/selection/evidence";
import { computeSecondScores } from "../../../render-container/src/selection/second-scores";
import { PROFILE_DEFAULTS } from "../../../worker/src/domain/profile-defaults";
import { MONOTONE_VOICE as C, MONOTONE_VOICE_SPEC } from "./monotone-voice-fixture";
import { maxFrom, useAnalysedTalkClip } from "./talk-clip-fixture";

const t = useAnalysedTalkClip(MONOTONE_VOICE_SPEC);

describe("a monotone voice: one pitch for every vowel is not an instrument", () => {
  it("makes its shouts the streamer's events, and neither calm talk through gunfire nor through an alarm", () => {
    const s = computeSecondScores(t.audio, null, PROFILE_DEFAULTS.streamer, C.duration).streamer;
    const level = streamerEventLevel(s);
    // Measured (flite kal on one pitch): shouts 0.74-0.91 against a level of 0.30, the gunfire and the alarm 0.
    // Without the spectral check the pitch rules took the voice's windows for an instrument: three of the four
    // shouts 0.00-0.19. (On slt the gunfire then scored up to 0.73 and the alarm 0.57 as well.)
    for (const x of t.clip.shouts) expect(maxFrom(s, x.start, x.end)).toBeGreaterThanOrEqual(level);
    // The sounds are loud where the talk goes on (else the calm talk under them would test nothing).
    for (const at of [...C.calmUnderGunfire, ...C.calmUnderAlarm]) {
      expect(maxFrom(t.audio.loudnessAboveBaselineDb, at, at + 3)).toBeGreaterThan(6);
      expect(maxFrom(s, at, at + 4)).toBeLessThan(level - 0.2);
    }
  });

  it("keeps the alarm's beeps out of the voice's rise while the voice's own windows stay in", () => {
    for (const at of C.calmUnderAlarm) expect(maxFrom(t.audio.voiceRiseDb!, at, at + 3)).toBeLessThan(6);
    for (const x of t.clip.shouts) expect(maxFrom(t.audio.voiceRiseDb!, x.start, x.end)).toBeGreaterThan(8);
  });
});
