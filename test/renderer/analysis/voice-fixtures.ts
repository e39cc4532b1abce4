/**
 * A minute of stream-like audio for the voice-activity tests, made with real ffmpeg and espeak-ng and cached in
 * the OS temp folder: the sounds a streamer's shout competes with, each alone and once under the shout.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHash } from "node:crypto";
import { runFfmpeg } from "../../../render-container/src/ffmpeg/run-ffmpeg";
import { speakWav } from "../../support/media";

const DIR = path.join(os.tmpdir(), "highlight-test-media", "analysis");

/** Seconds of each planted sound ([from, to)); a quiet game bed (pink noise) runs under everything. */
export const NOISY_VOICE_CLIP = {
  duration: 74,
  calmTalk: { from: 4, to: 10, text: "so I think we should check the map real quick and then head over there" },
  impactAlone: { from: 14, to: 18 },
  shoutOverImpact: { from: 22, to: 27, text: "no no no way! let's go! what was that" },
  gunfire: { from: 31, to: 36 },
  musicSting: { from: 40, to: 46 },
  calmTalkUnderImpact: { from: 50, to: 56, text: "okay so maybe we go left this time and see what happens" },
  /** Calm talk on and on through a firefight: the gunfire is louder than the voice for the whole sentence. */
  calmTalkOverGunfire: { from: 64, to: 71, text: "so I am just going to hold this corner and wait for them to push up" },
  /** Ordinary talk between the events, as on a stream: the streamer's usual talking level is measured here. */
  talk: [
    { from: 10, text: "right so the loot here is not great" },
    { from: 18, text: "I wonder what is behind that door" },
    { from: 27, text: "fine we keep moving along the wall" },
    { from: 36, text: "let me check the inventory quickly" },
    { from: 46, text: "okay here we go again I guess" },
    { from: 57, text: "that was fun we should do it again" },
  ],
} as const;

/** A decaying brown-noise impact (an explosion) starting at `at`, `seconds` long, on input `label`. */
const impact = (at: number, seconds: number) => `anoisesrc=d=${seconds}:c=brown:a=0.9:r=48000:seed=${at},volume='3*exp(-t*0.9)':eval=frame,adelay=${at * 1000}:all=1`;

export async function makeNoisyVoiceClip(): Promise<string> {
  const c = NOISY_VOICE_CLIP;
  const calm = await speakWav(c.calmTalk.text, { amplitude: 40 });
  const shout = await speakWav(c.shoutOverImpact.text, { amplitude: 200, speed: 190, voice: "en-us+m3" });
  const under = await speakWav(c.calmTalkUnderImpact.text, { amplitude: 40 });
  const overGun = await speakWav(c.calmTalkOverGunfire.text, { amplitude: 40 });
  const talk = await Promise.all(c.talk.map((t) => speakWav(t.text, { amplitude: 40 })));
  const hash = createHash("sha256").update(JSON.stringify({ c, v: 5 })).digest("hex").slice(0, 12);
  const target = path.join(DIR, `noisy-voice-${hash}.ts`);
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(DIR, { recursive: true });
  const tmp = `${target}.${process.pid}.part.ts`;
  const g = c.gunfire;
  const fight = c.calmTalkOverGunfire;
  const m = c.musicSting;
  await runFfmpeg([
    "-f", "lavfi", "-i", `anoisesrc=d=${c.duration}:c=pink:a=0.03:r=48000:seed=3`,
    "-i", calm, "-i", shout, "-i", under, ...talk.flatMap((t) => ["-i", t]), "-i", overGun,
    "-filter_complex",
    [
      `[1:a]aresample=48000,adelay=${c.calmTalk.from * 1000}:all=1[calm]`,
      `[2:a]aresample=48000,adelay=${c.shoutOverImpact.from * 1000 + 300}:all=1[shout]`,
      `[3:a]aresample=48000,adelay=${c.calmTalkUnderImpact.from * 1000 + 300}:all=1[under]`,
      `${impact(c.impactAlone.from, 4)}[i1]`,
      `${impact(c.shoutOverImpact.from, 5)}[i2]`,
      `${impact(c.calmTalkUnderImpact.from, 5)}[i3]`,
      // Gunfire: 80 ms white-noise cracks, eight a second.
      `anoisesrc=d=${g.to - g.from}:c=white:a=0.8:r=48000:seed=5,volume='if(lt(mod(t,0.125),0.08),1,0)':eval=frame,adelay=${g.from * 1000}:all=1[gun]`,
      // A victory sting: a major chord, loud.
      `sine=f=262:d=${m.to - m.from}:r=48000[n1];sine=f=330:d=${m.to - m.from}:r=48000[n2];sine=f=392:d=${m.to - m.from}:r=48000[n3];sine=f=523:d=${m.to - m.from}:r=48000[n4]`,
      `[n1][n2][n3][n4]amix=inputs=4:normalize=0,volume=1.2,adelay=${m.from * 1000}:all=1[music]`,
      ...c.talk.map((t, k) => `[${4 + k}:a]aresample=48000,adelay=${t.from * 1000}:all=1[t${k}]`),
      `[${4 + c.talk.length}:a]aresample=48000,adelay=${fight.from * 1000 + 300}:all=1[overgun]`,
      // The firefight: bursts of cracks (as above) with short breaks, from just before the talk to its end.
      `anoisesrc=d=${fight.to - fight.from}:c=white:a=0.6:r=48000:seed=7,volume='if(lt(mod(t,0.125),0.07)*lt(mod(t,1.6),1.2),1,0)':eval=frame,adelay=${fight.from * 1000}:all=1[fight]`,
      `[0:a][calm][shout][under][i1][i2][i3][gun][music][overgun][fight]${c.talk.map((_, k) => `[t${k}]`).join("")}amix=inputs=${11 + c.talk.length}:normalize=0:duration=first,aformat=channel_layouts=stereo[out]`,
    ].join(";"),
    "-map", "[out]", "-c:a", "aac", "-b:a", "128k", "-f", "mpegts", tmp,
  ]);
  fs.renameSync(tmp, target);
  return target;
}
