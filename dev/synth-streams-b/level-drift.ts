import { Random } from "../synth-vod/random";

/**
 * Levels that wander over a stream (`--levels drift`). Every source so far held each stream's levels fixed from
 * its first second to its last, so a rule that judges a second against the whole stream's usual loudness or
 * usual voice was never tested where "usual" moves: a streamer who leans back from the microphone for a quarter
 * of an hour, turns its gain up, or a game whose scenes are louder than others. Both move slowly and on their
 * own: the streamer's voice (its microphone) and the game (its sounds, ambience and music).
 */
export interface LevelDrift {
  /** Peak deviation of the streamer's voice from its planned level, dB (drawn per stream). */
  voiceDb: readonly [number, number];
  /** Peak deviation of the game's sound (sounds, ambience, music), dB (drawn per stream). */
  gameDb: readonly [number, number];
  /** Period of each slow swing, seconds (drawn per stream and per curve). */
  periodSeconds: readonly [number, number];
}

export interface DriftCurve {
  amplitudeDb: number;
  periodSeconds: number;
  phase: number;
}

export interface DrawnDrift {
  voice: DriftCurve;
  game: DriftCurve;
}

/** The stream's two curves, from their own random stream: the plan's other draws stay as they were. */
export function drawDrift(seed: number, drift: LevelDrift): DrawnDrift {
  const rng = new Random(seed * 211 + 17);
  const curve = (db: readonly [number, number]): DriftCurve => ({
    amplitudeDb: rng.range(db[0], db[1]),
    periodSeconds: rng.range(drift.periodSeconds[0], drift.periodSeconds[1]),
    phase: rng.range(0, 2 * Math.PI),
  });
  return { voice: curve(drift.voiceDb), game: curve(drift.gameDb) };
}

/** The curve's deviation at second t, dB. */
export function driftDbAt(curve: DriftCurve, t: number): number {
  return curve.amplitudeDb * Math.sin((2 * Math.PI * t) / curve.periodSeconds + curve.phase);
}

/** As a linear gain factor. */
export function driftGainAt(curve: DriftCurve | undefined, t: number): number {
  return curve ? 10 ** (driftDbAt(curve, t) / 20) : 1;
}
