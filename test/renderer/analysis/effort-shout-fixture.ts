/**
 * Calm talk with shouts only a little louder than it (+5 dB RMS) but raised in pitch, quickened and
 * overdriven: vocal effort that shows in the voice's pitch and brightness more than in its level, as a shout
 * does through a compressed microphone; and calm talk through gunfire louder than the shouts. Made with the third evaluation source's sounds (a flite voice, its
 * shout recipe, the game's ambience: dev/synth-streams-c) and cached in the system temp folder.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Voice } from "../../../dev/synth-streams-b";
import { mixToFlac, type Placed } from "../../../dev/synth-streams-b/mix";
import { gainFor } from "../../../dev/synth-streams-b/sox-clip";
import { speakFlite } from "../../../dev/synth-streams-c/flite-voices";
import { ambienceLoop, gunfire } from "../../../dev/synth-streams-c/game-sounds";
import { STREAMER_SHOUTS, STREAMER_TALK } from "../../../dev/synth-streams-c/lines";
import { synthCacheRoot } from "../../../dev/synth-vod";
import { Random } from "../../../dev/synth-vod/random";
import { analyzeAudio } from "../../../render-container/src/analysis/analyze-audio";
import type { AudioAnalysis } from "../../../render-container/src/analysis/types";
import { withVoiceActivity } from "../../../render-container/src/analysis/voice-activity";

export const EFFORT_SHOUT = { duration: 160, voiceDb: -24, ambienceDb: -44, shoutAt: [30, 65, 100, 135], shoutSeconds: 3, shoutDb: 5, calmUnderGunfire: [48, 83, 118], gunfireDb: 8 } as const;
const VOICE: Voice = { engine: "flite", name: "slt", speed: 175, pitch: 190, shout: { pitchCents: 260, tempo: 1.15, overdriveDb: 4 } };
const SHOUTS = [STREAMER_SHOUTS[3], STREAMER_SHOUTS[4], STREAMER_SHOUTS[5], STREAMER_SHOUTS[6]] as const;

export interface EffortShout {
  file: string;
  /** Each shout's [start, end], seconds. */
  shouts: { start: number; end: number }[];
}

export async function makeEffortShout(): Promise<EffortShout> {
  const c = EFFORT_SHOUT;
  const hash = createHash("sha256").update(JSON.stringify({ c, VOICE, SHOUTS, talk: STREAMER_TALK, v: 1 })).digest("hex").slice(0, 12);
  const target = path.join(os.tmpdir(), "highlight-test-media", "analysis", `effort-shout-${hash}`);
  const truthFile = `${target}.json`;
  if (fs.existsSync(truthFile)) return JSON.parse(fs.readFileSync(truthFile, "utf8")) as EffortShout;
  const cache = synthCacheRoot();
  const rng = new Random(5);
  const placed: Placed[] = [];
  const shouts: EffortShout["shouts"] = [];
  // Each shout is a line said again and again for a few seconds, as the evaluation's streamers shout.
  for (let i = 0; i < c.shoutAt.length; i++) {
    const s = await speakFlite(VOICE, SHOUTS[i]!, true, cache);
    let t = c.shoutAt[i]!;
    do {
      placed.push({ sound: s, start: t, gain: gainFor(s, c.voiceDb + c.shoutDb) });
      t += s.duration + 0.2;
    } while (t < c.shoutAt[i]! + c.shoutSeconds);
    shouts.push({ start: c.shoutAt[i]!, end: t - 0.2 });
  }
  // Calm talk everywhere else, a second clear of each shout.
  let k = 0;
  for (let t = 1; t < c.duration - 6; ) {
    const s = await speakFlite(VOICE, STREAMER_TALK[k++ % STREAMER_TALK.length]!, false, cache);
    const clash = shouts.find((x) => t < x.end + 1 && t + s.duration > x.start - 1);
    if (clash) {
      t = clash.end + 1;
      continue;
    }
    placed.push({ sound: s, start: t, gain: gainFor(s, c.voiceDb) });
    t += s.duration + rng.range(0.4, 1);
  }
  // Calm talk goes on through bursts of gunfire louder than the shouts: loud, but not the streamer.
  for (let i = 0; i < c.calmUnderGunfire.length; i++) {
    const g = await gunfire(new Random(20 + i), cache);
    placed.push({ sound: g, start: c.calmUnderGunfire[i]!, gain: gainFor(g, c.voiceDb + c.gunfireDb) });
  }
  const ambience = await ambienceLoop(new Random(2), cache);
  const ambienceGain = gainFor(ambience, c.ambienceDb);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.part.flac`;
  await mixToFlac(c.duration, placed, [{ sound: ambience, gainAt: () => ambienceGain }], 1, tmp);
  const result: EffortShout = { file: `${target}.flac`, shouts };
  fs.renameSync(tmp, result.file);
  fs.writeFileSync(truthFile, JSON.stringify(result));
  return result;
}

/** The clip analysed as a job analyses its audio (PCM kept in a folder of its own, removed by `dispose`). */
export async function analysedEffortShout(): Promise<{ clip: EffortShout; audio: AudioAnalysis; dispose: () => Promise<void> }> {
  const clip = await makeEffortShout();
  const dir = await mkdtemp(path.join(os.tmpdir(), "effort-shout-"));
  const analysed = await analyzeAudio(clip.file, { durationSeconds: EFFORT_SHOUT.duration, keepPcm: { file: path.join(dir, "pcm.s16"), startSeconds: 0 } });
  const audio = (await withVoiceActivity(analysed)).audio;
  return { clip, audio, dispose: () => rm(dir, { recursive: true, force: true }) };
}
