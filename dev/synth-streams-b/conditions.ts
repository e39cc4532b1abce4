import { Random } from "../synth-vod/random";
import { PALETTE_B, type Palette } from "./palette";
import type { Voice } from "./voices";

/**
 * One condition per stream, each varying what the first generator (dev/synth-vod) holds fixed; every stream
 * also draws its own voices, loudness levels, chat lag (2-30 s), game sounds, and whether a music bed plays and
 * a raid comes.
 */
export type Condition = "late_chat" | "music_bed" | "huge_chat" | "small_chat" | "duo" | "long_stream" | "loud_game";
export const CONDITIONS: readonly Condition[] = ["late_chat", "music_bed", "huge_chat", "small_chat", "duo", "long_stream", "loud_game"];

export interface StreamSpec {
  seed: number;
  condition: Condition;
  durationSeconds: number;
  streamer: Voice;
  guest: Voice;
  /** Share of the time the guest talks (0: no guest). */
  guestShare: number;
  /** Background chat, messages per second. */
  chatRate: number;
  /** Seconds chat takes to react on this stream; each moment varies it by up to ±2 s, each message by its jitter. */
  chatLag: number;
  /** Standard deviation of one message's own delay around its burst's timing, seconds. */
  jitterSeconds: number;
  music: boolean;
  raid: boolean;
  /** RMS levels in dBFS: the streamer's calm talk, the game's ambience, the music bed; masterDb shifts all. */
  voiceDb: number;
  gameDb: number;
  musicDb: number;
  masterDb: number;
}

export function streamSpec(seed: number, palette: Pick<Palette, "drawVoice"> = PALETTE_B): StreamSpec {
  const condition = CONDITIONS[seed % CONDITIONS.length]!;
  const rng = new Random(seed * 104729 + 7);
  const streamer = palette.drawVoice(rng);
  const guest = palette.drawVoice(rng, streamer);
  const chatRate =
    condition === "huge_chat" ? rng.range(15, 30) : condition === "small_chat" ? rng.range(0.03, 0.08) : condition === "long_stream" ? rng.range(0.5, 2) : rng.range(0.3, 2.5);
  return levelled({
    seed,
    condition,
    durationSeconds: condition === "long_stream" ? 60 * rng.int(120, 140) : 60 * rng.int(20, 30),
    streamer,
    guest,
    guestShare: condition === "duo" ? rng.range(0.3, 0.45) : condition === "long_stream" ? 0.15 : rng.next() < 0.3 ? 0.1 : 0,
    chatRate,
    chatLag: condition === "late_chat" ? rng.int(14, 24) : rng.int(2, 30),
    jitterSeconds: rng.range(0.5, 2.5),
    music: condition === "music_bed" || rng.next() < 0.3,
    raid: condition === "huge_chat" || rng.next() < 0.5,
    voiceDb: rng.range(-27, -18),
    // Streamers mix their game and music under their voice: far under it usually, close under it in loud_game.
    gameDb: -(condition === "loud_game" ? rng.range(4, 9) : rng.range(14, 25)),
    musicDb: -rng.range(12, 20),
    masterDb: rng.range(-6, 3),
  });
}

/** gameDb and musicDb are drawn relative to the voice; the spec states them in dBFS. */
function levelled(s: StreamSpec): StreamSpec {
  return { ...s, gameDb: s.voiceDb + s.gameDb, musicDb: s.voiceDb + s.musicDb };
}
