import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AudioAnalysis } from "../../../render-container/src/analysis/types";
import { NO_VOICE_RISE } from "../../../render-container/src/analysis/voice-activity/measure-voice";
import { streamerEventLevel } from "../../../render-container/src/selection/evidence";
import { computeSecondScores, voiceLoudnessDb } from "../../../render-container/src/selection/second-scores";
import { PROFILE_DEFAULTS } from "../../../worker/src/domain/profile-defaults";
import { analysedEffortShout, EFFORT_SHOUT as C } from "./effort-shout-fixture";
import type { TalkClip } from "./talk-clip-fixture";

let clip: TalkClip;
let audio: AudioAnalysis;
let dispose: () => Promise<void> = async () => {};

beforeAll(async () => {
  ({ clip, audio, dispose } = await analysedEffortShout());
}, 180_000);

afterAll(() => dispose());

const secondsOf = (r: { start: number; end: number }) => Array.from({ length: Math.ceil(r.end) - Math.floor(r.start) }, (_, k) => Math.floor(r.start) + k);
const maxOver = (xs: readonly number[], seconds: readonly number[]) => Math.max(...seconds.map((i) => xs[i]!));

describe("the voice's loudness: its own rise where the voice model measured it", () => {
  it("keeps the voice's rise under gunfire, halfway to the voice's rise over a quiet mix, and the loudness where unmeasured", () => {
    const db = voiceLoudnessDb({ loudnessAboveBaselineDb: [12, 6, 6, 9], voiceRiseDb: [2, 14, 6, NO_VOICE_RISE] });
    expect(db).toEqual([2, 10, 6, 9]);
    expect(voiceLoudnessDb({ loudnessAboveBaselineDb: [5, -3] })).toEqual([5, -3]);
  });
});

describe("a shout whose effort shows more in the voice than in the mix's loudness", () => {
  it("rises in the voice's own power far more than in the stream's loudness (what the clip is made to show)", () => {
    for (const shout of clip.shouts) {
      const s = secondsOf(shout);
      expect(maxOver(audio.loudnessAboveBaselineDb, s)).toBeLessThan(8);
      expect(maxOver(audio.voiceRiseDb!, s)).toBeGreaterThan(maxOver(audio.loudnessAboveBaselineDb, s) + 4);
    }
  });

  it("makes every such shout the streamer's event, and none of the calm talk, through gunfire or not", () => {
    const s = computeSecondScores(audio, null, PROFILE_DEFAULTS.streamer, C.duration).streamer;
    const level = streamerEventLevel(s);
    // Measured: the shouts 0.63-0.92 against a level of 0.46; with the loudness capped by the voice's rise (the
    // rule before), 0.27-0.35 against 0.30, three of four shouts no event.
    for (const shout of clip.shouts) expect(maxOver(s, secondsOf(shout))).toBeGreaterThanOrEqual(level);
    const near = (i: number) => clip.shouts.some((x) => i >= x.start - 2 && i <= x.end + 2);
    const calm = s.filter((_, i) => !near(i));
    // The gunfire is louder than the shouts (else the calm talk under it would test nothing).
    for (const at of C.calmUnderGunfire) expect(maxOver(audio.loudnessAboveBaselineDb, [at, at + 1, at + 2])).toBeGreaterThan(6);
    expect(Math.max(...calm)).toBeLessThan(level - 0.2);
  });
});
