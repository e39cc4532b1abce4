/**
 * A streamer whose microphone comes up 6 dB a few minutes in (turned up, or leaned into) and stays there, with a
 * shout 10 dB over the talk before and after. Against one usual level for the whole stream the calm talk after
 * the change read as a voice raised by the change (usual-level.ts).
 */
import type { Voice } from "../../../dev/synth-streams-b";
import { speakFlite } from "../../../dev/synth-streams-c/flite-voices";
import { ambienceLoop } from "../../../dev/synth-streams-c/game-sounds";
import { STREAMER_SHOUTS } from "../../../dev/synth-streams-c/lines";
import { synthCacheRoot } from "../../../dev/synth-vod";
import { Random } from "../../../dev/synth-vod/random";
import type { TalkClipSpec } from "./talk-clip-fixture";

const STREAMER: Voice = { engine: "flite", name: "rms", speed: 170, pitch: 120, shout: { pitchCents: 150, tempo: 1, overdriveDb: 4 } };

/** The level comes up by `upDb` between `rampFrom` and `rampTo` (seconds); shouts at `shoutsAt`, `shoutDb` over the talk around. */
export const DRIFTING_MIC = { duration: 480, upDb: 6, rampFrom: 200, rampTo: 230, shoutsAt: [100, 380], shoutDb: 10, shoutSeconds: 3 } as const;

export const micLevelAt = (t: number) => {
  const { upDb, rampFrom, rampTo } = DRIFTING_MIC;
  return t <= rampFrom ? 0 : t >= rampTo ? upDb : (upDb * (t - rampFrom)) / (rampTo - rampFrom);
};

const cache = () => synthCacheRoot();

export const DRIFTING_MIC_SPEC: TalkClipSpec = {
  name: "drifting-mic",
  key: { STREAMER, ...DRIFTING_MIC },
  duration: DRIFTING_MIC.duration,
  voiceDb: -24,
  speak: (text, shout) => speakFlite(STREAMER, text, shout, cache()),
  shouts: DRIFTING_MIC.shoutsAt.map((at, i) => ({ at, line: STREAMER_SHOUTS[i % STREAMER_SHOUTS.length]!, db: DRIFTING_MIC.shoutDb, seconds: DRIFTING_MIC.shoutSeconds })),
  underTalk: [],
  ambience: { db: -20, sound: () => ambienceLoop(new Random(3), cache()) },
  voiceLevelAt: micLevelAt,
};
