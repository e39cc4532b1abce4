import { describe, expect, it } from "vitest";
import type { MomentSignals } from "../../../common/contract/render";
import { BOUNDARY_RULES, clampWindow, describeEnds, eventExtent, findSetup, insideSpeech, refineBoundaries, settleInPauses, setupStart, snapWindow } from "../../../render-container/src/selection/boundaries";
import { nearestInPauses } from "../../../render-container/src/selection/pause-ranges";
import { bucketPeaks, candidatePeaks } from "../../../render-container/src/selection/buckets";
import { refineMoments } from "../../../render-container/src/selection/refine-moments";
import { fitBetween } from "../../../render-container/src/selection/free-interval";
import { audienceFromBursts, audienceScore, combineScores, computeSecondScores, streamerScore } from "../../../render-container/src/selection/second-scores";
import { isNearDuplicate, momentSimilarity, signalSimilarity, timeSimilarity } from "../../../render-container/src/selection/similarity";
import type { Moment } from "../../../render-container/src/selection/types";
import { audio, chat, TUNING } from "./signals";

function signals(over: Partial<MomentSignals> = {}): MomentSignals {
  return {
    score: 0.8,
    audience_score: 0.8,
    streamer_score: 0.2,
    audio_hype: 0.2,
    chat_rate_ratio: 5,
    unique_chatters: 20,
    hype_density: 0.5,
    speech_activity: 0.3,
    loudness_db_above_baseline: 3,
    source: "auto",
    reasons: [],
    ...over,
  };
}

function moment(start: number, end: number, peak: number, over: Partial<Moment> = {}): Moment {
  return { start, end, peak, score: 0.8, profile: "balanced", source: "auto", label: null, signals: signals(), ...over };
}

describe("scores", () => {
  it("marks single-signal moments down under balanced weights (still above the threshold when strong), less under one-sided ones", () => {
    expect(combineScores(1, 1, 0.5, 0.5)).toBe(1);
    const single = combineScores(1, 0, 0.5, 0.5);
    expect(single).toBeLessThan(0.6);
    expect(single).toBeGreaterThan(TUNING.balanced.highlight_min_score);
    expect(combineScores(0, 1, 0.5, 0.5)).toBeCloseTo(single, 9);
    expect(combineScores(1, 0, 0.8, 0.2)).toBeGreaterThan(combineScores(0, 1, 0.8, 0.2));
    // The profile's own signal alone beats the other profile's signal alone, by a wide margin.
    expect(combineScores(0, 0.9, 0.2, 0.8)).toBeGreaterThan(1.9 * combineScores(0.9, 0, 0.2, 0.8));
    expect(combineScores(1, 0, 1, 0)).toBe(1);
    expect(combineScores(0, 1, 1, 0)).toBe(0);
  });

  it("maps a chat burst from many chatters high, and the same rate from two chatters low", () => {
    expect(audienceScore(8, 12, 40, 0.7)).toBeGreaterThan(0.9);
    expect(audienceScore(8, 12, 2, 0.7)).toBeLessThan(0.5);
    expect(audienceScore(1, 1, 40, 0.7)).toBe(0);
  });

  it("maps a shout over the baseline high and normal talking low", () => {
    expect(streamerScore(1, 0.9, 5)).toBeGreaterThan(0.95);
    expect(streamerScore(0, 0.7, 3)).toBe(0);
  });

  it("does not take loud audio without syllables (explosions, music) for the streamer", () => {
    expect(streamerScore(1, 1, 1)).toBe(0);
    expect(streamerScore(1, 1, 2.2)).toBeLessThan(streamerScore(1, 1, 3));
  });

  it("credits a chat burst to the 3-15 s before it (chat's lag), with the burst's score", () => {
    const burst = { onset: 100, peak: 102, end: 110, chatters: 40, expectedChatters: 5, messages: 60, topAccountMessages: 2, reactionShare: 0.8, usualReactionShare: 0.3, score: 0.9 };
    const a = audienceFromBursts([burst], 200);
    expect(a[85]).toBe(0.9);
    expect(a[97]).toBe(0.9);
    expect(a[84]).toBe(0);
    expect(a[98]).toBe(0);
    expect(a[100]).toBe(0);
  });

  it("scores on audio alone when chat is unavailable, whatever the audience weight", () => {
    const a = audio(60, { loud: [{ at: 20 }] });
    const s = computeSecondScores(a, { ...chat(60), available: false }, TUNING.audience, 60);
    expect(s.chatAvailable).toBe(false);
    expect(s.combined[22]!).toBeCloseTo(s.streamer[22]!, 9);
    expect(s.audience.every((v) => v === 0)).toBe(true);
  });
});

