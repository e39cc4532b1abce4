/**
 * The evaluation's count of clip edges against a stream's planted sentences (scripts/highlight-eval/score-b.ts):
 * inside a sentence beyond a 0.15 s margin, and apart, within 0.3 s of one inside or out.
 */
import { describe, expect, it } from "vitest";
import type { StreamTruthB } from "../../dev/synth-streams-b";
import { newTallyB, scoreClipsB } from "../../scripts/highlight-eval/score-b";

const truth = {
  vod_id: "1",
  moments: [],
  chat: { events: [] },
  utterances: [
    { speaker: "streamer", text: "First sentence here.", start: 10, end: 13, shout: false },
    { speaker: "guest", text: "Second one.", start: 13.5, end: 15, shout: false },
  ],
} as unknown as StreamTruthB;

describe("edges against the planted sentences", () => {
  it("counts an edge inside a sentence only beyond the margin, and every edge within 0.3 s of one as near speech", () => {
    const t = newTallyB();
    // Starts: 11 (inside), 13.25 (in the 0.5 s gap, 0.25 s from both: near), 9.9 (0.1 s before a sentence: near, not
    // inside), 5 (clear). Ends: 14.9 (0.1 s before its end: near, not inside), 12 (inside), 30 and 20 (clear).
    scoreClipsB(t, truth, [{ start: 11, end: 30 }, { start: 13.25, end: 14.9 }, { start: 9.9, end: 12 }, { start: 5, end: 20 }]);
    expect(t.ends).toBe(8);
    expect(t.midSentence).toBe(2);
    expect(t.nearSpeech).toBe(5);
    expect(t.examples.filter((e) => e.includes("inside the streamer's"))).toHaveLength(2);
  });
});

describe("short shouts counted apart", () => {
  it("counts real moments whose shout lasts under 2.5 s, found when a clip holds the peak; a long shout or a distractor is not one", () => {
    const moment = (id: string, peak: number, shout: [number, number] | null, real = true) => ({
      id, kind: real ? "streamer_only" : "game_sounds", real, peak, setup_start: peak - 10, end: peak + 5, both_strong: false,
      shout: shout ? { start: shout[0], end: shout[1], db: -15, guest: false } : null,
    });
    const withShouts = {
      ...truth,
      utterances: [],
      moments: [moment("a", 100, [100.2, 101.4]), moment("b", 200, [200.3, 202.7]), moment("c", 300, [300.1, 304]), moment("d", 400, [400, 401], false), moment("e", 500, null)],
    } as unknown as StreamTruthB;
    const t = newTallyB();
    scoreClipsB(t, withShouts, [{ start: 90, end: 110 }, { start: 290, end: 310 }]);
    // a (1.2 s) and b (2.4 s) are short, c (3.9 s) is not, d is a distractor, e has no shout; only a was found.
    expect(t.shortShoutPlanted).toBe(2);
    expect(t.shortShoutFound).toBe(1);
  });
});
