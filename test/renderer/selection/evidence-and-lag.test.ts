import { describe, expect, it } from "vitest";
import type { ChatBurst } from "../../../render-container/src/analysis/types";
import { BOUNDARY_RULES, chatLedMomentFrom, momentWindow, type WindowContext } from "../../../render-container/src/selection/boundaries";
import { fitToBudget, SENTENCE_SLACK_SECONDS } from "../../../render-container/src/selection/budget";
import { profileEvidence, streamerEventLevel } from "../../../render-container/src/selection/evidence";
import { chanceOfSupport, estimateReactionLag, LAG_RULES, streamerEventOnsets } from "../../../render-container/src/selection/reaction-lag";
import { audienceFromBursts, computeSecondScores, shoutLevelDb } from "../../../render-container/src/selection/second-scores";
import { selectProfileMoments } from "../../../render-container/src/selection/select-moments";
import { reelWarnings } from "../../../render-container/src/selection/warnings";
import { audio, chat, TUNING } from "./signals";

const SECONDS = 900;
const PARAMS = { min_highlight_duration: 20, max_highlight_duration: 60 };

function burst(onset: number, score = 0.9): ChatBurst {
  return { onset, peak: onset + 2, end: onset + 8, chatters: 30, expectedChatters: 4, messages: 40, topAccountMessages: 2, reactionShare: 0.8, usualReactionShare: 0.2, score };
}

/** A streamer score with loud events of 5 s at the given seconds. */
function streamerAt(events: readonly number[]): number[] {
  const s = new Array<number>(SECONDS).fill(0);
  for (const e of events) for (let i = e; i < e + 5; i++) s[i] = 0.8;
  return s;
}

