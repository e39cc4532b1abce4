import { describe, expect, it } from "vitest";
import type { NormalizedManualHighlight } from "../../../common/contract/normalized-request";
import { MomentSignals } from "../../../common/contract/render";
import { selectMoments, type SelectMomentsInput } from "../../../render-container/src/selection/select-moments";
import type { Moment } from "../../../render-container/src/selection/types";
import { audio, chat, PARAMS, TUNING } from "./signals";

const N = 900;
const dur = (m: Moment) => m.end - m.start;
const total = (ms: Moment[]) => ms.reduce((s, m) => s + dur(m), 0);
const covers = (ms: Moment[], t: number) => ms.some((m) => m.start <= t && t < m.end);

function run(over: Partial<SelectMomentsInput> & Pick<SelectMomentsInput, "audio">): Moment[] {
  return selectMoments({
    chat: null,
    durationSeconds: N,
    tuning: TUNING.balanced,
    params: PARAMS,
    manual: [],
    profile: "balanced",
    ...over,
  });
}

const streamerOnly = { ...TUNING.streamer, audience_weight: 0, streamer_weight: 1 };

describe("selectMoments: score threshold", () => {
  const a = audio(N, { loud: [{ at: 100, db: 18 }, { at: 500, db: 7 }] });

  it("keeps peaks that beat highlight_min_score", () => {
    const ms = run({ audio: a, tuning: streamerOnly });
    expect(ms).toHaveLength(1);
    expect(covers(ms, 101)).toBe(true);
  });

  it("drops weaker peaks, and takes them once the threshold is lowered", () => {
    expect(covers(run({ audio: a, tuning: streamerOnly }), 501)).toBe(false);
    const low = run({ audio: a, tuning: { ...streamerOnly, highlight_min_score: 0.1 } });
    expect(covers(low, 501)).toBe(true);
  });

  it("finds nothing in a flat stream", () => {
    expect(run({ audio: audio(N, { talk: [{ start: 0, end: N }] }), tuning: streamerOnly })).toEqual([]);
  });
});

