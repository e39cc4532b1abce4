import { describe, expect, it } from "vitest";
import { voicedPower } from "../../../render-container/src/analysis/voice-activity/periodicity";
import { unheldShares } from "../../../render-container/src/analysis/voice-activity/unheld-share";
import { seededNoise } from "./seeded-noise";

/** The voice model's rate and window: what measureVoiceActivity hands unheldShares. */
const R = 8000;
const W = 256;

/** `seconds` of a tone whose pitch follows f0(t) and loudness env(t), harmonics to 3 kHz, by phase accumulation. */
function tone(seconds: number, f0: (t: number) => number, env: (t: number) => number): Float32Array {
  const out = new Float32Array(Math.round(seconds * R));
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const f = f0(i / R);
    phase += (2 * Math.PI * f) / R;
    for (let h = 1; h * f < 3000; h++) out[i]! += (env(i / R) / h) * Math.sin(h * phase);
  }
  return out;
}

/** A voice: intonation gliding 120 -> 170 Hz, a 5 Hz waver, and syllables (loudness rising and falling 4 times a second). */
const voice = (amplitude: number) => tone(2, (t) => (120 + 25 * t) * (1 + 0.03 * Math.sin(2 * Math.PI * 5 * t)), (t) => amplitude * (0.55 + 0.45 * Math.sin(2 * Math.PI * 4 * t)));
/** A sting's chord: four notes held (a major chord on 220 Hz with its octave), each a sawtooth-like stack of harmonics. */
const chord = (amplitude: number) => [1, 1.26, 1.498, 2].map((r) => tone(2, () => 220 * r, () => amplitude)).reduce((a, b) => a.map((v, i) => v + b[i]!));
const mix = (a: Float32Array, b: Float32Array) => a.map((v, i) => v + b[i]!);
const middle = (x: Float64Array) => Array.from(x.slice(10, x.length - 10));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The top quarter of the windows' voiced power times their unheld share, as measureVoiceActivity takes a second's level. */
function level(x: Float32Array, withUnheld: boolean): number {
  const shares = unheldShares(x, W);
  const powers: number[] = [];
  for (let w = 10; w < shares.length - 10; w++) {
    const v = voicedPower(x, w * W, W, R);
    powers.push(v.power * v.periodicity * (withUnheld ? shares[w]! : 1));
  }
  powers.sort((a, b) => a - b);
  return powers[Math.floor(0.75 * (powers.length - 1))]!;
}
const db = (a: number, b: number) => 10 * Math.log10(a / b);

describe("unheld share: the part of a window's power that was not there the moment before and after", () => {
  it("is near nothing for a held chord, some for steady noise and more for a voice", () => {
    expect(Math.max(...middle(unheldShares(chord(0.1), W)))).toBeLessThan(0.1);
    const n = mean(middle(unheldShares(seededNoise(7, 2 * R, 0.2), W)));
    expect(n).toBeGreaterThan(0.1);
    expect(n).toBeLessThan(0.35);
    expect(mean(middle(unheldShares(voice(0.1), W)))).toBeGreaterThan(n);
    expect(unheldShares(new Float32Array(3 * W), W)).toEqual(new Float64Array(3));
  });

  it("gives calm talk under a louder chord about the talk's own level, and a shout over it far more", () => {
    const calm = level(voice(0.05), true);
    // The chord holds several times the talk's power: its periodic power would pass for a raised voice.
    expect(db(level(mix(voice(0.05), chord(0.06)), false), level(voice(0.05), false))).toBeGreaterThan(6);
    expect(db(level(mix(voice(0.05), chord(0.06)), true), calm)).toBeLessThan(3);
    // A shout (five times the amplitude) over the same chord keeps its own rise.
    expect(db(level(mix(voice(0.25), chord(0.06)), true), calm)).toBeGreaterThan(8);
  });
});