describe("chat's lag, read from the stream", () => {
  it("finds the onsets of the streamer's events", () => {
    expect(streamerEventOnsets(streamerAt([100, 300]))).toEqual([100, 300]);
  });

  it("credits bursts that come about 20 s after the streamer's shouts to the shouts", () => {
    const shouts = [100, 250, 400, 600];
    const bursts = shouts.map((t) => burst(t + 19 + (t % 3)));
    const lag = estimateReactionLag(bursts, streamerAt(shouts));
    expect(lag.source).toBe("stream");
    expect(lag.pairs).toBe(4);
    expect(lag.max).toBeGreaterThanOrEqual(22);
    // The usual range stays inside: a burst reacting after 5-15 s still reaches its moment.
    expect(lag.min).toBeLessThanOrEqual(LAG_RULES.defaultRange.min);
    const credited = audienceFromBursts(bursts, SECONDS, lag);
    for (const t of shouts) expect(credited[t + 1], `shout at ${t}`).toBeGreaterThan(0.8);
    // With the usual 3-15 s the same bursts miss the shouts: this is what the estimate is for.
    const usual = audienceFromBursts(bursts, SECONDS);
    for (const t of shouts) expect(usual[t + 1]).toBe(0);
  });

  it("reads the lag from the events this stream's level calls events, not from a fixed score", () => {
    // A streamer whose shouts score 0.32 on a quiet stream: below the fixed 0.35, above the stream's own level.
    const shouts = [100, 250, 400, 600];
    const streamer = streamerAt(shouts).map((v) => (v > 0 ? 0.32 : 0.01));
    const bursts = shouts.map((t) => burst(t + 26));
    expect(estimateReactionLag(bursts, streamer).source).toBe("default");
    const level = streamerEventLevel(streamer);
    expect(level).toBeLessThan(0.32);
    const lag = estimateReactionLag(bursts, streamer, LAG_RULES, level);
    expect(lag).toMatchObject({ source: "stream", pairs: 4 });
    expect(lag.max).toBeGreaterThanOrEqual(26);
  });

  it("shows no lag when bursts and shouts are unrelated or too few: the usual 3-15 s is credited, 30 s is reached", () => {
    // One pair says nothing.
    const one = estimateReactionLag([burst(300), burst(700)], streamerAt([280, 500]));
    expect(one).toMatchObject({ source: "default", ...LAG_RULES.defaultRange, reach: 30 });
    // Shouts all over the stream: every burst finds some shout at any lag, so no lag is told apart.
    const everywhere = Array.from({ length: 80 }, (_, i) => 10 + i * 11);
    const bursts = [120, 333, 505, 777].map((t) => burst(t));
    expect(estimateReactionLag(bursts, streamerAt(everywhere)).source).toBe("default");
    // The score goes to the usual range, where most streams' moments are; how a clip reaches further back is
    // below ("the clip holds all of it").
    const credited = audienceFromBursts([burst(500)], SECONDS, one);
    expect(credited[487]).toBeGreaterThan(0.8);
    expect(credited[472]).toBe(0);
    expect(credited[498]).toBe(0);
  });

  it("with no lag shown, a burst with no shout in the usual range but one 20-30 s back is credited to that shout", () => {
    const one = estimateReactionLag([burst(300), burst(700)], streamerAt([280, 500]));
    expect(one.source).toBe("default");
    // A shout at 200, chat's burst 27 s later and nothing of the streamer's between: chat reacting late.
    const late = audienceFromBursts([burst(227)], SECONDS, one, [200]);
    expect(late[202]).toBeGreaterThan(0.8);
    expect(late[215]).toBe(0);
    // A shout inside the usual range keeps the usual credit (that shout, or something near it, is what chat saw).
    const usual = audienceFromBursts([burst(227)], SECONDS, one, [200, 218]);
    expect(usual[215]).toBeGreaterThan(0.8);
    expect(usual[202]).toBe(0);
    // A second wave of the same reaction (starting a few seconds after the first ends, 33 s after the shout) goes
    // with the first.
    const waves = audienceFromBursts([burst(222, 0.5), { ...burst(233), end: 240 }], SECONDS, one, [200]);
    expect(waves[202]).toBeGreaterThan(0.8);
    expect(waves[220]).toBe(0);
    // A burst of a small chat counted 31.5 s after the shout (chat 30 s late, its first messages seen late) is
    // still within reach: the reach has the same 2 s slack on the measured onset as the usual range.
    expect(audienceFromBursts([burst(231.5)], SECONDS, one, [200])[202]).toBeGreaterThan(0.8);
    // Beyond reach, or on a stream that showed its lag, nothing moves.
    expect(audienceFromBursts([burst(245)], SECONDS, one, [200])[235]).toBeGreaterThan(0.8);
    expect(audienceFromBursts([burst(233)], SECONDS, one, [200])[202]).toBe(0);
    expect(audienceFromBursts([burst(227)], SECONDS, { min: 3, max: 15, reach: 15 }, [200])[202]).toBe(0);
  });

  it("reads a lag of a second or two: bursts that start as the shout is first heard, or a second before its onset", () => {
    const shouts = [100, 250, 400, 600];
    const bursts = shouts.map((t, i) => burst(t + [0, -1, 1, -2][i]!));
    const lag = estimateReactionLag(bursts, streamerAt(shouts));
    expect(lag).toMatchObject({ source: "stream", pairs: 4, min: -2 });
    // Each shout gets its burst's score (the usual 3-15 s would leave the shouts without chat).
    const credited = audienceFromBursts(bursts, SECONDS, lag);
    for (const t of shouts) expect(credited[t]).toBeGreaterThan(0.8);
    const usual = audienceFromBursts(bursts, SECONDS);
    for (const t of shouts) expect(usual[t]).toBe(0);
  });

  it("reads the lag from two bursts at the same gap when the stream's events are too sparse for chance", () => {
    // Two bursts 29 s after two of six shouts in 25 minutes: a lag (chance gives that about 1 time in 30).
    const seconds = 1500;
    const shouts = [200, 480, 700, 900, 1150, 1300];
    const s = new Array<number>(seconds).fill(0);
    for (const e of shouts) for (let i = e; i < e + 5; i++) s[i] = 0.8;
    const bursts = [burst(480 + 29), burst(1150 + 29), burst(820), burst(1030)];
    expect(chanceOfSupport(2, bursts.length, shouts.length, seconds)).toBeLessThan(LAG_RULES.maxChance);
    const lag = estimateReactionLag(bursts, s);
    expect(lag).toMatchObject({ source: "stream", pairs: 2 });
    expect(lag.max).toBeGreaterThanOrEqual(29);
    // The same two pairs among sixty shouts are what chance gives: no lag.
    const many = Array.from({ length: 60 }, (_, i) => 10 + i * 24);
    const dense = new Array<number>(seconds).fill(0);
    for (const e of many) for (let i = e; i < e + 5; i++) dense[i] = 0.8;
    expect(chanceOfSupport(2, bursts.length, many.length, seconds)).toBeGreaterThan(LAG_RULES.maxChance);
    expect(estimateReactionLag([burst(many[10]! + 29), burst(many[40]! + 29)], dense).source).toBe("default");
  });

  it("a late-chat stream's moment strong on both signals scores as both in balanced", () => {
    const shouts = [100, 300, 500, 700];
    const a = audio(SECONDS, { loud: shouts.map((at) => ({ at })) });
    const c = { ...chat(SECONDS), bursts: shouts.map((t) => burst(t + 21)) };
    const scores = computeSecondScores(a, c, TUNING.balanced, SECONDS);
    expect(scores.reactionLag?.source).toBe("stream");
    for (const t of shouts) {
      expect(scores.audience[t + 2]).toBeGreaterThan(0.8);
      expect(scores.combined[t + 2]).toBeGreaterThan(0.9);
    }
  });
});