describe("selectMoments: clip windows", () => {
  it("without any marker of the setup, starts a default lead before the event and keeps 8.5 s after the peak", () => {
    const [m] = run({ audio: audio(N, { loud: [{ at: 200 }] }), tuning: streamerOnly });
    expect(m!.peak).toBeGreaterThanOrEqual(200);
    expect(m!.peak).toBeLessThan(206);
    expect(m!.start).toBeLessThanOrEqual(200 - 10);
    expect(m!.start).toBeGreaterThanOrEqual(200 - 14);
    expect(m!.end - m!.peak).toBeGreaterThanOrEqual(8.5 - 1e-9);
    expect(m!.signals.reasons).toContainEqual(expect.stringMatching(/^starts .* before the peak: no setup marker found/));
  });

  it("starts where a build-up begins: loudness climbing towards the moment", () => {
    const a = audio(N, { loud: [{ at: 200 }], talk: [{ start: 100, end: 199 }] });
    // From 170 the streamer gets louder and louder (+10 dB at the shout), talking without a pause.
    for (let i = 170; i < 199; i++) a.loudnessAboveBaselineDb[i] = 2 + ((i - 170) / 29) * 8;
    const [m] = run({ audio: a, tuning: streamerOnly });
    // Within 3 s of where the climb starts (the level is smoothed over 5 s), never much earlier.
    expect(m!.start).toBeLessThanOrEqual(173);
    expect(m!.start).toBeGreaterThanOrEqual(165);
    expect(m!.signals.reasons).toContainEqual(expect.stringMatching(/build-up begins/));
  });

  it("never cuts through a sentence where pauses show one: ends move to a pause, a long rant is followed", () => {
    const a = audio(N, { loud: [{ at: 200, len: 18 }], talk: [{ start: 150, end: 199 }] });
    // Sentences of ~4 s with 0.6 s pauses between them, and the 3 s pause before the talk leading in.
    a.pauses = [{ start: 146, end: 149.6 }];
    for (let t = 153.6; t < 199; t += 4.6) a.pauses.push({ start: t, end: t + 0.6 });
    a.pauses.push({ start: 218.2, end: 219 }, { start: 223, end: 223.8 });
    const [m] = run({ audio: a, tuning: streamerOnly });
    const inPause = (t: number) => a.pauses!.some((p) => p.start <= t && t <= p.end);
    expect(inPause(m!.start)).toBe(true);
    expect(inPause(m!.end)).toBe(true);
    // The shout runs to 218: the clip keeps all of it.
    expect(m!.end).toBeGreaterThanOrEqual(218.2);
    expect(m!.signals.reasons).toContainEqual(expect.stringMatching(/^ends .* after the peak: .*in a pause between sentences/));
  });

  it("shortened to fit the reel's target, a clip still starts and ends in pauses, keeping the reaction first", () => {
    // Calm talk from 150, a shout from 200 running on for 16 s, sentences ~4 s apart with short pauses.
    const a = audio(N, { loud: [{ at: 200, len: 16 }], talk: [{ start: 150, end: 199 }] });
    a.pauses = [{ start: 146, end: 149.6 }];
    for (let t = 153.6; t < 199; t += 4.6) a.pauses.push({ start: t, end: t + 0.6 });
    a.pauses.push({ start: 206.2, end: 206.7 }, { start: 211.1, end: 211.6 }, { start: 216.1, end: 218 });
    const inPause = (t: number) => a.pauses!.some((p) => p.start <= t && t <= p.end);
    const full = run({ audio: a, tuning: streamerOnly })[0]!;
    for (const target of [22, 25, 28]) {
      const [m] = run({ audio: a, tuning: { ...streamerOnly, target_duration_seconds: target } });
      expect(dur(m!)).toBeLessThan(dur(full));
      expect(inPause(m!.start) && inPause(m!.end)).toBe(true);
      // The reaction's first seconds are kept before the setup is: at least one sentence of the shout.
      expect(m!.end - m!.peak).toBeGreaterThanOrEqual(4);
      expect(m!.signals.reasons).toContainEqual(expect.stringMatching(/^ends .* to fit the reel's target, in a pause/));
    }
    // One long rant without a pause: the clip keeps all of it and gives up setup instead.
    a.pauses = a.pauses.filter((p) => p.start < 200 || p.start > 215);
    const [rant] = run({ audio: a, tuning: { ...streamerOnly, target_duration_seconds: 25 } });
    expect(inPause(rant!.start) && inPause(rant!.end)).toBe(true);
    expect(rant!.end).toBeGreaterThanOrEqual(216.1);
    // Each end says which steps moved it.
    expect(rant!.signals.reasons).toContainEqual(expect.stringMatching(/^starts \d+\.\d s before the peak: moved to fit the reel's target, in a pause$/));
  });

  it("says when a neighbour moved an end, and when an end then moved out of a sentence", () => {
    // Two shouts 22 s apart in continuous talk with pauses every 4.6 s: the weaker one's clip makes room.
    const a = audio(N, { loud: [{ at: 200, db: 20 }, { at: 222, db: 12 }], talk: [{ start: 150, end: 280 }] });
    a.pauses = [];
    for (let t = 151.3; t < 280; t += 4.6) a.pauses.push({ start: t, end: t + 0.7 });
    const ms = run({ audio: a, tuning: { ...streamerOnly, highlight_min_score: 0.2 } });
    expect(ms).toHaveLength(2);
    const later = ms[1]!;
    expect(later.start).toBeGreaterThanOrEqual(ms[0]!.end);
    expect(later.signals.reasons).toContainEqual(expect.stringMatching(/^starts .*: moved to make room for a neighbouring clip(, then so that neither end cuts a sentence)?, in a pause$/));
    for (const m of ms) for (const t of [m.start, m.end]) expect(a.pauses.some((p) => p.start <= t && t <= p.end), `${t}`).toBe(true);
  });

  it("follows the streamer's talking back into the setup (up to 30 s)", () => {
    const withTalk = run({ audio: audio(N, { loud: [{ at: 200 }], talk: [{ start: 172, end: 200 }] }), tuning: streamerOnly });
    const without = run({ audio: audio(N, { loud: [{ at: 200 }] }), tuning: streamerOnly });
    expect(withTalk[0]!.start).toBeLessThanOrEqual(172);
    expect(without[0]!.start).toBeGreaterThan(172);
  });

  it("snaps the ends to nearby quiet points, but not to ones too far away", () => {
    const base = run({ audio: audio(N, { loud: [{ at: 200 }] }), tuning: streamerOnly })[0]!;
    const near = run({ audio: audio(N, { loud: [{ at: 200 }], quietPoints: [base.start - 1.3, base.end + 0.7] }), tuning: streamerOnly })[0]!;
    expect(near.start).toBeCloseTo(base.start - 1.3, 6);
    expect(near.end).toBeCloseTo(base.end + 0.7, 6);
    const far = run({ audio: audio(N, { loud: [{ at: 200 }], quietPoints: [base.start - 9, base.end + 9] }), tuning: streamerOnly })[0]!;
    expect(far.start).toBe(base.start);
    expect(far.end).toBe(base.end);
  });

  it("prefers a scene cut over a quiet point when both are near", () => {
    const base = run({ audio: audio(N, { loud: [{ at: 200 }] }), tuning: streamerOnly })[0]!;
    const m = run({
      audio: audio(N, { loud: [{ at: 200 }], quietPoints: [base.start - 0.5] }),
      tuning: streamerOnly,
      sceneCuts: [base.start + 1.5],
    })[0]!;
    expect(m.start).toBeCloseTo(base.start + 1.5, 6);
  });

  it("clamps every automatic moment to [min, max] highlight duration", () => {
    const long = run({ audio: audio(N, { loud: [{ at: 200, len: 90 }] }), tuning: streamerOnly });
    expect(long.length).toBeGreaterThan(0);
    for (const m of long) {
      expect(dur(m)).toBeLessThanOrEqual(PARAMS.max_highlight_duration + 1e-9);
      expect(m.peak).toBeGreaterThanOrEqual(m.start);
      expect(m.peak).toBeLessThanOrEqual(m.end);
    }
    const short = run({ audio: audio(N, { loud: [{ at: 200, len: 2 }] }), tuning: streamerOnly, params: { min_highlight_duration: 50, max_highlight_duration: 90 } });
    expect(dur(short[0]!)).toBeGreaterThanOrEqual(50 - 1e-9);
  });

  it("keeps clips inside the VOD at its edges", () => {
    const ms = run({ audio: audio(120, { loud: [{ at: 3 }, { at: 112 }] }), durationSeconds: 120, tuning: { ...streamerOnly, similarity_threshold: 1 } });
    expect(ms.length).toBeGreaterThan(0);
    for (const m of ms) {
      expect(m.start).toBeGreaterThanOrEqual(0);
      expect(m.end).toBeLessThanOrEqual(120);
      expect(dur(m)).toBeGreaterThanOrEqual(PARAMS.min_highlight_duration - 1e-9);
    }
  });
});

describe("selectMoments: near-duplicates", () => {
  // Two shouts 12 s apart: the same kind of moment, the second one a few seconds after the first has calmed.
  const a = audio(N, { loud: [{ at: 200 }, { at: 212, db: 17 }] });

  it("drops the weaker of two similar nearby moments at a low similarity threshold", () => {
    const ms = run({ audio: a, tuning: { ...streamerOnly, similarity_threshold: 0.2 } });
    expect(ms).toHaveLength(1);
    expect(covers(ms, 201)).toBe(true);
  });

  it("lets both through at a high threshold, without overlapping", () => {
    const ms = run({ audio: a, tuning: { ...streamerOnly, similarity_threshold: 0.95 } });
    expect(ms).toHaveLength(2);
    expect(ms[0]!.end).toBeLessThanOrEqual(ms[1]!.start);
    expect(covers(ms, 201) && covers(ms, 213)).toBe(true);
  });

  it("keeps far-apart moments even at threshold 0", () => {
    const ms = run({ audio: audio(N, { loud: [{ at: 100 }, { at: 600 }] }), tuning: { ...streamerOnly, similarity_threshold: 0 } });
    expect(ms).toHaveLength(2);
  });
});

describe("selectMoments: target length", () => {
  // Eight shouts of decreasing strength, far apart.
  const loud = Array.from({ length: 8 }, (_, i) => ({ at: 60 + i * 100, db: 20 - i }));
  const a = audio(N, { loud });

  it("fills greedily by score up to the target and no further", () => {
    const ms = run({ audio: a, tuning: { ...streamerOnly, target_duration_seconds: 120 } });
    expect(total(ms)).toBeLessThanOrEqual(120 + 1e-9);
    expect(total(ms)).toBeGreaterThan(120 - PARAMS.min_highlight_duration);
    // The strongest ones made it; the weakest did not.
    expect(covers(ms, 61)).toBe(true);
    expect(covers(ms, 161)).toBe(true);
    expect(covers(ms, 761)).toBe(false);
  });

  it("lands as close to the target as the moments allow: the last one may run over, never by a whole clip", () => {
    for (let target = 30; target <= 220; target += 7) {
      const ms = run({ audio: a, tuning: { ...streamerOnly, target_duration_seconds: target } });
      const longest = Math.max(...ms.map(dur));
      // Over by less than the shortest clip; under by less than about one clip (a clip that does not fit is left
      // out rather than cut below its setup and payoff: never pad, never cut the moment).
      expect(total(ms) - target).toBeLessThanOrEqual(Math.min(...ms.map(dur)));
      // Once all eight moments are in, the reel stays short: never padded with seconds that hold no moment.
      if (ms.length < 8) expect(target - total(ms)).toBeLessThanOrEqual(longest);
    }
  });

  it("returns moments in chronological order", () => {
    const ms = run({ audio: a, tuning: { ...streamerOnly, target_duration_seconds: 600 } });
    expect(ms.length).toBe(8);
    for (let i = 1; i < ms.length; i++) expect(ms[i]!.start).toBeGreaterThanOrEqual(ms[i - 1]!.end);
  });
});

describe("selectMoments: manual highlights", () => {
  const a = audio(N, { loud: Array.from({ length: 6 }, (_, i) => ({ at: 100 + i * 130 })) });
  const manual = (start: number, end: number, label: string | null = "boss kill"): NormalizedManualHighlight => ({
    start_seconds: start,
    end_seconds: end,
    label,
    run_profiles: ["balanced", "streamer"],
  });

  it("always includes a manual range, even where the signals are flat", () => {
    const ms = run({ audio: a, tuning: streamerOnly, manual: [manual(870, 895)] });
    const m = ms.find((x) => x.source === "manual")!;
    expect(m).toMatchObject({ start: 870, end: 895, label: "boss kill", source: "manual", profile: "balanced" });
    expect(m.signals.reasons).toContain("manual highlight");
  });

  it("deducts manual seconds from the target", () => {
    const tuning = { ...streamerOnly, target_duration_seconds: 150 };
    const without = run({ audio: a, tuning });
    const withManual = run({ audio: a, tuning, manual: [manual(870, 930 - 30)] });
    const autoSeconds = total(withManual.filter((m) => m.source === "auto"));
    expect(autoSeconds).toBeLessThanOrEqual(150 - 30 + 1e-9);
    expect(withManual.filter((m) => m.source === "auto").length).toBeLessThan(without.length);
  });

  it("makes automatic moments room: none overlaps a manual range", () => {
    // The manual range sits just after the shout at 230, where that moment's reaction would be.
    const ms = run({ audio: a, tuning: streamerOnly, manual: [manual(236, 300)] });
    const man = ms.find((m) => m.source === "manual")!;
    for (const m of ms.filter((x) => x.source === "auto")) expect(m.end <= man.start || m.start >= man.end).toBe(true);
    // The shout itself is still in the reel, trimmed to end where the manual range begins.
    expect(covers(ms.filter((m) => m.source === "auto"), 231)).toBe(true);
  });

  it("never snaps a trimmed moment into a manual range next to it", () => {
    // The moment is cut to end where the manual range begins, then shortened to the budget; scene cuts 2 s
    // later at both ends would slide it 2 s into the manual range.
    const a2 = audio(N, { loud: [{ at: 200, len: 2 }], talk: [{ start: 172, end: 200 }] });
    const man = manual(202.5, 240.5);
    const ms = run({ audio: a2, tuning: { ...streamerOnly, target_duration_seconds: 38 + 25 }, manual: [man], sceneCuts: [179.5, 204.5] });
    const auto = ms.filter((m) => m.source === "auto");
    expect(covers(auto, 201)).toBe(true);
    for (const m of auto) expect(m.end).toBeLessThanOrEqual(202.5 + 1e-9);
  });

  it("does not add an automatic moment for a peak inside a manual range", () => {
    const ms = run({ audio: a, tuning: streamerOnly, manual: [manual(90, 130)] });
    expect(ms.filter((m) => m.start < 130 && m.end > 90)).toHaveLength(1);
  });

  it("keeps a manual range longer than max_highlight_duration at its length", () => {
    const ms = run({ audio: a, tuning: streamerOnly, manual: [manual(300, 450)] });
    const m = ms.find((x) => x.source === "manual")!;
    expect(dur(m)).toBe(150);
  });

  it("uses only manual moments when they exceed the target", () => {
    const ms = run({ audio: a, tuning: { ...streamerOnly, target_duration_seconds: 60 }, manual: [manual(300, 400)] });
    expect(ms.every((m) => m.source === "manual")).toBe(true);
  });
});

describe("selectMoments: profiles prefer their own signal", () => {
  // A shout chat ignores at 150, chat going wild over a silent stream at 450, both at once at 750.
  const a = audio(N, { loud: [{ at: 150 }, { at: 750 }] });
  const c = chat(N, [{ at: 450 }, { at: 750 }]);
  const pick = (p: "balanced" | "audience" | "streamer", target?: number) =>
    run({ audio: a, chat: c, tuning: { ...TUNING[p], ...(target ? { target_duration_seconds: target } : {}) }, profile: p });
  // Room for two clips: the moment both signals back, and one more.
  const TIGHT = 45;

  it("under a tight budget, the moment both signals back wins in every profile", () => {
    for (const p of ["balanced", "audience", "streamer"] as const) expect(covers(pick(p, TIGHT), 751)).toBe(true);
  });

  it("audience then ranks the chat-only moment above the voice-only one", () => {
    const ms = pick("audience", TIGHT);
    expect(covers(ms, 451)).toBe(true);
    expect(covers(ms, 151)).toBe(false);
    expect(ms.every((m) => m.profile === "audience")).toBe(true);
  });

  it("streamer then ranks the voice-only moment above the chat-only one", () => {
    const ms = pick("streamer", TIGHT);
    expect(covers(ms, 151)).toBe(true);
    expect(covers(ms, 451)).toBe(false);
  });

  it("balanced ranks both single-signal moments below the corroborated one, and takes them with room", () => {
    const ms = pick("balanced");
    expect(covers(ms, 751) && covers(ms, 151) && covers(ms, 451)).toBe(true);
    const score = (t: number) => ms.find((m) => covers([m], t))!.score;
    expect(score(751)).toBeGreaterThan(score(151));
    expect(score(751)).toBeGreaterThan(score(451));
  });

  it("run_overrides weights move the choice continuously: chat-only rises and voice-only falls with audience_weight", () => {
    const scoreAt = (w: number, t: number) => {
      const ms = run({ audio: a, chat: c, tuning: { ...TUNING.balanced, audience_weight: w, streamer_weight: 1 - w, highlight_min_score: 0.01 } });
      return ms.find((m) => covers([m], t))?.score ?? 0;
    };
    let prevChat = -1;
    let prevVoice = 2;
    for (let w = 0.1; w <= 0.91; w += 0.1) {
      const chatOnly = scoreAt(w, 451);
      const voiceOnly = scoreAt(w, 151);
      // A signal weighing under 35 % of the two is not the profile's own: no moment is taken on it alone
      // (evidence.ts), however high the combined score.
      if (w < 0.35 - 1e-9) expect(chatOnly, `audience_weight ${w.toFixed(1)}`).toBe(0);
      else expect(chatOnly).toBeGreaterThan(prevChat);
      if (1 - w < 0.35 - 1e-9) expect(voiceOnly, `audience_weight ${w.toFixed(1)}`).toBe(0);
      else expect(voiceOnly).toBeLessThan(prevVoice);
      // Small steps in the weight make small steps in the score while the moment is taken.
      if (prevChat > 0 && chatOnly > 0) expect(chatOnly - prevChat).toBeLessThan(0.2);
      prevChat = chatOnly;
      prevVoice = voiceOnly;
    }
  });

  it("scores a moment both signals agree on above single-signal ones", () => {
    const ms = pick("audience");
    const both = ms.find((m) => m.start <= 751 && 751 < m.end)!;
    const chatOnly = ms.find((m) => m.start <= 451 && 451 < m.end)!;
    expect(both.score).toBeGreaterThan(chatOnly.score);
  });
});

describe("selectMoments: signals and reasons", () => {
  it("explains each moment with valid MomentSignals and readable reasons", () => {
    const ms = run({ audio: audio(N, { loud: [{ at: 300, db: 14 }] }), chat: chat(N, [{ at: 300, ratio: 6.2 }]) });
    expect(ms).toHaveLength(1);
    const s = MomentSignals.parse(ms[0]!.signals);
    expect(s.source).toBe("auto");
    expect(s.chat_rate_ratio).toBeCloseTo(6.2);
    expect(s.reasons).toContain("chat rate 6.2x baseline");
    expect(s.reasons).toContain("voice +14 dB");
    expect(s.score).toBeCloseTo(ms[0]!.score, 3);
  });

  it("scores on audio alone when chat is missing, and says so", () => {
    const ms = run({ audio: audio(N, { loud: [{ at: 300 }] }), chat: { ...chat(N), available: false }, tuning: TUNING.audience, profile: "audience" });
    expect(ms).toHaveLength(1);
    expect(ms[0]!.signals.chat_rate_ratio).toBeNull();
    expect(ms[0]!.signals.reasons).toContain("chat replay unavailable: scored on audio only");
    expect(ms[0]!.score).toBeGreaterThan(0.9);
  });

  it("takes at most one moment per bucket (bucket_size_seconds)", () => {
    const a = audio(N, { loud: [{ at: 100 }, { at: 400 }] });
    expect(run({ audio: a, tuning: { ...streamerOnly, bucket_size_seconds: 5 } })).toHaveLength(2);
    expect(run({ audio: a, tuning: { ...streamerOnly, bucket_size_seconds: 600 } })).toHaveLength(1);
  });
});
