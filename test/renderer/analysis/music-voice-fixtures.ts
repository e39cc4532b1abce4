/**
 * Calm talk under music stings and shouts over them, made with the second evaluation source's own sounds (an
 * espeak-ng voice with its shout, sox chord arpeggios with reverb: dev/synth-streams-b) and cached in the synth
 * cache. The first fixture's sting (voice-fixtures.ts) is a plain FFmpeg chord, under which the voice model hears
 * no calm talk at all; under these it does, and their held notes then lend the talk their periodic power.
 */
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { createHash } from "node:crypto";
import { STREAMS_B_VERSION } from "../../../dev/synth-streams-b";
import { sting } from "../../../dev/synth-streams-b/game-sounds";
import { mixToFlac, type Placed } from "../../../dev/synth-streams-b/mix";
import { gainFor } from "../../../dev/synth-streams-b/sox-clip";
import { drawVoice, speak } from "../../../dev/synth-streams-b/voices";
import { Random } from "../../../dev/synth-vod/random";
import { synthCacheRoot } from "../../../dev/synth-vod";

/** Seconds of each planted sound; calm talk runs everywhere else. Stings are 6 dB over the talk, shouts 12. */
export const MUSIC_VOICE_CLIP = {
  duration: 130,
  calmUnderSting: [20, 45, 70],
  shoutOverSting: [95, 115],
  voiceDb: -22,
  stingDb: 6,
  shoutDb: 12,
} as const;

const TALK = ["Okay so the plan is we rotate to the left side", "That crate had nothing in it, unlucky", "I will show the build after this round", "Thanks for the bits, that is very kind"];
const SHOUT = "NO WAY! ARE YOU KIDDING ME?";

export async function makeMusicVoiceClip(): Promise<string> {
  const c = MUSIC_VOICE_CLIP;
  const hash = createHash("sha256").update(JSON.stringify({ c, TALK, SHOUT, v: STREAMS_B_VERSION })).digest("hex").slice(0, 12);
  const target = path.join(os.tmpdir(), "highlight-test-media", "analysis", `music-voice-${hash}.flac`);
  if (fs.existsSync(target)) return target;
  const cache = synthCacheRoot();
  const voice = drawVoice(new Random(1));
  const calm = await Promise.all(TALK.map((t) => speak(voice, t, false, cache)));
  const shout = await speak(voice, SHOUT, true, cache);
  const placed: Placed[] = [];
  // Talk fills the clip but for the shouts' few seconds: the usual talking level is read on it.
  const busy = c.shoutOverSting.map((at) => ({ from: at - 2, to: at + 4 }));
  let k = 0;
  for (let t = 0; t < c.duration - 4; ) {
    const b = busy.find((x) => t >= x.from && t < x.to);
    if (b) {
      t = b.to;
      continue;
    }
    const s = calm[k++ % calm.length]!;
    placed.push({ sound: s, start: t, gain: gainFor(s, c.voiceDb) });
    t += s.duration + 0.4;
  }
  for (const at of c.shoutOverSting) placed.push({ sound: shout, start: at, gain: gainFor(shout, c.voiceDb + c.shoutDb) });
  // Each sting its own (wave, root, arpeggio step and reverb drawn from its seed).
  const at = [...c.calmUnderSting, ...c.shoutOverSting];
  for (let i = 0; i < at.length; i++) {
    const s = await sting(new Random(10 + i), cache);
    placed.push({ sound: s, start: at[i]!, gain: gainFor(s, c.voiceDb + c.stingDb) });
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.part.flac`;
  await mixToFlac(c.duration, placed, [], 1, tmp);
  fs.renameSync(tmp, target);
  return target;
}