describe("weights", () => {
  const a = audio(120, { loud: [{ at: 20 }, { at: 80 }] });
  const c = chat(120, [{ at: 50 }, { at: 80 }]);

  it("counts chat and voice equally when both weights are 0 (nothing says which matters)", () => {
    const zero = computeSecondScores(a, c, { ...TUNING.balanced, audience_weight: 0, streamer_weight: 0 }, 120);
    const even = computeSecondScores(a, c, { ...TUNING.balanced, audience_weight: 0.5, streamer_weight: 0.5 }, 120);
    expect(zero.combined).toEqual(even.combined);
    expect(Math.max(...zero.combined)).toBeGreaterThan(0.9);
  });

  it("scores on voice when chat is missing, even with streamer_weight 0 or both weights 0", () => {
    const noChat = { ...c, available: false };
    for (const w of [{ audience_weight: 1, streamer_weight: 0 }, { audience_weight: 0, streamer_weight: 0 }]) {
      const s = computeSecondScores(a, noChat, { ...TUNING.audience, ...w }, 120);
      expect(s.combined).toEqual(s.streamer);
      expect(s.combined[22]!).toBeGreaterThan(0.9);
    }
  });

  it("follows the weights it is given: 1/0 is chat only, 0/1 voice only", () => {
    const chatOnly = computeSecondScores(a, c, { ...TUNING.balanced, audience_weight: 1, streamer_weight: 0 }, 120);
    const voiceOnly = computeSecondScores(a, c, { ...TUNING.balanced, audience_weight: 0, streamer_weight: 1 }, 120);
    expect(chatOnly.combined).toEqual(chatOnly.audience);
    expect(voiceOnly.combined).toEqual(voiceOnly.streamer);
    expect(chatOnly.combined[52]!).toBeGreaterThan(0.9);
    expect(voiceOnly.combined[52]!).toBe(0);
  });
});

describe("buckets", () => {
  const scores = [0, 0.2, 0.9, 0.1, 0, 0.4, 0.6, 0.5, 0, 0, 0.3];
  it("keeps each bucket's best second", () => {
    expect(bucketPeaks(scores, 5)).toEqual([
      { peakSecond: 2, score: 0.9 },
      { peakSecond: 6, score: 0.6 },
      { peakSecond: 10, score: 0.3 },
    ]);
  });
  it("orders candidates by score and drops those that do not beat the threshold", () => {
    expect(candidatePeaks(scores, 5, 0.35).map((b) => b.peakSecond)).toEqual([2, 6]);
    expect(candidatePeaks(scores, 5, 0.6).map((b) => b.peakSecond)).toEqual([2]);
  });
});

