import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeAudio } from "../../../render-container/src/analysis/analyze-audio";
import type { AudioAnalysis } from "../../../render-container/src/analysis/types";
import { candidateStretches, loadVoiceModel, measureVoiceActivity, NO_VOICE_RISE, readPcm, speechProbabilities, withVoiceActivity } from "../../../render-container/src/analysis/voice-activity";
import { computeSecondScores } from "../../../render-container/src/selection/second-scores";
import { PROFILE_DEFAULTS } from "../../../worker/src/domain/profile-defaults";
import { makeNoisyVoiceClip, NOISY_VOICE_CLIP as C } from "./voice-fixtures";

let dir: string;
let audio: AudioAnalysis;
let voiced: AudioAnalysis;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "voice-activity-"));
  const clip = await makeNoisyVoiceClip();
  audio = await analyzeAudio(clip, { durationSeconds: C.duration, keepPcm: { file: path.join(dir, "pcm.s16"), startSeconds: 0 } });
  voiced = (await withVoiceActivity(audio)).audio;
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const over = (xs: readonly number[], r: { from: number; to: number }) => xs.slice(r.from, r.to);
const max = (xs: readonly number[]) => Math.max(...xs);

describe("the voice-activity model on stream-like audio", () => {
  it("listens to every loud planted sound and to little else", () => {
    const stretches = candidateStretches(audio.loudnessAboveBaselineDb);
    for (const r of [C.impactAlone, C.shoutOverImpact, C.gunfire, C.musicSting, C.calmTalkUnderImpact, C.calmTalkOverGunfire]) {
      expect(stretches.some((s) => s.start <= r.from + 1 && s.end >= r.from + 2)).toBe(true);
    }
    const listened = stretches.reduce((n, s) => n + s.end - s.start, 0);
    expect(listened).toBeLessThan(C.duration * 0.75);
  });

  it("hears a shout over an explosion as speech", () => {
    const share = over(voiced.voiceShare!, C.shoutOverImpact);
    expect(max(share)).toBeGreaterThan(0.6);
    expect(share.filter((v) => v >= 0.5).length).toBeGreaterThanOrEqual(2);
  });

  it("does not take an explosion, gunfire or a music sting alone for speech", () => {
    for (const r of [C.impactAlone, C.gunfire, C.musicSting]) expect(max(over(voiced.voiceShare!, r))).toBeLessThan(0.2);
  });

  it("measures how far the voice itself rises: a shout well over the usual talk, calm talk under an explosion hardly", () => {
    const rise = (r: { from: number; to: number }) => Math.max(...over(voiced.voiceRiseDb!, r));
    // The shout is espeak at five times the calm talk's amplitude (+14 dB); under the explosion part of its
    // windows lose their periodicity, so its measured rise is somewhat less, but well over the talk's.
    expect(rise(C.shoutOverImpact)).toBeGreaterThan(8);
    expect(rise(C.calmTalkUnderImpact)).toBeLessThan(rise(C.shoutOverImpact) / 2);
    // Where the voice model heard no speech there is no voice level to give.
    for (const r of [C.impactAlone, C.gunfire, C.musicSting]) expect(rise(r)).toBe(NO_VOICE_RISE);
  });

  it("does not take calm talk through a firefight for a raised voice: the gunfire's power is not the voice's", () => {
    // The model hears speech through most of it (the talk never stops), so its share alone cannot tell; the
    // voice's rise is measured on the periodic part of each speech window, which the cracks do not have.
    const rise = (r: { from: number; to: number }) => Math.max(...over(voiced.voiceRiseDb!, r));
    const fight = { from: C.calmTalkOverGunfire.from + 1, to: C.calmTalkOverGunfire.to };
    expect(max(over(voiced.voiceShare!, fight))).toBeGreaterThan(0.5);
    expect(max(over(audio.loudnessAboveBaselineDb, fight))).toBeGreaterThan(6);
    expect(rise(fight)).toBeLessThan(6);
    expect(rise(fight)).toBeLessThan(rise(C.shoutOverImpact) - 8);
    const s = computeSecondScores(voiced, null, PROFILE_DEFAULTS.streamer, C.duration).streamer;
    expect(max(over(s, fight))).toBeLessThan(max(over(s, C.shoutOverImpact)) / 4);
  });

  it("gives calm talk under a loud explosion little of the loudness (the explosion's, not the voice's)", () => {
    // The first two seconds of the impact are where it is loud; the talk under it carries little of that energy.
    expect(max(over(voiced.voiceShare!, { from: C.calmTalkUnderImpact.from, to: C.calmTalkUnderImpact.from + 2 }))).toBeLessThan(0.4);
  });

  it("makes the shout the streamer's moment and none of the game sounds", () => {
    const s = computeSecondScores(voiced, null, PROFILE_DEFAULTS.streamer, C.duration).streamer;
    expect(max(over(s, C.shoutOverImpact))).toBeGreaterThan(0.25);
    for (const r of [C.impactAlone, C.gunfire, C.musicSting]) expect(max(over(s, r))).toBeLessThan(0.05);
    expect(max(over(s, C.calmTalkUnderImpact))).toBeLessThan(0.05);
  });

  it("where the voice band alone took rapid gunfire for syllables", () => {
    // The earlier measure (syllable-like peaks in the 300-3000 Hz band) scores the gunfire as excited speech:
    // eight cracks a second look like fast syllables. This is what the model is for.
    const band = computeSecondScores(audio, null, PROFILE_DEFAULTS.streamer, C.duration).streamer;
    expect(max(over(band, C.gunfire))).toBeGreaterThan(0.5);
  });

  it("answers the same in batched lanes as in one pass over the audio", async () => {
    const model = await loadVoiceModel();
    const samples = readPcm(audio.pcm!, C.shoutOverImpact.from - 2, C.musicSting.to, 8000);
    const one = await speechProbabilities(model, samples, { maxLanes: 1 });
    const many = await speechProbabilities(model, samples, { maxLanes: 16, minLaneWindows: 32 });
    expect(many.length).toBe(one.length);
    const speechOne = one.map((p) => (p >= 0.5 ? 1 : 0));
    const speechMany = many.map((p) => (p >= 0.5 ? 1 : 0));
    let agree = 0;
    for (let i = 0; i < one.length; i++) if (speechOne[i] === speechMany[i]) agree++;
    expect(agree / one.length).toBeGreaterThan(0.95);
  });

  it("leaves the analysis as it was, with a warning, when the model cannot run", async () => {
    const r = await withVoiceActivity(audio, { model: { run: () => Promise.reject(new Error("no runtime")) } });
    expect(r.audio.voiceShare).toBeUndefined();
    expect(r.warning).toMatch(/voice-activity model could not run \(no runtime\)/);
  });

  it("measures nothing when nothing is loud", async () => {
    // Quiet on both readings: over the level around each second and over the whole stream's median.
    const quiet = { ...audio, loudnessAboveBaselineDb: audio.loudnessAboveBaselineDb.map(() => 0), loudnessLufs: audio.loudnessLufs.map(() => audio.baselineLufs) };
    const r = await measureVoiceActivity(quiet);
    expect(r.measuredSeconds).toBe(0);
    expect(r.voiceShare.every((v) => v === -1)).toBe(true);
  });
});
