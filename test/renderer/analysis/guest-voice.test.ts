import { describe, expect, it } from "vitest";
import { NO_PITCH_RISE } from "../../../render-container/src/analysis/voice-activity/measure-voice";
import { GUEST_VOICE as C, GUEST_VOICE_SPEC } from "./guest-voice-fixture";
import { useAnalysedTalkClip } from "./talk-clip-fixture";

const t = useAnalysedTalkClip(GUEST_VOICE_SPEC);

describe("a guest with a higher voice than the streamer's, taking turns", () => {
  it("reads the guest's calm sentences as no raised voice: their pitch rise is over the guest's own pitch", () => {
    const rises: number[] = [];
    for (const i of C.louder) for (let s = C.guestAt[i]!; s < C.guestAt[i]! + 2; s++) if (t.audio.voicePitchRise![s]! > NO_PITCH_RISE) rises.push(t.audio.voicePitchRise![s]!);
    // Where the voice model listened and read a pitch: some of the guest's seconds must be among them.
    expect(rises.length).toBeGreaterThanOrEqual(3);
    // Over the streamer's pitch they read about 9 semitones up, a shout's climb.
    expect(Math.max(...rises)).toBeLessThan(4);
  });
});