describe("boundaries", () => {
  it("finds the event around a peak, bridging short dips", () => {
    const s = new Array(40).fill(0);
    for (const i of [10, 11, 12, 14, 15]) s[i] = 0.8;
    s[13] = 0.1;
    expect(eventExtent(s, 11)).toEqual({ start: 10, end: 16 });
    s[13] = 0;
    s[14] = 0;
    s[15] = 0;
    s[16] = 0;
    expect(eventExtent(s, 11)).toEqual({ start: 10, end: 13 });
  });

  it("starts the setup where the talk leading into the event begins, else a default lead before it", () => {
    const silent = new Array(200).fill(0);
    expect(setupStart(100, silent)).toBe(88);
    const talking = silent.map((_, i) => (i >= 72 && i < 100 ? 0.6 : 0));
    expect(setupStart(100, talking)).toBe(72);
    // Talk without a pause within 35 s marks nothing.
    const always = silent.map(() => 0.6);
    expect(setupStart(100, always)).toBe(88);
    expect(setupStart(5, silent)).toBe(0);
  });

  it("takes the earliest marker: a pause in the talk, a scene cut, a build-up", () => {
    const talking = new Array(200).fill(0).map((_, i) => (i >= 80 && i < 100 ? 0.6 : 0));
    expect(findSetup(100, { speechActivity: talking, sceneCuts: [70] })).toEqual({ at: 70, reason: "a scene cut" });
    expect(findSetup(100, { speechActivity: talking, sceneCuts: [90] }).at).toBe(80);
    // A pause between sentences (sub-second pauses known) marks the talk's start.
    const pauses = [{ start: 66, end: 68.5 }, { start: 75, end: 75.5 }];
    expect(findSetup(100, { speechActivity: talking, pauses }).at).toBe(68.5);
  });

  it("a build-up marks the setup, even after an earlier pause in the talk; its start is where the climb turns", () => {
    // Talk from 170 (after a 3 s pause) to the onset at 200; from 182 it climbs steadily by 10 dB, words and all.
    const loudnessDb = Array.from({ length: 260 }, (_, i) => (i < 167 || i >= 200 ? 0 : i < 170 ? -25 : i % 4 === 3 ? -20 : 1 + Math.max(0, i - 182) * (10 / 18)));
    const speechActivity = loudnessDb.map((d) => (d > -10 ? 0.6 : 0));
    const pauses = [{ start: 167, end: 170 }];
    const s = findSetup(200, { speechActivity, pauses, loudnessDb });
    expect(s.reason).toMatch(/^the build-up begins/);
    expect(s.at).toBeGreaterThanOrEqual(179);
    expect(s.at).toBeLessThanOrEqual(183);
    // The same talk without the climb: the pause marks it.
    const flat = loudnessDb.map((d) => (d > 0 ? 1 : d));
    expect(findSetup(200, { speechActivity, pauses, loudnessDb: flat })).toEqual({ at: 170, reason: "the streamer starts talking after a 3.0 s pause" });
    // A slow drift (4 dB over 30 s) is no build-up.
    const drift = Array.from({ length: 260 }, (_, i) => (i < 170 || i >= 200 ? 0 : i % 4 === 3 ? -20 : 1 + (i - 170) * (4 / 30)));
    expect(findSetup(200, { speechActivity, loudnessDb: drift }).reason).not.toMatch(/build-up/);
  });

  it("clamps to [min, max], keeping the peak and growing mostly before it", () => {
    const ctx = { durationSeconds: 1000, minDuration: 20, maxDuration: 60 };
    const long = clampWindow(100, 200, 150, ctx);
    expect(long.end - long.start).toBe(60);
    expect(long.start).toBeLessThanOrEqual(150);
    expect(long.end).toBeGreaterThanOrEqual(150);
    const short = clampWindow(100, 110, 105, ctx);
    expect(short.end - short.start).toBeCloseTo(20, 9);
    expect(105 - short.start).toBeGreaterThan(short.end - 105);
    const edge = clampWindow(-5, 8, 2, ctx);
    expect(edge).toEqual({ start: 0, end: 20 });
  });

  it("snaps to the nearest quiet point or cut within reach, never pushing the peak out", () => {
    const limits = { minDuration: 20, maxDuration: 60, durationSeconds: 1000 };
    const w = { start: 100, end: 140, peak: 120 };
    expect(snapWindow(w, [98.5, 141], undefined, limits)).toEqual({ start: 98.5, end: 141 });
    expect(snapWindow(w, [90, 150], undefined, limits)).toEqual({ start: 100, end: 140 });
    expect(snapWindow(w, [98.5], [101.2], limits).start).toBe(101.2);
    // A cut just before the peak would leave no lead-in: ignored.
    expect(snapWindow({ start: 100, end: 140, peak: 101 }, [], [101.5], limits).start).toBe(100);
  });
});

