/**
 * A clip of calm talk with shouts and game sounds placed in it, made with the evaluation sources' sounds and
 * analysed as a job analyses its audio. The fixtures that test how the streamer's voice is measured (an effortful
 * shout, a monotone voice) are specs of this one builder. Cached in the system temp folder by the spec's key.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { mixToFlac, type Placed } from "../../../dev/synth-streams-b/mix";
import { gainFor, type Sound } from "../../../dev/synth-streams-b/sox-clip";
import { STREAMER_TALK } from "../../../dev/synth-streams-c/lines";
import { Random } from "../../../dev/synth-vod/random";
import { analyzeAudio } from "../../../render-container/src/analysis/analyze-audio";
import type { AudioAnalysis } from "../../../render-container/src/analysis/types";
import { withVoiceActivity } from "../../../render-container/src/analysis/voice-activity";

export interface TalkClipSpec {
  /** Names the cached file; `key` holds everything the sounds are made from. */
  name: string;
  key: unknown;
  duration: number;
  /** RMS of the calm talk, dBFS; every other level is relative to it. */
  voiceDb: number;
  speak: (text: string, shout: boolean) => Promise<Sound>;
  /** Each shout: a line said again and again for `seconds`, as the evaluation's streamers shout. */
  shouts: { at: number; line: string; db: number; seconds: number }[];
  /** Game sounds under the calm talk (the talk goes on through them). */
  underTalk: { at: number; db: number; sound: () => Promise<Sound> }[];
  /** A second voice taking turns with the streamer (a guest): each line placed at `at`, the streamer silent then. */
  turns?: { at: number; db: number; sound: () => Promise<Sound> }[];
  ambience: { db: number; sound: () => Promise<Sound> };
  /** An FFmpeg filter over the whole mix (a broadcast compressor), as the evaluation's `--mix compressed`. */
  masterFilter?: string;
  /** The streamer's microphone level at second t, dB over `voiceDb` (its talk and shouts; default 0). */
  voiceLevelAt?: (t: number) => number;
}

export interface TalkClip {
  file: string;
  /** Each shout's [start, end], seconds. */
  shouts: { start: number; end: number }[];
}

export async function makeTalkClip(spec: TalkClipSpec): Promise<TalkClip> {
  const hash = createHash("sha256").update(JSON.stringify({ ...spec, talk: STREAMER_TALK, v: 2 })).digest("hex").slice(0, 12);
  const mic = (t: number) => spec.voiceLevelAt?.(t) ?? 0;
  const target = path.join(os.tmpdir(), "highlight-test-media", "analysis", `${spec.name}-${hash}`);
  const truthFile = `${target}.json`;
  if (fs.existsSync(truthFile)) return JSON.parse(fs.readFileSync(truthFile, "utf8")) as TalkClip;
  const placed: Placed[] = [];
  const shouts: TalkClip["shouts"] = [];
  for (const x of spec.shouts) {
    const s = await spec.speak(x.line, true);
    let t = x.at;
    do {
      placed.push({ sound: s, start: t, gain: gainFor(s, spec.voiceDb + x.db + mic(t)) });
      t += s.duration + 0.2;
    } while (t < x.at + x.seconds);
    shouts.push({ start: x.at, end: t - 0.2 });
  }
  const turnSpans: TalkClip["shouts"] = [];
  for (const x of spec.turns ?? []) {
    const s = await x.sound();
    placed.push({ sound: s, start: x.at, gain: gainFor(s, spec.voiceDb + x.db) });
    turnSpans.push({ start: x.at, end: x.at + s.duration });
  }
  // Calm talk everywhere else, a second clear of each shout and of each turn of the other voice.
  const rng = new Random(5);
  let k = 0;
  for (let t = 1; t < spec.duration - 6; ) {
    const s = await spec.speak(STREAMER_TALK[k++ % STREAMER_TALK.length]!, false);
    const clash = [...shouts, ...turnSpans].find((x) => t < x.end + 1 && t + s.duration > x.start - 1);
    if (clash) {
      t = clash.end + 1;
      continue;
    }
    placed.push({ sound: s, start: t, gain: gainFor(s, spec.voiceDb + mic(t)) });
    t += s.duration + rng.range(0.4, 1);
  }
  for (const x of spec.underTalk) {
    const s = await x.sound();
    placed.push({ sound: s, start: x.at, gain: gainFor(s, spec.voiceDb + x.db) });
  }
  const ambience = await spec.ambience.sound();
  const ambienceGain = gainFor(ambience, spec.voiceDb + spec.ambience.db);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.part.flac`;
  await mixToFlac(spec.duration, placed, [{ sound: ambience, gainAt: () => ambienceGain }], 1, tmp, spec.masterFilter);
  const result: TalkClip = { file: `${target}.flac`, shouts };
  fs.renameSync(tmp, result.file);
  fs.writeFileSync(truthFile, JSON.stringify(result));
  return result;
}

/** The clip analysed as a job analyses its audio (PCM kept in a folder of its own, removed by `dispose`). */
export async function analysedTalkClip(spec: TalkClipSpec): Promise<{ clip: TalkClip; audio: AudioAnalysis; dispose: () => Promise<void> }> {
  const clip = await makeTalkClip(spec);
  const dir = await mkdtemp(path.join(os.tmpdir(), `${spec.name}-`));
  const analysed = await analyzeAudio(clip.file, { durationSeconds: spec.duration, keepPcm: { file: path.join(dir, "pcm.s16"), startSeconds: 0 } });
  const audio = (await withVoiceActivity(analysed)).audio;
  return { clip, audio, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * The clip of `spec`, analysed once before the importing file's tests (the PCM folder removed after them). Read
 * `clip` and `audio` inside tests.
 */
export function useAnalysedTalkClip(spec: TalkClipSpec): { readonly clip: TalkClip; readonly audio: AudioAnalysis } {
  let made: Awaited<ReturnType<typeof analysedTalkClip>> | undefined;
  beforeAll(async () => {
    made = await analysedTalkClip(spec);
  }, 180_000);
  afterAll(() => made?.dispose());
  return {
    get clip() {
      return made!.clip;
    },
    get audio() {
      return made!.audio;
    },
  };
}

/** The largest of `xs` over the seconds from `from` to `to` (a span's partial seconds included). */
export const maxFrom = (xs: readonly number[], from: number, to: number) => Math.max(...xs.slice(Math.floor(from), Math.ceil(to)));