describe("no clip without its own evidence", () => {
  const a = audio(SECONDS, { loud: [{ at: 150 }] });
  const c = { ...chat(SECONDS), bursts: [burst(460)] };

  it("the streamer profile takes the shout and not chat's burst; the audience profile the reverse", () => {
    const pick = (p: "streamer" | "audience") =>
      selectProfileMoments({ audio: a, chat: c, durationSeconds: SECONDS, tuning: { ...TUNING[p], target_duration_seconds: 600 }, params: PARAMS, manual: [], profile: p });
    const streamer = pick("streamer");
    expect(streamer.moments.map((m) => Math.round(m.peak))).toEqual([expect.closeTo(152, -1)]);
    expect(streamer.withoutEvidence).toBeGreaterThan(0);
    const audience = pick("audience");
    expect(audience.moments).toHaveLength(1);
    // This stream shows no lag of its own (one burst): the moment is somewhere 3-30 s before the burst (chat
    // behind a long broadcast delay reacts 30 s late), and with room in the reel the clip holds all of it.
    const m = audience.moments[0]!;
    expect(m.peak).toBeGreaterThanOrEqual(460 - 15);
    expect(m.peak).toBeLessThan(460);
    expect(m.start).toBeLessThanOrEqual(460 - 30);
    expect(m.end).toBeGreaterThanOrEqual(460 - 3);
  });

  it("a shout chat's range credits keeps its own setup: chat's range is not the shout's extent", () => {
    // A burst 4 s after a shout's onset, on a stream that shows no lag: chat's credit starts 11 s before the shout.
    const c2 = { ...chat(SECONDS), bursts: [burst(304)] };
    const shout = audio(SECONDS, { loud: [{ at: 300 }] });
    const out = selectProfileMoments({ audio: shout, chat: c2, durationSeconds: SECONDS, tuning: { ...TUNING.balanced, target_duration_seconds: 600 }, params: PARAMS, manual: [], profile: "balanced" });
    const m = out.moments.find((x) => x.start <= 301 && 301 < x.end)!;
    expect(m).toBeDefined();
    // The setup is looked for before the shout's onset (300), not before chat's range (289): no marker, so the
    // default lead before the shout.
    expect(m.start).toBeGreaterThanOrEqual(300 - BOUNDARY_RULES.defaultLeadSeconds - 2);
  });

  it("with no event at all the reel is empty and the manifest says why", () => {
    const calm = audio(SECONDS, { talk: [{ start: 0, end: SECONDS }] });
    const tuning = { ...TUNING.streamer, highlight_min_score: 0.01 };
    const out = selectProfileMoments({ audio: calm, chat: { ...chat(SECONDS), bursts: [burst(460)] }, durationSeconds: SECONDS, tuning, params: PARAMS, manual: [], profile: "streamer" });
    expect(out.moments).toEqual([]);
    expect(reelWarnings("streamer", out, tuning, SECONDS, 60)).toEqual([
      expect.stringMatching(/^No moment of the VOD showed an event in the streamer's voice for the streamer profile \(\d+ stretch\(es\) scored above highlight_min_score 0\.01 without one\), so it has no reel\.$/),
    ]);
  });

  it("judges the streamer's events against what this stream usually does", () => {
    // A streamer loud half the time: a shout at the usual level is no event.
    const loudStream = audio(SECONDS, { loud: Array.from({ length: 45 }, (_, i) => ({ at: i * 20, len: 10, db: 10 })) });
    const scores = computeSecondScores(loudStream, null, TUNING.streamer, SECONDS);
    const ev = profileEvidence(scores, TUNING.streamer);
    expect(ev.streamerLevel).toBeGreaterThan(0.5);
    expect(ev.at(25)).toEqual([]);
    const quietStream = computeSecondScores(audio(SECONDS, { loud: [{ at: 20, len: 10, db: 10 }] }), null, TUNING.streamer, SECONDS);
    expect(profileEvidence(quietStream, TUNING.streamer).at(25)).toEqual(["streamer"]);
  });

  it("lets a profile without chat take moments on the streamer's voice (its only signal)", () => {
    const scores = computeSecondScores(a, null, TUNING.audience, SECONDS);
    expect(profileEvidence(scores, TUNING.audience).own).toEqual(["streamer"]);
  });
});

describe("a clip led by chat alone, shortened to the reel's target", () => {
  // Chat's burst at 130 credits 115-127 (the stream's lag: 3-15 s): the moment is somewhere in that range, so
  // the window runs from a setup before it to a payoff after its latest second. The streamer talks on, with
  // pauses between sentences at these places (one long pause before the range, short ones inside it).
  const pauses = [[97.5, 100.5], [107.6, 108.5], [111.6, 113.1], [115.8, 116.3], [123.4, 124.7], [127.4, 128.4], [130.9, 131.4], [135.4, 136.5]].map(([start, end]) => ({ start: start!, end: end! }));
  const ctx: WindowContext = { scores: [], speechActivity: [], quietPoints: [], pauses, durationSeconds: 900, minDuration: 20, maxDuration: 60 };

  it("never ends before the latest second chat's range allows: a clip ending there may hold nothing", () => {
    const w = { start: 100.06, end: 135.86 };
    const fitted = fitToBudget(w, 115.5, 115, 25.65, [], ctx, 127)!;
    expect(fitted.end).toBeGreaterThanOrEqual(127 + BOUNDARY_RULES.tailSeconds);
    expect(fitted.start).toBeLessThanOrEqual(115 - BOUNDARY_RULES.minLeadSeconds);
    // Led by the streamer (the moment is at its peak), the same budget keeps the setup and ends sooner.
    const led = fitToBudget(w, 115.5, 115, 25.65, [], ctx)!;
    expect(led.end).toBeLessThan(127);
  });
});

describe("a clip led by chat alone on a stream that does not show its lag", () => {
  // Chat's burst at 160 credits 145-157 (the usual 3-15 s); with the lag unknown its moment may lie 15 s earlier
  // still. The streamer stirs at 141-143, below an event (0.21), 4 s before the credited range: the moment.
  const seconds = 400;
  const audience = Array.from({ length: seconds }, (_, i) => (i >= 145 && i < 157 ? 0.44 : 0));
  const streamer = Array.from({ length: seconds }, (_, i) => (i >= 141 && i < 144 ? 0.21 : 0));
  const scores = audience.map((a, i) => Math.max(a * 0.85, streamer[i]! * 0.45));
  const ctx: WindowContext = { scores, speechActivity: [], quietPoints: [], audience, streamer, chatReachSeconds: 15, durationSeconds: seconds, minDuration: 20, maxDuration: 60 };

  it("counts its moment from the streamer's last stir in chat's reach before the range", () => {
    expect(chatLedMomentFrom(145, ctx)).toBe(141);
    const win = momentWindow(150, ctx);
    expect(win.onset).toBe(145);
    expect(win.momentFrom).toBe(141);
    // Cut short by the reel's target, the clip keeps its lead-in before the stir, not only before chat's range.
    // From the range's onset, 4 s of lead-in would leave 1 s before the stir.
    const short = { ...ctx, minDuration: 15 };
    const fitted = fitToBudget(win, win.peak, win.momentFrom, 19, [], short, win.payoffFrom)!;
    expect(fitted.start).toBeLessThanOrEqual(141 - BOUNDARY_RULES.minLeadSeconds);
    expect(fitted.end).toBeGreaterThanOrEqual(win.payoffFrom + BOUNDARY_RULES.tailSeconds);
    expect(fitToBudget(win, win.peak, win.onset, 19, [], short, win.payoffFrom)!.start).toBeGreaterThan(141 - BOUNDARY_RULES.minLeadSeconds);
  });

  it("keeps the range's own onset when the stream shows its lag, the stir is out of reach or too faint", () => {
    expect(chatLedMomentFrom(145, { ...ctx, chatReachSeconds: 0 })).toBe(145);
    expect(chatLedMomentFrom(160, { ...ctx, chatReachSeconds: 15 })).toBe(160);
    expect(chatLedMomentFrom(145, { ...ctx, streamer: streamer.map((v) => v / 2) })).toBe(145);
    // A streamer-led window's onset is its own.
    const led = momentWindow(142, { ...ctx, audience: audience.map(() => 0), streamer: streamer.map((v) => v * 4) });
    expect(led.momentFrom).toBe(led.onset);
  });
});

describe("a clip shortened to the reel's target keeps its ends out of sentences", () => {
  // A shout at 131 after a conversation whose only pause between sentences near the setup is at 120.7-121.2 (the
  // rest are turns 0.1-0.2 s apart, too short to cut in); pauses after the peak at 132-135, 141.6 and 145.7.
  const pauses = [[112.9, 113.6], [120.68, 121.23], [132.16, 132.64], [133.7, 134.88], [141.61, 142.48], [145.74, 147.53]].map(([start, end]) => ({ start: start!, end: end! }));
  const ctx: WindowContext = { scores: [], speechActivity: [], quietPoints: [], pauses, durationSeconds: 900, minDuration: 20, maxDuration: 60 };
  const w = { start: 113.35, end: 146.24 };
  const inSpeech = (t: number) => !pauses.some((p) => p.start <= t && t <= p.end);

  it("runs a little further over the target rather than start inside a sentence", () => {
    // The clip in pauses (about 21 s) overshoots 10.3 s of budget by more than the budget itself; the tightest
    // clip (20 s) does not, but starts inside the sentence before the shout. A sentence is worth the seconds.
    const fitted = fitToBudget(w, 131.5, 131, 10.3, [], ctx)!;
    expect(inSpeech(fitted.start)).toBe(false);
    expect(inSpeech(fitted.end)).toBe(false);
    expect(fitted.end - fitted.start - 10.3).toBeLessThan(10.3 + SENTENCE_SLACK_SECONDS);
  });

  it("but never by much more than the shortfall it fills: with too little budget the moment stays out", () => {
    expect(fitToBudget(w, 131.5, 131, 7, [], ctx)).toBeNull();
  });
});

describe("how loud this streamer's shouting is", () => {
  /** A stream whose shouts rise `db` over the baseline, heard as speech by the voice model. */
  function shouting(db: number) {
    const a = audio(SECONDS, { loud: [100, 300, 500].map((at) => ({ at, db })) });
    return { ...a, voiceShare: a.loudnessAboveBaselineDb.map((d) => (d >= 4 ? 0.95 : -1)) };
  }

  it("scales excitement to the stream's own shouts: +9 dB over a music bed is this streamer's shout", () => {
    const mixed = shouting(9);
    expect(shoutLevelDb(mixed)).toBe(10);
    const s = computeSecondScores(mixed, null, TUNING.streamer, SECONDS).streamer;
    expect(s[102]).toBeGreaterThan(0.8);
    // The fixed 16 dB scale (no voice model measure) makes the same shouts talk, on a stream where something
    // else (a game sound at 700 s) rises 14 dB, so the stream's loudness range keeps an open mix's thresholds.
    const { voiceShare: _, ...bandOnly } = mixed;
    expect(shoutLevelDb(bandOnly)).toBe(16);
    const gameSound = (d: number, i: number, to: number) => (i >= 700 && i < 704 ? to : d);
    const open = { ...bandOnly, loudnessAboveBaselineDb: bandOnly.loudnessAboveBaselineDb.map((d, i) => gameSound(d, i, 14)), loudnessLufs: bandOnly.loudnessLufs.map((d, i) => gameSound(d, i, bandOnly.baselineLufs + 14)) };
    expect(computeSecondScores(open, null, TUNING.streamer, SECONDS).streamer[102]).toBeLessThan(0.5);
    // The same 14 dB only over the level around it (that level dipped there), not over the whole stream: the mix's
    // range is read on the whole stream, so the thresholds and the shout's score stay as they were.
    const localOnly = { ...bandOnly, loudnessAboveBaselineDb: open.loudnessAboveBaselineDb };
    expect(computeSecondScores(localOnly, null, TUNING.streamer, SECONDS).streamer[102]).toBeCloseTo(computeSecondScores(bandOnly, null, TUNING.streamer, SECONDS).streamer[102]!, 9);
  });

  it("keeps 16 dB for a bare voice that shouts 18 dB over quiet game audio, and never goes below 10 dB", () => {
    expect(shoutLevelDb(shouting(18))).toBe(16);
    expect(shoutLevelDb(shouting(5))).toBe(10);
  });
});