describe("cuts in pauses", () => {
  const limits = { minDuration: 20, maxDuration: 60, durationSeconds: 1000 };
  const inPause = (t: number, pauses: { start: number; end: number }[]) => pauses.some((p) => p.start <= t && t <= p.end);

  it("takes a pause between sentences over a nearer short one (maybe a comma) within reach", () => {
    // The wanted end (140) is nearest a 0.5 s pause; a 1.2 s pause lies 3 s on. Same for the start.
    const pauses = [{ start: 96.2, end: 97.4 }, { start: 99.6, end: 100.1 }, { start: 139.9, end: 140.4 }, { start: 143, end: 144.2 }];
    const w = snapWindow({ start: 100, end: 140, peak: 120 }, [], undefined, limits, pauses);
    expect(w.end).toBeGreaterThanOrEqual(143);
    expect(w.start).toBeLessThanOrEqual(97.4);
    expect(inPause(w.start, pauses) && inPause(w.end, pauses)).toBe(true);
    // With no long pause in reach the short one is taken (better than speech).
    const short = pauses.filter((p) => p.end - p.start < 0.6);
    const v = snapWindow({ start: 100, end: 140, peak: 120 }, [], undefined, limits, short);
    expect([v.start, v.end]).toEqual([99.6 + 0.25, 139.9 + 0.25]);
  });

  it("settles a start pushed into speech by a neighbour: to the next pause, the end moving out to keep the minimum length", () => {
    // A neighbour ends at 112.1, mid-sentence; the next pause (112.5-117) would leave the clip under 20 s.
    const pauses = [{ start: 108.4, end: 109.5 }, { start: 112.5, end: 117 }, { start: 131.8, end: 133.5 }, { start: 136, end: 137.2 }];
    const w = settleInPauses({ start: 112.1, end: 132.1 }, 122.5, { ...limits, pauses, quietPoints: [] }, [{ start: 90, end: 112.1 }]);
    expect(inPause(w.start, pauses) && inPause(w.end, pauses)).toBe(true);
    expect(w.start).toBeGreaterThanOrEqual(112.5);
    expect(w.end - w.start).toBeGreaterThanOrEqual(20 - 1e-9);
    // An end pushed into speech by a neighbour after it: the start moves back instead.
    const e = settleInPauses({ start: 110, end: 130.5 }, 120, { ...limits, pauses: [{ start: 104, end: 106 }, { start: 128, end: 129 }], quietPoints: [] }, [{ start: 130.5, end: 160 }]);
    expect(e.end).toBeLessThanOrEqual(129);
    expect(e.end - e.start).toBeGreaterThanOrEqual(20 - 1e-9);
    expect(inPause(e.start, [{ start: 104, end: 106 }]) || e.start <= 104).toBe(true);
  });

  it("moves the start of a long chat-led clip that begins after its loudest second on to the next pause", () => {
    // Led by chat alone, clamped around the latest its moment may be: it starts at 104, mid-sentence, after the
    // loudest second of chat's range (100.5). The next pause (105.7-106.6) is a second away.
    const pauses = [{ start: 97, end: 98 }, { start: 105.7, end: 106.6 }, { start: 157.5, end: 158.5 }];
    const w = settleInPauses({ start: 104, end: 158 }, 100.5, { ...limits, pauses, quietPoints: [] });
    expect(inPause(w.start, pauses)).toBe(true);
    expect(w.start).toBeGreaterThan(105.7 - 1e-9);
    expect(w.end).toBe(158);
  });

  it("starts a clip at its maximum length at an earlier pause and ends it as much earlier when no later pause is in reach", () => {
    // 60 s, starting mid-sentence at 106 with no pause before the peak's margin; a pause 1.5 s earlier, and the
    // end (166, in a pause) has another pause 2 s before it.
    const pauses = [{ start: 104.2, end: 104.8 }, { start: 163.5, end: 164.3 }, { start: 165.6, end: 166.4 }];
    const w = settleInPauses({ start: 106, end: 166 }, 108, { ...limits, pauses, quietPoints: [] });
    expect(inPause(w.start, pauses) && inPause(w.end, pauses)).toBe(true);
    expect(w.end - w.start).toBeLessThanOrEqual(60 + 1e-9);
    expect(w.end).toBeGreaterThanOrEqual(108 + 2);
  });

  it("starts early in a long pause when the pause's usual cut (just before the talk resumes) leaves the clip too short", () => {
    // Measured on a generated stream (source c, loud game): a build-up of game sound fills a 6.5 s pause before
    // the shout; the clip, held to its 20 s minimum, started 0.4 s before that pause, at the end of a sentence.
    // Starting just before the talk resumes (2464.5) would leave it 17.5 s long; a start 0.5 s into the pause keeps it whole.
    const pauses = [{ start: 2447.9, end: 2449.0 }, { start: 2458.43, end: 2464.99 }, { start: 2474.85, end: 2477.57 }, { start: 2481.48, end: 2482.72 }];
    const w = settleInPauses({ start: 2458, end: 2481.98 }, 2467.5, { ...limits, durationSeconds: 3000, pauses, quietPoints: [] });
    expect(inPause(w.start, pauses) && inPause(w.end, pauses)).toBe(true);
    expect(w.start).toBeCloseTo(2458.43 + BOUNDARY_RULES.pauseMarginSeconds, 6);
    expect(w.end).toBe(2481.98);
  });

  it("moves a start in speech later no further than the minimum lead before the event's onset, else to a pause before it", () => {
    // Led by chat alone: the moment may be as early as 108 (the onset), the peak is chat's at 140. The first pause
    // after the start is 24 s on, past the moment; one lies 2 s before the start.
    const pauses = [{ start: 97.2, end: 98.4 }, { start: 124, end: 125.2 }, { start: 150, end: 151 }];
    const w = settleInPauses({ start: 100, end: 150.5 }, 140, { ...limits, pauses, quietPoints: [] }, [], 108);
    expect(w.start).toBeCloseTo(98.4 - BOUNDARY_RULES.pauseMarginSeconds, 6);
    expect(w.end).toBe(150.5);
    // Without the onset, the start moves on to that pause (a streamer-led clip keeps its peak, and its moment).
    expect(settleInPauses({ start: 100, end: 150.5 }, 140, { ...limits, pauses, quietPoints: [] }).start).toBeCloseTo(125.2 - BOUNDARY_RULES.pauseMarginSeconds, 6);
    // A pause before the onset's lead is taken, inward as before.
    const near = [{ start: 97.2, end: 98.4 }, { start: 102, end: 103.2 }, { start: 150, end: 151 }];
    expect(settleInPauses({ start: 100, end: 150.5 }, 140, { ...limits, pauses: near, quietPoints: [] }, [], 108).start).toBeCloseTo(103.2 - BOUNDARY_RULES.pauseMarginSeconds, 6);
  });

  it("ends after a sentence that runs past the maximum length, giving up the setup's first seconds", () => {
    // A 60 s clip ending mid-sentence; that sentence ends at 163.
    const pauses = [{ start: 99, end: 100.5 }, { start: 104, end: 105.5 }, { start: 163, end: 164.5 }];
    const w = settleInPauses({ start: 100, end: 160 }, 150, { ...limits, pauses, quietPoints: [] });
    expect(inPause(w.start, pauses) && inPause(w.end, pauses)).toBe(true);
    expect(w.end).toBeGreaterThanOrEqual(163);
    expect(w.end - w.start).toBeLessThanOrEqual(60 + 1e-9);
  });
});

