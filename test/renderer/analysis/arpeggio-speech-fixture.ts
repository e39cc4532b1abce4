/**
 * Calm talk with known pauses between its sentences under a busy music bed, made with the third evaluation
 * source's own sounds (a flite voice, a sixteenth-note arpeggio over a pad and a bass: dev/synth-streams-c), and
 * a shout over an impact at SHOUT_AT. Under this bed the voice-band envelope never falls to its floor between
 * sentences, so it finds no pause (speech-pauses.ts). Cached in the system temp folder.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { mixToFlac, type Placed } from "../../../dev/synth-streams-b/mix";
import { gainFor } from "../../../dev/synth-streams-b/sox-clip";
import { drawFliteVoice, speakFlite } from "../../../dev/synth-streams-c/flite-voices";
import { impact, musicLoop } from "../../../dev/synth-streams-c/game-sounds";
import { STREAMER_TALK } from "../../../dev/synth-streams-c/lines";
import { synthCacheRoot } from "../../../dev/synth-vod";
import { Random } from "../../../dev/synth-vod/random";
import { analyzeAudio } from "../../../render-container/src/analysis/analyze-audio";
import type { AudioAnalysis } from "../../../render-container/src/analysis/types";
import { withVoiceActivity } from "../../../render-container/src/analysis/voice-activity";

export const ARPEGGIO_SPEECH = { duration: 150, voiceDb: -22, musicDb: -34, shoutAt: 75, shoutDb: 10, impactDb: 6 } as const;
const SHOUT = "NO WAY! THAT WAS INSANE!";

export interface ArpeggioSpeech {
  file: string;
  /** Each sentence's [start, end], seconds (the shout's too). */
  sentences: { start: number; end: number }[];
}

export async function makeArpeggioSpeech(): Promise<ArpeggioSpeech> {
  const c = ARPEGGIO_SPEECH;
  const hash = createHash("sha256").update(JSON.stringify({ c, SHOUT, talk: STREAMER_TALK, v: 1 })).digest("hex").slice(0, 12);
  const target = path.join(os.tmpdir(), "highlight-test-media", "analysis", `arpeggio-speech-${hash}`);
  const truthFile = `${target}.json`;
  if (fs.existsSync(truthFile)) return JSON.parse(fs.readFileSync(truthFile, "utf8")) as ArpeggioSpeech;
  const cache = synthCacheRoot();
  const rng = new Random(7);
  const voice = drawFliteVoice(rng);
  const placed: Placed[] = [];
  const sentences: ArpeggioSpeech["sentences"] = [];
  const shout = await speakFlite(voice, SHOUT, true, cache);
  let k = 0;
  for (let t = 1; t < c.duration - 6; ) {
    if (t > c.shoutAt - 5 && t < c.shoutAt + shout.duration + 1) {
      t = c.shoutAt + shout.duration + 1;
      continue;
    }
    const s = await speakFlite(voice, STREAMER_TALK[k++ % STREAMER_TALK.length]!, false, cache);
    if (t < c.shoutAt && t + s.duration > c.shoutAt - 1) {
      t = c.shoutAt + shout.duration + 1;
      continue;
    }
    placed.push({ sound: s, start: t, gain: gainFor(s, c.voiceDb) });
    sentences.push({ start: t, end: t + s.duration });
    // Pauses between sentences of 0.5-1.2 s, as a streamer talks on.
    t += s.duration + rng.range(0.5, 1.2);
  }
  placed.push({ sound: shout, start: c.shoutAt, gain: gainFor(shout, c.voiceDb + c.shoutDb) });
  sentences.push({ start: c.shoutAt, end: c.shoutAt + shout.duration });
  const boom = await impact(new Random(3), cache);
  placed.push({ sound: boom, start: c.shoutAt - 0.3, gain: gainFor(boom, c.voiceDb + c.impactDb) });
  const music = await musicLoop(new Random(11), cache);
  const musicGain = gainFor(music, c.musicDb);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.part.flac`;
  await mixToFlac(c.duration, placed, [{ sound: music, gainAt: () => musicGain }], 1, tmp);
  const result: ArpeggioSpeech = { file: `${target}.flac`, sentences: sentences.sort((a, b) => a.start - b.start) };
  fs.renameSync(tmp, result.file);
  fs.writeFileSync(truthFile, JSON.stringify(result));
  return result;
}

/**
 * The clip analysed as a job analyses its audio: the PCM kept in a folder of its own (removed by `dispose`) and
 * the voice-activity model run on the loud stretches.
 */
export async function analysedArpeggioSpeech(): Promise<{ clip: ArpeggioSpeech; audio: AudioAnalysis; dispose: () => Promise<void> }> {
  const clip = await makeArpeggioSpeech();
  const dir = await mkdtemp(path.join(os.tmpdir(), "arpeggio-speech-"));
  const analysed = await analyzeAudio(clip.file, { durationSeconds: ARPEGGIO_SPEECH.duration, keepPcm: { file: path.join(dir, "pcm.s16"), startSeconds: 0 } });
  const audio = (await withVoiceActivity(analysed)).audio;
  return { clip, audio, dispose: () => rm(dir, { recursive: true, force: true }) };
}
