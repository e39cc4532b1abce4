/**
 * A pause is where it is quiet (speech-pauses.ts PAUSE_SOUND): a sentence that starts under a music sting after a
 * pause is not taken into the pause where the voice model does not hear its start.
 */
import { describe, expect, it } from "vitest";
import { readPcm } from "../../../render-container/src/analysis/voice-activity/measure-voice";
import { loadVoiceModel, SILERO } from "../../../render-container/src/analysis/voice-activity/silero-model";
import { speechProbabilities } from "../../../render-container/src/analysis/voice-activity/speech-probabilities";
import { PAUSE_LANE_WARMUP_WINDOWS, PAUSE_SOUND, quietParts, speechPausesIn } from "../../../render-container/src/analysis/voice-activity/speech-pauses";
import { STING_OVER_SPEECH as C, STING_OVER_SPEECH_SPEC, speakSentence } from "./sting-over-speech-fixture";
import { useAnalysedTalkClip } from "./talk-clip-fixture";

describe("the pause in a run the model hears no speech in", () => {
  const floor = -50;
  const loud = floor + PAUSE_SOUND.overFloorDb + 5;
  const levels = (parts: [number, number][]) => parts.flatMap(([db, n]) => new Array<number>(n).fill(db));
  /** The speech level around: the talk, a little louder than the sound. */
  const talk = new Array<number>(200).fill(loud + 3);
  const q = PAUSE_SOUND.minWindows;

  it("ends where the quiet ends when a sound starts inside it: a voice may be under the sound", () => {
    // Quiet 12 windows, then a sting to the run's end: the quiet part.
    expect(quietParts(levels([[floor, 12], [loud, 20]]), talk, 0, 32)).toEqual([[0, 12]]);
    // A ramp between the quiet and the sound (the 256 ms level rising) is not pause.
    expect(quietParts(levels([[floor, 12], [floor + 4, 3], [loud, 20]]), talk, 0, 35)).toEqual([[0, 12]]);
    // The sound fades before the model hears the voice (through a normaliser): the pause still ends at the quiet.
    expect(quietParts(levels([[floor, 12], [loud, q], [floor + 1, 10]]), talk, 0, 22 + q)).toEqual([[0, 12]]);
    // Only [from, to) is read.
    expect(quietParts(levels([[loud, 5], [floor, 12], [loud, 10]]), talk, 5, 27)).toEqual([[5, 17]]);
  });

  it("stays whole where no sound starts inside it after a quiet part", () => {
    // A rise shorter than a quarter second (a word's end smeared in, a click).
    expect(quietParts(levels([[floor, 10], [loud, q - 1], [floor, 10]]), talk, 0, 19 + q)).toEqual([[0, 19 + q]]);
    // A level that wanders less than `overFloorDb`.
    expect(quietParts(levels([[floor, 10], [floor + PAUSE_SOUND.overFloorDb - 1, 30]]), talk, 0, 40)).toEqual([[0, 40]]);
    // A sound already playing where the pause begins (a sting's tail), and an alarm's beeps over the whole gap:
    // the quiet between beeps is shorter than `minWindows`.
    expect(quietParts(levels([[loud, 10], [floor, 20]]), talk, 0, 30)).toEqual([[0, 30]]);
    const beeps = levels(Array.from({ length: 6 }, (): [number, number][] => [[loud, 9], [floor, 3]]).flat());
    expect(quietParts(beeps, talk, 0, beeps.length)).toEqual([[0, beeps.length]]);
    // A rise that stays well under the talk around: ambience over a moment of near silence hides no voice.
    const quietTalk = new Array<number>(200).fill(loud + PAUSE_SOUND.underSpeechDb + 1);
    expect(quietParts(levels([[floor, 12], [loud, 20]]), quietTalk, 0, 32)).toEqual([[0, 32]]);
    // A pause it would leave too short stays whole.
    expect(quietParts(levels([[floor, 9], [loud, 20]]), talk, 0, 29, 11)).toEqual([[0, 29]]);
    // Digital silence in the run is not its quiet: the ambience around it is.
    expect(quietParts(levels([[-120, 2], [floor, 12], [loud, 20]]), talk, 0, 34)).toEqual([[0, 14]]);
  });
});

const t = useAnalysedTalkClip(STING_OVER_SPEECH_SPEC);

describe("a sentence that starts under a sting after a pause", () => {
  it("is not cut into: no heard pause reaches into it, and the quiet before it is still a pause", async () => {
    const sentence = (await speakSentence()).duration;
    // The premise: the model hears little of the sentence's first second under the sting, for some of them.
    const model = await loadVoiceModel();
    let unheard = 0;
    for (const at of C.sentenceAt) {
      const probs = await speechProbabilities(model, readPcm(t.audio.pcm!, at, at + 1, SILERO.sampleRate));
      if (probs.filter((p) => p < 0.5).length > probs.length / 2) unheard++;
    }
    expect(unheard).toBeGreaterThanOrEqual(1);
    const heard = await speechPausesIn(t.audio, [{ start: 0, end: C.duration }]);
    // Measured: the pauses before the four sentences end 0.15-0.25 s before them (where the sting rose); before
    // PAUSE_SOUND, all four ran 0.1-1.6 s into the sentence (a clip edge there cuts its first words).
    for (const at of C.sentenceAt) {
      for (const p of heard.pauses) expect(p.end <= at + 0.1 || p.start >= at + sentence - 0.1, `pause ${p.start}-${p.end} in the sentence at ${at}`).toBe(true);
    }
    const before = C.sentenceAt.filter((at) => heard.pauses.some((p) => p.end > at - 1 && p.end <= at && p.end - p.start >= 0.35 - 1e-6));
    expect(before.length).toBe(C.sentenceAt.length);
  });
});

describe("the voice model's batched lanes, listening for pauses", () => {
  it("hear speech from a lane's first window: a lane starting mid-sentence makes no pause", async () => {
    const model = await loadVoiceModel();
    const samples = readPcm(t.audio.pcm!, 0, C.duration, SILERO.sampleRate);
    const one = await speechProbabilities(model, samples, { maxLanes: 1 });
    // The longest run of windows the lanes call quiet where one pass over the whole hears speech.
    const longestFalseQuiet = (probs: Float32Array) => {
      let run = 0;
      let longest = 0;
      for (let i = 0; i < one.length; i++) {
        run = probs[i]! < 0.5 && one[i]! >= 0.5 ? run + 1 : 0;
        longest = Math.max(longest, run);
      }
      return longest;
    };
    // A lane starts every half second (16 windows), hundreds of them.
    const lanes = (warmupWindows: number) => speechProbabilities(model, samples, { maxLanes: 512, minLaneWindows: 16, warmupWindows });
    // Measured: 0-1 windows with the pauses' warm-up (2 s); 8-16 with the model's default 0.5 s, a pause of 0.35 s
    // or more once — a pause inside a sentence for a clip edge to be put in.
    expect(longestFalseQuiet(await lanes(PAUSE_LANE_WARMUP_WINDOWS))).toBeLessThan(4);
    expect(longestFalseQuiet(await lanes(16))).toBeGreaterThanOrEqual(8);
  }, 120_000);
});
