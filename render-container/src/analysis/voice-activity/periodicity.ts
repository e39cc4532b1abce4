/**
 * The voice's own power in a short window of audio: its power in the voice's band times how periodic it is.
 *
 * Periodicity is the highest normalised autocorrelation at a lag of one pitch period of a voice (70-400 Hz). For
 * a voiced sound plus unrelated noise it estimates the voiced part's share of the power (the basis of the
 * harmonics-to-noise ratio), so power x periodicity keeps a voice's power and leaves out most of broadband noise:
 * gunfire, impacts, crowds, wind. A shout is voiced from end to end; calm talk through a firefight has as many
 * speech windows, but most of their power is the gunfire's, which does not repeat at a pitch period.
 *
 * Both are measured after a pre-emphasis (a first difference, rising 6 dB an octave), as the voice band is: an
 * explosion's rumble, far below a voice's harmonics, neither hides a shout's periodicity nor counts as its power.
 */
export const PITCH_HZ = { min: 70, max: 400 } as const;
const PRE_EMPHASIS = 0.95;

export interface VoicedPower {
  /** Mean square of the pre-emphasised window. */
  power: number;
  /** 0..1, with chance correlation taken off (below). */
  periodicity: number;
  /** The period (in samples at `rate`) the periodicity was found at; 0 when none was looked for. */
  period: number;
  /**
   * The pitch period (samples at `rate`; 0: none): `period`, or a half or a third of it where the window
   * correlates nearly as well there (OCTAVE_CHECK). A voiced window repeats at two and three periods as well as at
   * one, and the best of them is often the longer lag: `period` then reads the pitch an octave or more low. The
   * held-pitch rules compare periods with their multiples and do not mind; the voice's pitch (measure-voice.ts) does.
   */
  pitchPeriod: number;
}

/** A half or a third of the best lag is the pitch period where it correlates at least this share of the best. */
export const OCTAVE_CHECK = 0.85;

/**
 * `samples[from, from + length)` at `rate` Hz. Above 5 kHz the window is first halved in rate (pairs averaged: a
 * gentle low-pass), which keeps a voice's pitch and first harmonics and quarters the work. The energies of the two
 * overlapping parts come from running sums, so each lag costs one pass of multiply-adds.
 */
export function voicedPower(samples: Float32Array, from: number, length: number, rate: number): VoicedPower {
  const halve = rate > 5000;
  const n = halve ? Math.floor(length / 2) : length;
  const r = halve ? rate / 2 : rate;
  const at = (i: number) => (halve ? ((samples[from + 2 * i] ?? 0) + (samples[from + 2 * i + 1] ?? 0)) / 2 : (samples[from + i] ?? 0));
  const x = new Float64Array(n);
  let prev = n > 0 ? at(0) : 0;
  for (let i = 0; i < n; i++) {
    const v = at(i);
    x[i] = v - PRE_EMPHASIS * prev;
    prev = v;
  }
  // prefix[i]: energy of x[0..i), so any span's energy is one subtraction.
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i]! + x[i]! * x[i]!;
  const power = n > 0 ? prefix[n]! / n : 0;
  const minLag = Math.max(1, Math.floor(r / PITCH_HZ.max));
  const maxLag = Math.min(n - 8, Math.ceil(r / PITCH_HZ.min));
  if (maxLag < minLag || power <= 0) return { power, periodicity: 0, period: 0, pitchPeriod: 0 };
  let best = 0;
  let bestLag = 0;
  for (let lag = minLag; lag <= maxLag; lag++) {
    let xy = 0;
    for (let i = 0; i + lag < n; i++) xy += x[i]! * x[i + lag]!;
    const xx = prefix[n - lag]!;
    const yy = prefix[n]! - prefix[lag]!;
    if (xx > 0 && yy > 0 && xy / Math.sqrt(xx * yy) > best) {
      best = xy / Math.sqrt(xx * yy);
      bestLag = lag;
    }
  }
  // The shortest of a third and a half of the best lag (each read at its nearest lag +-1) that correlates nearly
  // as well: the pitch itself rather than a sub-harmonic. Judged on the window before pre-emphasis, where the
  // fundamental leads: there a voice correlates at one period as well as at two, but poorly at a half or a third
  // of it, where the pre-emphasised window can correlate nearly as well on a strong third harmonic (measured: a
  // 121 Hz voice read at 364 Hz) and a calm voice would pass for one raised an octave.
  let pitchLag = bestLag;
  const raw = new Float64Array(n);
  for (let i = 0; i < n; i++) raw[i] = at(i);
  const rawCorr = (lag: number) => {
    let xy = 0;
    let xx = 0;
    let yy = 0;
    for (let i = 0; i + lag < n; i++) {
      xy += raw[i]! * raw[i + lag]!;
      xx += raw[i]! * raw[i]!;
      yy += raw[i + lag]! * raw[i + lag]!;
    }
    return xx > 0 && yy > 0 ? xy / Math.sqrt(xx * yy) : 0;
  };
  const bestRaw = bestLag > 0 ? rawCorr(bestLag) : 0;
  for (const k of [3, 2]) {
    if (bestRaw <= 0) break;
    const c = Math.round(bestLag / k);
    let found = 0;
    let foundCorr = -1;
    for (let lag = Math.max(minLag, c - 1); lag <= Math.min(maxLag, c + 1); lag++) {
      const v = rawCorr(lag);
      if (v > foundCorr) [found, foundCorr] = [lag, v];
    }
    if (found > 0 && foundCorr >= OCTAVE_CHECK * bestRaw) {
      pitchLag = found;
      break;
    }
  }
  // A window of noise correlates by chance too: over n samples a correlation's standard error is about
  // 1/sqrt(n), and the best of ~50 lags lands near 2-3 of them. Three standard errors count as none and the rest
  // is rescaled, so gunfire under calm talk keeps little of its power while a voice keeps nearly all of its own.
  const chance = 3 / Math.sqrt(n);
  const scale = halve ? 2 : 1;
  return { power, periodicity: Math.min(1, Math.max(0, (best - chance) / (1 - chance))), period: scale * bestLag, pitchPeriod: bestLag > 0 ? scale * pitchLag : 0 };
}
