import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeAudio } from "../../../render-container/src/analysis/analyze-audio";
import type { AudioAnalysis } from "../../../render-container/src/analysis/types";
import { withVoiceActivity } from "../../../render-container/src/analysis/voice-activity";
import { streamerEventLevel } from "../../../render-container/src/selection/evidence";
import { computeSecondScores } from "../../../render-container/src/selection/second-scores";
import { PROFILE_DEFAULTS } from "../../../worker/src/domain/profile-defaults";
import { makeMusicVoiceClip, MUSIC_VOICE_CLIP as C } from "./music-voice-fixtures";

let dir: string;
let voiced: AudioAnalysis;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "voice-music-"));
  const clip = await makeMusicVoiceClip();
  const audio = await analyzeAudio(clip, { durationSeconds: C.duration, keepPcm: { file: path.join(dir, "pcm.s16"), startSeconds: 0 } });
  voiced = (await withVoiceActivity(audio)).audio;
}, 180_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const span = (at: number) => ({ from: at, to: at + 3 });
const maxOver = (xs: readonly number[], r: { from: number; to: number }) => Math.max(...xs.slice(r.from, r.to));

describe("the voice under music: a sting's held notes are not a raised voice", () => {
  it("gives calm talk under a sting a small rise and a shout over one a large rise", () => {
    const calm = C.calmUnderSting.map((at) => maxOver(voiced.voiceRiseDb!, span(at)));
    const shouts = C.shoutOverSting.map((at) => maxOver(voiced.voiceRiseDb!, span(at)));
    // The talk is heard as speech under every sting (else this would test nothing).
    for (const at of C.calmUnderSting) expect(maxOver(voiced.voiceShare!, span(at))).toBeGreaterThan(0.3);
    // Measured: calm 3.8-6.8 dB, shouts 13.8-14.9 dB (without the unheld share one calm talk read 12.2 dB).
    for (const r of calm) expect(r).toBeLessThan(Math.min(...shouts) - 4);
    for (const r of shouts) expect(r).toBeGreaterThan(8);
  });

  it("makes the shouts over stings the streamer's events and none of the calm talk under them", () => {
    const s = computeSecondScores(voiced, null, PROFILE_DEFAULTS.streamer, C.duration).streamer;
    const level = streamerEventLevel(s);
    for (const at of C.shoutOverSting) expect(maxOver(s, span(at))).toBeGreaterThanOrEqual(level);
    for (const at of C.calmUnderSting) expect(maxOver(s, span(at))).toBeLessThan(level);
  });
});
