/**
 * Audio/video made with real ffmpeg and espeak-ng for the analysis tests, cached in the OS temp folder by
 * content key so repeated runs share one encode.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runProcess } from "../../../render-container/src/ffmpeg/process";
import { runFfmpeg } from "../../../render-container/src/ffmpeg/run-ffmpeg";

const DIR = path.join(os.tmpdir(), "highlight-test-media", "analysis");

async function cached(name: string, key: unknown, ext: string, build: (tmp: string) => Promise<void>): Promise<string> {
  const hash = createHash("sha256").update(JSON.stringify(key)).digest("hex").slice(0, 12);
  const target = path.join(DIR, `${name}-${hash}${ext}`);
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(DIR, { recursive: true });
  const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.part${ext}`;
  await build(tmp);
  fs.renameSync(tmp, target);
  return target;
}

/** The planted events of the audio clip, in seconds. */
export const AUDIO_CLIP = {
  duration: 40,
  speech: { at: 5, text: "Okay so here we go, I think we can make this jump if we are careful." },
  /** A one-second 30 dB burst: the loudest second of the clip. */
  loudSecond: 23,
  /** Digital silence, as in a DMCA-muted stretch. */
  silence: { start: 30, end: 32 },
} as const;

/**
 * 40 s of stereo AAC in MPEG-TS like Twitch's audio_only rendition: a quiet pink-noise bed, a spoken sentence
 * at 5 s, a loud tone burst for one second at 23 s, digital silence 30-32 s.
 */
export function makeAudioClip(): Promise<string> {
  const c = AUDIO_CLIP;
  return cached("audio-clip", { ...c, v: 2 }, ".ts", async (tmp) => {
    const wav = `${tmp}.speech.wav`;
    await runProcess("espeak-ng", ["-v", "en-us", "-s", "150", "-a", "40", "-w", wav, c.speech.text]);
    // The bed sits above silencedetect's -45 dB so only the muted stretch reads as silence.
    const bed = `anoisesrc=d=${c.duration}:c=pink:a=0.05:r=48000:seed=7`;
    const burst = `sine=f=660:d=${c.duration}:r=48000`;
    const s = c.silence;
    await runFfmpeg([
      "-f", "lavfi", "-i", bed,
      "-f", "lavfi", "-i", burst,
      "-i", wav,
      "-filter_complex",
      [
        `[1:a]volume='if(between(t,${c.loudSecond},${c.loudSecond + 1}),6,0)':eval=frame[b]`,
        `[2:a]aresample=48000,adelay=${c.speech.at * 1000}:all=1[v]`,
        `[0:a][b][v]amix=inputs=3:normalize=0:duration=first,volume='if(between(t,${s.start},${s.end}),0,1)':eval=frame,aformat=channel_layouts=stereo[out]`,
      ].join(";"),
      "-map", "[out]", "-c:a", "aac", "-b:a", "128k", "-f", "mpegts", tmp,
    ]);
    fs.rmSync(wav, { force: true });
  });
}

/**
 * A stream of talk whose level steps up by 8 dB halfway (the streamer turned the gain up), with a 10 dB louder
 * stretch of it in each half: one espeak-ng sentence and a pause, looped over a quiet pink-noise bed, as FLAC.
 */
export const STEPPED_LEVEL = { duration: 360, stepAt: 180, stepDb: 8, burstDb: 10, bursts: [90, 270], burstSeconds: 6 } as const;

export function makeSteppedLevelClip(): Promise<string> {
  const c = STEPPED_LEVEL;
  return cached("stepped-level", { ...c, v: 3 }, ".flac", async (tmp) => {
    const wav = `${tmp}.speech.wav`;
    await runProcess("espeak-ng", ["-v", "en-us", "-s", "160", "-a", "60", "-w", wav, "So we go left here and then we loot the chest before the boss wakes up."]);
    const step = 10 ** (c.stepDb / 20);
    const burst = 10 ** (c.burstDb / 20);
    const inBurst = c.bursts.map((b) => `between(t,${b},${b + c.burstSeconds})`).join("+");
    await runFfmpeg([
      "-stream_loop", "-1", "-i", wav,
      "-f", "lavfi", "-i", `anoisesrc=d=${c.duration}:c=pink:a=0.015:r=48000:seed=11`,
      "-filter_complex",
      [
        `[0:a]aresample=48000,apad=pad_dur=0.6,atrim=0:${c.duration}[talk]`,
        `[talk][1:a]amix=inputs=2:normalize=0:duration=first,volume='0.2*if(gte(t,${c.stepAt}),${step},1)*if(${inBurst},${burst},1)':eval=frame[out]`,
      ].join(";"),
      "-map", "[out]", "-t", String(c.duration), "-c:a", "flac", tmp,
    ]);
    fs.rmSync(wav, { force: true });
  });
}

/** Scene changes of the video clip: colour/pattern switches at these seconds. */
export const VIDEO_CLIP = { duration: 14, cuts: [4, 9] } as const;

/** A small H.264 clip (keyframes every 2 s, like Twitch) with hard scene changes at VIDEO_CLIP.cuts. */
export function makeVideoClip(): Promise<string> {
  const v = VIDEO_CLIP;
  return cached("video-clip", v, ".ts", async (tmp) => {
    const [a, b] = v.cuts;
    await runFfmpeg([
      "-f", "lavfi", "-i", `color=c=red:s=320x180:r=30:d=${a}`,
      "-f", "lavfi", "-i", `testsrc=s=320x180:r=30:d=${b! - a!}`,
      "-f", "lavfi", "-i", `color=c=blue:s=320x180:r=30:d=${v.duration - b!}`,
      "-filter_complex", "[0:v][1:v][2:v]concat=n=3:v=1:a=0[v]",
      "-map", "[v]", "-c:v", "libx264", "-preset", "ultrafast", "-g", "60", "-keyint_min", "60", "-sc_threshold", "0",
      "-f", "mpegts", tmp,
    ]);
  });
}
