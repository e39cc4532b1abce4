/**
 * How much of a window's power was not held from the windows around it: the voice's part against a music bed's,
 * a sting's or a siren's notes.
 *
 * A voice never holds a spectrum: its harmonics glide with the pitch and its formants move with every syllable,
 * so the power in any one frequency bin comes and goes within a tenth of a second. An instrument's note, a chord
 * or a drone sits in the same bins for as long as it sounds. Per bin, the median power at windows around (over
 * half a second) is what is held there; for each window, the share of its power well above that (UNHELD.margin):
 * about 0 for a window a chord fills, about 0.2 for steady noise (some bins rise above their median by chance),
 * more for speech. A window's voiced power (periodicity.ts) times this share leaves a chord under calm talk little
 * of the power its own periodicity would lend the talk, and a shout over the same chord most of its own: the
 * chord's periodic power is exactly what is held. Measured after the same pre-emphasis as the voiced power, so
 * the two agree on which frequencies count. Where the held-pitch rule (measure-voice.ts) needs one note held
 * alone for 0.32 s, this catches chords, arpeggios whose notes ring on, and notes under a voice that pulls the
 * window's period its way.
 */
export const UNHELD = {
  /**
   * Windows (32 ms each) the held part is read at, around the window itself: the median of five taps over half
   * a second, so a note is held once it sounds at three of them (about 0.3 s), and a syllable never is.
   */
  taps: [-8, -4, 0, 4, 8],
  /**
   * Power up to this factor of the held part is still held: a held chord's bins waver by a few dB window to window
   * (its close harmonics beat within a bin), and at 1 a pure chord kept 10-30 % of its power; at 2 it keeps ~1 %.
   */
  margin: 2,
} as const;
const PRE_EMPHASIS = 0.95;

/** Each window's power spectrum (pre-emphasised, Hann-windowed), `bins` values per window, windows in order. */
export interface WindowSpectra {
  power: Float64Array;
  bins: number;
  windows: number;
}

/** The power spectra of `samples` cut into windows of `length` samples (the last one may be short: zero-padded). */
export function windowSpectra(samples: Float32Array, length: number): WindowSpectra {
  const windows = Math.ceil(samples.length / length);
  const size = nextPowerOfTwo(length);
  const bins = size / 2 + 1;
  const hann = new Float64Array(length).map((_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / Math.max(1, length - 1)));
  const power = new Float64Array(windows * bins);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  for (let w = 0; w < windows; w++) {
    re.fill(0);
    im.fill(0);
    const from = w * length;
    let prev = samples[from - 1] ?? samples[from] ?? 0;
    for (let i = 0; i < length; i++) {
      const v = samples[from + i] ?? 0;
      re[i] = (v - PRE_EMPHASIS * prev) * hann[i]!;
      prev = v;
    }
    fft(re, im);
    for (let k = 0; k < bins; k++) power[w * bins + k] = re[k]! * re[k]! + im[k]! * im[k]!;
  }
  return { power, bins, windows };
}

/** For each window of `length` samples of `samples` (the last one may be short: zero-padded), its unheld share. */
export function unheldShares(samples: Float32Array, length: number, spectra: WindowSpectra = windowSpectra(samples, length)): Float64Array {
  const { power, bins, windows } = spectra;
  const out = new Float64Array(windows);
  const taps = UNHELD.taps;
  const v = new Float64Array(taps.length);
  for (let w = 0; w < windows; w++) {
    let total = 0;
    let above = 0;
    for (let k = 0; k < bins; k++) {
      // The held part: the median of the bin's power at the taps (windows off the piece's ends take the nearest).
      for (let j = 0; j < taps.length; j++) v[j] = power[Math.min(windows - 1, Math.max(0, w + taps[j]!)) * bins + k]!;
      const held = median5(v);
      const p = power[w * bins + k]!;
      total += p;
      above += Math.max(0, p - UNHELD.margin * held);
    }
    out[w] = total > 0 ? above / total : 0;
  }
  return out;
}

/** How alike two windows' spectra are: the cosine of their magnitude spectra, 0..1. */
export function spectralLikeness(spectra: WindowSpectra, a: number, b: number): number {
  const { power, bins } = spectra;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let k = 0; k < bins; k++) {
    const x = Math.sqrt(power[a * bins + k]!);
    const y = Math.sqrt(power[b * bins + k]!);
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

/** The median of five values: an insertion sort in place (they are scratch values), no allocation. */
function median5(v: Float64Array): number {
  for (let i = 1; i < 5; i++) {
    const x = v[i]!;
    let j = i - 1;
    for (; j >= 0 && v[j]! > x; j--) v[j + 1] = v[j]!;
    v[j + 1] = x;
  }
  return v[2]!;
}

function nextPowerOfTwo(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

/** In-place iterative radix-2 FFT (length a power of two). */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const ar = re[i + k + len / 2]! * cr - im[i + k + len / 2]! * ci;
        const ai = re[i + k + len / 2]! * ci + im[i + k + len / 2]! * cr;
        re[i + k + len / 2] = re[i + k]! - ar;
        im[i + k + len / 2] = im[i + k]! - ai;
        re[i + k] = re[i + k]! + ar;
        im[i + k] = im[i + k]! + ai;
        const t = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = t;
      }
    }
  }
}
