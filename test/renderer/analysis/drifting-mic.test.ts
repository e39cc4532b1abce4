import { describe, expect, it } from "vitest";
import { measureVoiceActivity, NO_VOICE_RISE } from "../../../render-container/src/analysis/voice-activity/measure-voice";
import { voiceLoudnessDb } from "../../../render-container/src/selection/second-scores";
import { DRIFTING_MIC as C, DRIFTING_MIC_SPEC } from "./drifting-mic-fixture";
import { maxFrom, useAnalysedTalkClip } from "./talk-clip-fixture";

const t = useAnalysedTalkClip(DRIFTING_MIC_SPEC);

describe("a microphone that comes up 6 dB and stays there (usual-level.ts)", () => {
  it("reads the calm talk after the change as calm, and each shout over the talk around it", () => {
    const rise = t.audio.voiceRiseDb!;
    const nearShout = (s: number) => t.clip.shouts.some((x) => s >= x.start - 2 && s < x.end + 2);
    // The calm seconds the voice model listened to after the change (loud over the whole stream's median, so heard).
    const calm: number[] = [];
    for (let s = C.rampTo + 20; s < C.duration - 10; s++) if (!nearShout(s) && rise[s]! > NO_VOICE_RISE) calm.push(rise[s]!);
    expect(calm.length).toBeGreaterThanOrEqual(20);
    calm.sort((a, b) => a - b);
    const median = calm[Math.floor(calm.length / 2)]!;
    // 1.6 dB here; against one level for the whole stream (the mixture of all the ordinary windows) 4.3 dB.
    expect(median).toBeLessThan(3);
    const voice = voiceLoudnessDb(t.audio);
    for (const x of t.clip.shouts) expect(maxFrom(voice, x.start, x.end)).toBeGreaterThan(calm[Math.floor(calm.length * 0.9)]! + 3);
  });

  it("says what it read the rises against: the usual pitch, the seconds of talk, and a level that follows the change", async () => {
    const { usual } = await measureVoiceActivity(t.audio);
    expect(usual.pitch).not.toBeNull();
    expect(usual.talkSeconds).toBeGreaterThanOrEqual(8);
    expect(usual.talkSeconds).toBeLessThanOrEqual(usual.referenceSeconds);
    // Two minutes before the change and two after it, the usual level lies about the change's 6 dB apart.
    const before = usual.levelDbAt(C.rampFrom - 120)!;
    const after = usual.levelDbAt(C.rampTo + 120)!;
    expect(after - before).toBeGreaterThan(C.upDb - 2.5);
    expect(after - before).toBeLessThan(C.upDb + 2.5);
  });
});
