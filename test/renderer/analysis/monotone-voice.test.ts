import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AudioAnalysis } from "../../../render-container/src/analysis/types";
import { streamerEventLevel } from "../../../render-container/src/selection/evidence";
import { computeSecondScores } from "../../../render-container/src/selection/second-scores";
import { PROFILE_DEFAULTS } from "../../../worker/src/domain/profile-defaults";
import { analysedMonotoneVoice, MONOTONE_VOICE as C } from "./monotone-voice-fixture";
import type { TalkClip } from "./talk-clip-fixture";

let clip: TalkClip;
let audio: AudioAnalysis;
let dispose: () => Promise<void> = async () => {};

beforeAll(async () => {
  ({ clip, audio, dispose } = await analysedMonotoneVoice());
}, 180_000);

afterAll(() => dispose());

const maxFrom = (xs: readonly number[], from: number, to: number) => Math.max(...xs.slice(Math.floor(from), Math.ceil(to)));

describe("a monotone voice: one pitch for every vowel is not an instrument", () => {
  it("makes its shouts the streamer's events, and neither calm talk through gunfire nor through an alarm", () => {
    const s = computeSecondScores(audio, null, PROFILE_DEFAULTS.streamer, C.duration).streamer;
    const level = streamerEventLevel(s);
    // Measured: shouts 0.33-0.97 against a level of 0.30 (the first, "WHAT?", only 4 dB over the baseline), the
    // gunfire and the alarm 0. Without the spectral check the voice lost its windows to the pitch rules: two
    // shouts 0.01 and 0.10, the gunfire up to 0.73 and the alarm 0.57 against a level of 0.43.
    for (const x of clip.shouts) expect(maxFrom(s, x.start, x.end)).toBeGreaterThanOrEqual(level);
    // The sounds are loud where the talk goes on (else the calm talk under them would test nothing).
    for (const at of [...C.calmUnderGunfire, ...C.calmUnderAlarm]) {
      expect(maxFrom(audio.loudnessAboveBaselineDb, at, at + 3)).toBeGreaterThan(6);
      expect(maxFrom(s, at, at + 4)).toBeLessThan(level - 0.2);
    }
  });

  it("keeps the alarm's beeps out of the voice's rise while the voice's own windows stay in", () => {
    for (const at of C.calmUnderAlarm) expect(maxFrom(audio.voiceRiseDb!, at, at + 3)).toBeLessThan(6);
    for (const x of clip.shouts) expect(maxFrom(audio.voiceRiseDb!, x.start, x.end)).toBeGreaterThan(8);
  });
});