describe("soft pauses and the speech guard", () => {
  const limits = { minDuration: 20, maxDuration: 60, durationSeconds: 1000 };
  const soft = (at: number) => ({ start: at - 0.1, end: at + 0.1 });

  it("counts a point within speechGuardSeconds of a pause's edge as speech (a fading syllable, a soft first word)", () => {
    const pauses = [{ start: 100, end: 101.5 }, { start: 110, end: 110.4 }];
    const g = BOUNDARY_RULES.speechGuardSeconds;
    expect(insideSpeech(100.03, pauses)).toBe(true);
    expect(insideSpeech(101.5 - g / 2, pauses)).toBe(true);
    expect(insideSpeech(100 + g, pauses)).toBe(false);
    expect(insideSpeech(100.75, pauses)).toBe(false);
    // A pause shorter than two guards: only its middle.
    expect(insideSpeech(110.2, pauses)).toBe(false);
    expect(insideSpeech(110.1, pauses)).toBe(true);
  });

  it("settles an end in speech in a pause heard as one when one is in reach, and in a soft pause only when none is", () => {
    // A 60 s clip whose end (160) lies in speech; a soft pause 0.5 s on, a heard pause 2 s on.
    const firm = { start: 161.9, end: 162.5 };
    const both = [{ start: 99, end: 100.5 }, soft(160.5), firm];
    const w = settleInPauses({ start: 110, end: 160 }, 140, { ...limits, pauses: both, quietPoints: [] });
    expect(w.end).toBeGreaterThanOrEqual(firm.start);
    expect(w.end).toBeLessThanOrEqual(firm.end);
    // Without the heard pause (and none within reach): the soft one, at its middle.
    const v = settleInPauses({ start: 110, end: 160 }, 140, { ...limits, pauses: [{ start: 99, end: 100.5 }, soft(160.5), { start: 190, end: 191 }], quietPoints: [] });
    expect(v.end).toBeCloseTo(160.5, 6);
    expect(v.start).toBe(110);
  });

  it("says when an end lies at the quietest place of the speech rather than in a pause", () => {
    const pauses = [{ start: 99, end: 100.5 }, soft(140.2)];
    const why = describeEnds({ start: 99.75, end: 140.2 }, 120, { at: 99.75, reason: "a default lead" }, { at: 140.2, reason: "the reaction after the peak" }, { start: 99.75, end: 140.2 }, { pauses });
    expect(why.start).toBe("starts 20.3 s before the peak: a default lead, in a pause between sentences");
    expect(why.end).toBe("ends 20.2 s after the peak: the reaction after the peak, no pause in reach, so where the speech is quietest");
  });

  it("leaves soft pauses to the settling: snapping takes only pauses heard as such", () => {
    // A short heard pause within reach beats a nearer soft one.
    const pauses = [{ start: 96.2, end: 97.4 }, soft(140.2), { start: 142, end: 142.45 }];
    const w = snapWindow({ start: 100, end: 140, peak: 120 }, [], undefined, limits, pauses);
    expect(w.end).toBeCloseTo(142.225, 6);
    // With only the soft one near, the end stays where it was (settleInPauses may reach a heard pause further on).
    const v = snapWindow({ start: 100, end: 140, peak: 120 }, [], undefined, limits, [{ start: 96.2, end: 97.4 }, soft(140.2)]);
    expect(v.end).toBe(140);
  });
});

