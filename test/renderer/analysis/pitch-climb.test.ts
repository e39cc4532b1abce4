/**
 * Which windows over the octave are the voice's (voice-activity/pitch-climb.ts): a voice glides there by small
 * steps, an instrument's notes jump there.
 */
import { describe, expect, it } from "vitest";
import { PITCH_CLIMB, voiceWindows, type PitchedWindow } from "../../../render-container/src/analysis/voice-activity/pitch-climb";

const USUAL = 80;
const CEILING = USUAL + 12;
/** Consecutive windows from `w`, one per pitch. */
const run = (w: number, pitches: readonly number[]): PitchedWindow[] => pitches.map((pitch, k) => ({ w: w + k, pitch }));

describe("windows over the octave: the voice climbing there, or notes", () => {
  it("keeps every window under the ceiling, and a shout gliding over it a semitone or two at a time", () => {
    // Calm talk, then a shout climbing from +8 to +15 semitones (source c: a low voice's "WE DID IT!" at +12-15).
    const windows = [...run(0, [80, 81, 79, 80]), ...run(10, [88, 89.5, 91, 92.5, 94, 95, 94, 93.5, 95])];
    expect([...voiceWindows(windows, CEILING)]).toEqual(windows.map(() => 1));
  });

  it("drops an arpeggio's notes over the octave under calm talk: they jump from the voice, and from note to note", () => {
    // The voice at 79-81; the notes (three windows each) at +14, +17, +21, +17 interleaved with it.
    const windows = [...run(0, [80, 81]), ...run(2, [94, 94, 94]), ...run(5, [80]), ...run(6, [97, 97, 97]), ...run(9, [79]), ...run(10, [101, 101, 101, 97, 97, 97])];
    const voice = voiceWindows(windows, CEILING);
    windows.forEach((x, k) => expect(voice[k]).toBe(x.pitch <= CEILING ? 1 : 0));
  });

  it("drops a window read an octave up (the pitch tracker's doubling) amid talk, and a climb cut off by a gap", () => {
    const doubled = [...run(0, [80, 81]), ...run(2, [93]), ...run(3, [81, 80])];
    expect([...voiceWindows(doubled, CEILING)]).toEqual([1, 1, 0, 1, 1]);
    // The same glide, but the window over the ceiling comes more than maxGapWindows after the last one under it.
    const gap = PITCH_CLIMB.maxGapWindows + 1;
    const cut = [{ w: 0, pitch: 91.5 }, { w: gap, pitch: 93 }];
    expect([...voiceWindows(cut, CEILING)]).toEqual([1, 0]);
    expect([...voiceWindows([{ w: 0, pitch: 91.5 }, { w: gap - 1, pitch: 93 }], CEILING)]).toEqual([1, 1]);
  });

  it("joins a climb across a stray window: a step is measured to any voice window within reach, not just the last", () => {
    // 91 -> 92.5 -> (a stray 83, the tracker's half) -> 94.5: 94.5 is 2 semitones from 92.5, two windows back.
    const windows = run(0, [90, 91, 92.5, 83, 94.5, 95]);
    expect([...voiceWindows(windows, CEILING)]).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it("keeps everything where no usual pitch is known (no ceiling)", () => {
    expect([...voiceWindows(run(0, [70, 100, 120]), Infinity)]).toEqual([1, 1, 1]);
  });
});
