/**
 * Pauses between sentences under a busy music bed (a flite voice under a sixteenth-note arpeggio): the voice-band
 * envelope finds few there, the voice-activity model hears most, and splits no sentence (a job's edges placed in
 * them: test/renderer/pipeline/hear-edges.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AudioAnalysis } from "../../../render-container/src/analysis/types";
import { isSoftPause, mergeStretches, speechPausesIn, withHeardPauses, SOFT_PAUSE, SPEECH_PAUSE } from "../../../render-container/src/analysis/voice-activity/speech-pauses";
import { BOUNDARY_RULES } from "../../../render-container/src/selection/boundaries";
import { analysedArpeggioSpeech, ARPEGGIO_SPEECH as C, type ArpeggioSpeech } from "./arpeggio-speech-fixture";

let clip: ArpeggioSpeech;
let audio: AudioAnalysis;
let dispose: () => Promise<void>;

beforeAll(async () => {
  ({ clip, audio, dispose } = await analysedArpeggioSpeech());
}, 180_000);

afterAll(() => dispose());

/** The gaps between consecutive sentences. */
const gaps = () => clip.sentences.slice(1).map((s, i) => ({ start: clip.sentences[i]!.end, end: s.start }));
const inGap = (t: number) => gaps().some((g) => t >= g.start - 0.05 && t <= g.end + 0.05) || t < clip.sentences[0]!.start || t > clip.sentences.at(-1)!.end;

describe("pauses between sentences under an arpeggio", () => {
  it("are not found by the voice-band envelope (the premise)", () => {
    const found = gaps().filter((g) => (audio.pauses ?? []).some((p) => p.start < g.end && p.end > g.start)).length;
    expect(gaps().length).toBeGreaterThan(15);
    expect(found).toBeLessThan(gaps().length / 2);
  });

  it("are heard by the voice-activity model, and no heard pause splits a sentence", async () => {
    const heard = await speechPausesIn(audio, [{ start: 0, end: C.duration }]);
    expect(heard.heard).toEqual([{ start: 0, end: C.duration }]);
    const found = gaps().filter((g) => heard.pauses.some((p) => p.start < g.end && p.end > g.start)).length;
    // Measured 30 of 41 (the model alone: 14); this bed is a hard one (a telephone-band voice only 12 dB over an
    // arpeggio the model half hears as speech). On evaluation streams the rule finds 96-97 % (speech-pauses.ts).
    expect(found / gaps().length).toBeGreaterThanOrEqual(0.66);
    for (const p of heard.pauses) {
      if (isSoftPause(p)) continue;
      expect(p.end - p.start).toBeGreaterThanOrEqual(SPEECH_PAUSE.minSeconds - 1e-6);
      const splits = clip.sentences.some((s) => p.start > s.start + 0.1 && p.end < s.end - 0.1);
      expect(splits, `pause ${p.start}-${p.end}`).toBe(false);
    }
  });

  it("where the model hears speech for long, the quietest place is a soft pause, most of them in a gap", async () => {
    const heard = await speechPausesIn(audio, [{ start: 0, end: C.duration }]);
    const soft = heard.pauses.filter(isSoftPause);
    const firm = heard.pauses.filter((p) => !isSoftPause(p));
    const found = (pauses: typeof firm) => gaps().filter((g) => pauses.some((p) => p.start < g.end && p.end > g.start)).length;
    // Measured: the firm pauses find 29 of 41 gaps, with the soft ones 40; 1 of 12 soft pauses lies in a
    // sentence (a word gap of a long one). With soft pauses in spans from 4 s: 30, 40, and 1 of 14.
    expect(found(heard.pauses) - found(firm)).toBeGreaterThanOrEqual(6);
    expect(found(heard.pauses) / gaps().length).toBeGreaterThanOrEqual(0.9);
    const inSentence = soft.filter((p) => clip.sentences.some((s) => p.start > s.start + 0.1 && p.end < s.end - 0.1));
    expect(inSentence.length).toBeLessThanOrEqual(Math.ceil(soft.length / 7));
    for (const p of soft) {
      expect(p.end - p.start).toBeCloseTo(SOFT_PAUSE.seconds, 2);
      expect(p.end - p.start).toBeLessThan(BOUNDARY_RULES.firmPauseSeconds);
    }
    // None in a span shorter than SOFT_PAUSE.spanSeconds between two firm pauses.
    for (const p of soft) {
      const before = firm.filter((q) => q.end <= p.start).at(-1)?.end ?? 0;
      const after = firm.find((q) => q.start >= p.end)?.start ?? C.duration;
      expect(after - before).toBeGreaterThanOrEqual(SOFT_PAUSE.spanSeconds);
    }
  });

  it("are not heard in a second much louder than the stream's usual level (talk may be masked there, not paused)", async () => {
    const heard = await speechPausesIn(audio, [{ start: 0, end: C.duration }]);
    const p = heard.pauses.find((x) => x.start > 10 && x.end < C.duration - 10)!;
    expect(p).toBeDefined();
    const from = Math.floor(p.start);
    const to = Math.ceil(p.end);
    const loud = audio.loudnessAboveBaselineDb.map((db, s) => (s >= from && s < to ? SPEECH_PAUSE.maxLoudDb + 4 : db));
    const loudLufs = audio.loudnessLufs.map((v, s) => (s >= from && s < to ? audio.baselineLufs + SPEECH_PAUSE.maxLoudDb + 4 : v));
    const again = await speechPausesIn({ ...audio, loudnessAboveBaselineDb: loud, loudnessLufs: loudLufs }, [{ start: 0, end: C.duration }]);
    expect(again.pauses.filter((x) => x.start < to && x.end > from)).toEqual([]);
    // Elsewhere the same pauses.
    expect(again.pauses.filter((x) => x.end <= from - 1 || x.start >= to + 1)).toEqual(heard.pauses.filter((x) => x.end <= from - 1 || x.start >= to + 1));
    // Loud only over the level around it (the streamer said little that minute, the level around is the ambience),
    // not over the whole stream: calm talk, whose pauses are heard as before.
    const aroundOnly = await speechPausesIn({ ...audio, loudnessAboveBaselineDb: loud }, [{ start: 0, end: C.duration }]);
    expect(aroundOnly.pauses).toEqual(heard.pauses);
  });

  it("keep the envelope's pauses outside what was heard and replace them inside", async () => {
    const heard = await speechPausesIn(audio, [{ start: 20, end: 40 }, { start: 35, end: 50 }]);
    expect(heard.heard).toEqual([{ start: 20, end: 50 }]);
    const envelope = [{ start: 5, end: 6 }, { start: 30, end: 31 }, { start: 49, end: 52 }, { start: 80, end: 81 }];
    const merged = withHeardPauses(envelope, heard);
    expect(merged.filter((p) => p.start < 50 && p.end > 20)).toEqual(heard.pauses);
    expect(merged.filter((p) => p.end <= 20 || p.start >= 50)).toEqual([{ start: 5, end: 6 }, { start: 80, end: 81 }]);
  });
});

describe("mergeStretches", () => {
  it("joins touching and overlapping stretches and drops empty ones", () => {
    expect(mergeStretches([{ start: 10, end: 20 }, { start: -3, end: 2 }, { start: 20, end: 25 }, { start: 30, end: 30 }, { start: 24, end: 26 }])).toEqual([
      { start: 0, end: 2 },
      { start: 10, end: 26 },
    ]);
  });
});
