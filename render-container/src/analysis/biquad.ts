/**
 * Second-order IIR sections for the analysis pass, with the same coefficients as the FFmpeg filters they
 * replace, so the signals keep their meaning: ebur128's K-weighting (the BS.1770 pre-filter and RLB high-pass,
 * computed for the actual sample rate as libebur128 and FFmpeg's ebur128 do) and FFmpeg's 2-pole
 * `highpass`/`lowpass` (Audio EQ Cookbook, Q 0.707).
 */
export interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  /** Feedback coefficients, normalised by a0. */
  a1: number;
  a2: number;
}

/** BS.1770 stage 1: the high shelf that models the head (+4 dB above ~1.7 kHz). */
export function kWeightingShelf(sampleRate: number): Biquad {
  const f0 = 1681.974450955533;
  const G = 3.999843853973347;
  const Q = 0.7071752369554196;
  const K = Math.tan((Math.PI * f0) / sampleRate);
  const Vh = 10 ** (G / 20);
  const Vb = Vh ** 0.4996667741545416;
  const a0 = 1 + K / Q + K * K;
  return {
    b0: (Vh + (Vb * K) / Q + K * K) / a0,
    b1: (2 * (K * K - Vh)) / a0,
    b2: (Vh - (Vb * K) / Q + K * K) / a0,
    a1: (2 * (K * K - 1)) / a0,
    a2: (1 - K / Q + K * K) / a0,
  };
}

/** BS.1770 stage 2: the revised low-frequency B-curve, a high-pass near 38 Hz. */
export function kWeightingHighpass(sampleRate: number): Biquad {
  const f0 = 38.13547087602444;
  const Q = 0.5003270373238773;
  const K = Math.tan((Math.PI * f0) / sampleRate);
  const a0 = 1 + K / Q + K * K;
  return { b0: 1, b1: -2, b2: 1, a1: (2 * (K * K - 1)) / a0, a2: (1 - K / Q + K * K) / a0 };
}

function cookbook(kind: "highpass" | "lowpass", frequency: number, sampleRate: number, q = 0.707): Biquad {
  const w0 = (2 * Math.PI * frequency) / sampleRate;
  const cos = Math.cos(w0);
  const alpha = Math.sin(w0) / (2 * q);
  const a0 = 1 + alpha;
  const b = kind === "highpass" ? [(1 + cos) / 2, -(1 + cos), (1 + cos) / 2] : [(1 - cos) / 2, 1 - cos, (1 - cos) / 2];
  return { b0: b[0]! / a0, b1: b[1]! / a0, b2: b[2]! / a0, a1: (-2 * cos) / a0, a2: (1 - alpha) / a0 };
}

export const highpass = (frequency: number, sampleRate: number) => cookbook("highpass", frequency, sampleRate);
export const lowpass = (frequency: number, sampleRate: number) => cookbook("lowpass", frequency, sampleRate);
