/** Uniform noise from a seeded generator (RMS = amplitude / 2): the same samples on every run. */
export function seededNoise(seed: number, n: number, amplitude: number): Float32Array {
  let s = seed >>> 0;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = amplitude * (s / 2 ** 32 - 0.5) * 2 * Math.sqrt(3) * 0.5;
  }
  return out;
}