describe("refineBoundaries", () => {
  // The "why" as selection writes it: one sentence per end, stating its seconds from the peak.
  const m = moment(100, 140, 120, {
    signals: signals({ reasons: ["voice +8 dB", "starts 20.0 s before the peak: a scene cut", "ends 20.0 s after the peak: the reaction has died down, in a pause between sentences"] }),
  });
  it("moves the ends onto scene cuts found on the downloaded video, and restates why each end is there", () => {
    const r = refineBoundaries(m, [98.2, 141.6, 300]);
    expect(r.start).toBe(98.2);
    expect(r.end).toBe(141.6);
    expect(r.peak).toBe(120);
    expect(r.signals).toEqual({
      ...m.signals,
      reasons: [
        "voice +8 dB",
        "starts 21.8 s before the peak: a scene cut, then moved 1.8 s earlier to a scene cut",
        "ends 21.6 s after the peak: the reaction has died down, in a pause between sentences, then moved 1.6 s later to a scene cut",
      ],
    });
    // The plan's moment keeps its own words (refining returns a new moment).
    expect(m.signals.reasons[1]).toBe("starts 20.0 s before the peak: a scene cut");
  });
  it("leaves the moment alone when no cut is near", () => {
    expect(refineBoundaries(m, [50, 110, 200])).toEqual(m);
    expect(refineBoundaries(m, [])).toBe(m);
  });
  it("respects the duration limits it is given", () => {
    const r = refineBoundaries(m, [97.6], { minDuration: 20, maxDuration: 40 });
    expect(r.start).toBe(100);
  });
  it("never moves a manual highlight", () => {
    const man = moment(100, 140, 120, { source: "manual" });
    expect(refineBoundaries(man, [98.2, 141.6])).toBe(man);
  });
});

describe("refineMoments", () => {
  // An automatic moment trimmed to end where a manual range begins (a manual range is kept as given), and a later one.
  const auto = moment(100, 140, 125);
  const manual = moment(140, 200, 170, { source: "manual" });
  const later = moment(300, 340, 320);

  it("never moves a moment into its neighbour, though the cut alone would", () => {
    const cuts = [101.5, 141.5, 299];
    expect(refineBoundaries(auto, cuts).end).toBe(141.5);
    const [a, m, l] = refineMoments([auto, manual, later], cuts);
    expect(a).toEqual(auto);
    expect(m).toBe(manual);
    expect(l!.start).toBe(299);
    for (const [x, y] of [[a!, m!], [m!, l!]] as const) expect(x.end).toBeLessThanOrEqual(y.start);
  });

  it("lets two neighbours meet on the cut between them", () => {
    const [a, b] = refineMoments([moment(100, 140, 120), moment(142, 182, 160)], [141]);
    expect(a!.end).toBe(141);
    expect(b!.start).toBe(141);
  });

  it("stays inside the downloaded coverage and leaves moments without video alone", () => {
    const [a, l] = refineMoments([auto, later], [98.2, 299], {}, (m) => (m === auto ? { start: 99, end: 150 } : undefined));
    expect(a!.start).toBe(99);
    expect(l).toBe(later);
    // Held at the coverage's edge, the start is short of its cut, and its "why" says so.
    expect(a!.signals.reasons).toEqual(["starts 26.0 s before the peak: moved 1.0 s earlier towards a scene cut, as far as its neighbours and the downloaded video allow"]);
  });
});

describe("similarity", () => {
  it("is 1 for overlapping moments and decays with the gap", () => {
    expect(timeSimilarity({ start: 0, end: 30 }, { start: 20, end: 50 })).toBe(1);
    const near = timeSimilarity({ start: 0, end: 30 }, { start: 40, end: 70 });
    const far = timeSimilarity({ start: 0, end: 30 }, { start: 120, end: 150 });
    expect(near).toBeGreaterThan(far);
    expect(timeSimilarity({ start: 0, end: 30 }, { start: 1000, end: 1030 })).toBe(0);
  });

  it("rates moments driven by different signals as less alike", () => {
    const chatty = signals();
    const loud = signals({ audience_score: 0, streamer_score: 0.9, audio_hype: 0.9, speech_activity: 0.8 });
    expect(signalSimilarity(chatty, chatty)).toBeCloseTo(1, 9);
    expect(signalSimilarity(chatty, loud)).toBeLessThan(0.6);
    const a = moment(0, 30, 15);
    expect(momentSimilarity(a, moment(45, 75, 60))).toBeGreaterThan(momentSimilarity(a, moment(45, 75, 60, { signals: loud })));
  });

  it("never lets overlapping moments through; the threshold decides for nearby ones", () => {
    const chosen = [moment(0, 30, 15)];
    expect(isNearDuplicate(moment(29, 60, 45), chosen, 1)).toBe(true);
    expect(isNearDuplicate(moment(40, 70, 55), chosen, 0.3)).toBe(true);
    expect(isNearDuplicate(moment(40, 70, 55), chosen, 0.9)).toBe(false);
  });
});

describe("fitBetween", () => {
  it("trims a window into the gap around its peak", () => {
    expect(fitBetween({ start: 90, end: 140 }, 120, [{ start: 130, end: 200 }], 20, 1000)).toEqual({ start: 90, end: 130 });
  });
  it("grows a trimmed window back to the minimum inside the gap", () => {
    expect(fitBetween({ start: 110, end: 140 }, 120, [{ start: 125, end: 200 }], 20, 1000)).toEqual({ start: 105, end: 125 });
  });
  it("fails when the gap is too small or the peak is taken", () => {
    expect(fitBetween({ start: 90, end: 140 }, 120, [{ start: 0, end: 110 }, { start: 125, end: 200 }], 20, 1000)).toBeNull();
    expect(fitBetween({ start: 90, end: 140 }, 120, [{ start: 115, end: 200 }], 20, 1000)).toBeNull();
  });
});

describe("the nearest start and end anywhere inside pauses", () => {
  const limits = { startMax: 118, endMin: 122, lo: 90, hi: 160, min: 20, max: 60 };
  const open = () => true;

  it("moves each end to the nearest place inside a pause, and the pair least in all", () => {
    const w = nearestInPauses({ start: 101, end: 131 }, [[95, 99], [102, 104], [129, 130], [133, 140]], limits, open)!;
    expect(w).toEqual({ start: 102, end: 130 });
  });

  it("keeps the minimum length by moving the start earlier first, then the end later", () => {
    // The nearest pair (110, 125) is 15 s: the start goes back to its pause's beginning (108), the end on to 128.
    const w = nearestInPauses({ start: 111, end: 124 }, [[108, 112], [125, 130]], limits, open)!;
    expect(w).toEqual({ start: 108, end: 128 });
  });

  it("never puts the start after its latest place or the end before its earliest, nor over a neighbour; null when nothing fits", () => {
    expect(nearestInPauses({ start: 100, end: 130 }, [[119, 121], [125, 126]], limits, open)).toBeNull();
    const w = nearestInPauses({ start: 100, end: 130 }, [[96, 97], [99, 101], [129, 131], [140, 141]], limits, (a, b) => b <= 135 && a >= 98)!;
    expect(w).toEqual({ start: 100, end: 130 });
    expect(nearestInPauses({ start: 100, end: 130 }, [[99, 101], [129, 131]], limits, (a) => a >= 102)).toBeNull();
  });
});
