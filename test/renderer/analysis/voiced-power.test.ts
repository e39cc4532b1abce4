import { describe, expect, it } from "vitest";
import { candidateStretches, CANDIDATE_RULES } from "../../../render-container/src/analysis/voice-activity/candidate-stretches";
import { heldPitchRuns, HELD_PITCH, recurringPitch, toneWindows } from "../../../render-container/src/analysis/voice-activity/measure-voice";
import { windowSpectra } from "../../../render-container/src/analysis/voice-activity/unheld-share";
import { voicedPower } from "../../../render-container/src/analysis/voice-activity/periodicity";
import { seededNoise } from "./seeded-noise";

const RATE = 8000;
const N = 256;

/** A voice-like tone: a 160 Hz fundamental with falling harmonics up to 2 kHz. */
function voiced(n: number, amplitude: number, f0 = 160): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) for (let h = 1; h * f0 < 2000; h++) out[i]! += (amplitude / h) * Math.sin((2 * Math.PI * h * f0 * i) / RATE);
  return out;
}

const mix = (...xs: Float32Array[]) => xs[0]!.map((_, i) => xs.reduce((a, x) => a + x[i]!, 0));
const voicedOf = (x: Float32Array) => {
  const v = voicedPower(x, 0, x.length, RATE);
  return v.power * v.periodicity;
};

describe("voiced power: the voice's own power in a window", () => {
  it("counts a voiced sound nearly whole and broadband noise hardly at all", () => {
    const tone = voicedPower(voiced(N, 0.1), 0, N, RATE);
    expect(tone.periodicity).toBeGreaterThan(0.8);
    for (const seed of [1, 2, 3, 4, 5]) expect(voicedPower(seededNoise(seed, N, 0.3), 0, N, RATE).periodicity).toBeLessThan(0.25);
    expect(voicedPower(new Float32Array(N), 0, N, RATE)).toEqual({ power: 0, periodicity: 0, period: 0, pitchPeriod: 0 });
  });

  it("gives calm talk through noise louder than it about the talk's own voiced power, not the noise's", () => {
    const talk = voiced(N, 0.05);
    const alone = voicedOf(talk);
    for (const seed of [11, 12, 13]) {
      const loud = seededNoise(seed, N, 0.15);
      const through = voicedOf(mix(talk, loud));
      // The noise alone holds several times the talk's power in the band; the estimate stays near the talk.
      expect(voicedPower(loud, 0, N, RATE).power).toBeGreaterThan(4 * voicedPower(talk, 0, N, RATE).power);
      expect(10 * Math.log10(through / alone)).toBeLessThan(3);
    }
    // A shout, five times the amplitude through the same noise, measures far above the calm talk.
    const shout = voicedOf(mix(voiced(N, 0.25), seededNoise(11, N, 0.15)));
    expect(10 * Math.log10(shout / alone)).toBeGreaterThan(10);
  });

  it("reads a window in place at 16 kHz as at 8 kHz (halved first)", () => {
    const at16 = new Float32Array(2 * N + 20);
    for (let i = 0; i < 2 * N; i++) for (let h = 1; h * 160 < 2000; h++) at16[20 + i]! += (0.1 / h) * Math.sin((2 * Math.PI * h * 160 * i) / 16000);
    expect(voicedPower(at16, 20, 2 * N, 16000).periodicity).toBeGreaterThan(0.8);
  });
});

describe("the voice's pitch in a window", () => {
  /** Harmonics h = 1.. of f0 with the given amplitudes (a vowel's formants lift some of them). */
  const harmonics = (n: number, f0: number, amps: number[]) => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) amps.forEach((a, k) => (out[i]! += a * Math.sin((2 * Math.PI * (k + 1) * f0 * i) / RATE)));
    return out;
  };
  const hz = (x: Float32Array) => RATE / voicedPower(x, 0, x.length, RATE).pitchPeriod;

  it("reads a voice's pitch, not a sub-harmonic, where the best lag is two periods", () => {
    // At 90 Hz two periods (178 samples) fall outside the lags looked at; at 120 Hz they are within (133 Hz is the
    // lowest pitch whose double period is a lag), and a period and its double correlate nearly alike.
    for (const f0 of [120, 160, 220, 300]) {
      const x = harmonics(N, f0, [1, 0.6, 0.4, 0.3, 0.2]);
      expect(Math.abs(12 * Math.log2(hz(x) / f0))).toBeLessThan(0.5);
    }
  });

  it("does not read a voice whose third harmonic leads (a vowel's first formant on it) at three times its pitch", () => {
    // Pre-emphasis lifts the third harmonic further: the pre-emphasised window correlates nearly as well at a
    // third of the period, and a calm 121 Hz voice read at 364 Hz would pass for one raised 19 semitones.
    for (const f0 of [110, 121, 140]) {
      const x = harmonics(N, f0, [0.5, 0.5, 1.2]);
      expect(Math.abs(12 * Math.log2(hz(x) / f0))).toBeLessThan(0.5);
    }
  });
});

describe("held pitch: an instrument's note under the talk is not the voice", () => {
  const R = 16000;
  const W = 512;
  /** `seconds` of sound whose pitch follows `f0(t)` (harmonics to 2 kHz), by phase accumulation. */
  const tone = (seconds: number, amplitude: number, f0: (t: number) => number, square = false) => {
    const out = new Float32Array(Math.round(seconds * R));
    let phase = 0;
    for (let i = 0; i < out.length; i++) {
      const f = f0(i / R);
      phase += (2 * Math.PI * f) / R;
      if (square) out[i] = amplitude * Math.sign(Math.sin(phase));
      else for (let h = 1; h * f < 2000; h++) out[i]! += (amplitude / h) * Math.sin(h * phase);
    }
    return out;
  };
  const periods = (x: Float32Array) => {
    const out: number[] = [];
    for (let w = 0; (w + 1) * W <= x.length; w++) {
      const v = voicedPower(x, w * W, W, R);
      out.push(v.periodicity >= HELD_PITCH.minPeriodicity ? v.period : 0);
    }
    return out;
  };
  const heldShare = (x: Float32Array) => {
    const p = periods(x);
    return heldPitchRuns(p).reduce((n, r) => n + r.to - r.from, 0) / p.length;
  };
  // A voice: its pitch glides (intonation, 120 -> 170 Hz over the second) and wavers (5 Hz vibrato of 3 %).
  const voice = (amplitude: number) => tone(2, amplitude, (t) => (120 + 25 * t) * (1 + 0.03 * Math.sin(2 * Math.PI * 5 * t)));

  it("finds no held pitch in a voice, calm or shouting, and finds one where a note is held under it", () => {
    expect(heldShare(voice(0.05))).toBe(0);
    expect(heldShare(voice(0.3))).toBe(0);
    // A held square-wave note (a music sting's chord tone) louder than the calm talk: most windows hold its period.
    const note = tone(2, 0.1, () => 196, true);
    const calm = voice(0.05);
    expect(heldShare(note.map((v, i) => v + calm[i]!))).toBeGreaterThan(0.7);
    // A flat stretch of voice shorter than the run a note needs (a held vowel of 0.2 s) is still the voice.
    const vowel = tone(2, 0.05, (t) => (t > 0.9 && t < 1.1 ? 150 : 120 + 25 * t) * (t > 0.9 && t < 1.1 ? 1 : 1 + 0.03 * Math.sin(2 * Math.PI * 5 * t)));
    expect(heldShare(vowel)).toBe(0);
  });

  /** Share of the windows with a period whose period recurs (recurringPitch), windows numbered in order. */
  const recurringShare = (x: Float32Array) => {
    const p = periods(x).map((period, w) => ({ w, period }));
    return recurringPitch(p).filter(Boolean).length / p.length;
  };

  it("finds a tone in bursts (an alarm: 0.3 s on, 0.3 s off) under calm talk, which never holds its pitch for long, and no such tone in a voice", () => {
    const bursts = tone(2, 0.1, () => 250, true).map((v, i) => (Math.floor(i / (0.3 * R)) % 2 === 0 ? v : 0));
    const calm = voice(0.03);
    const alarm = bursts.map((v, i) => v + calm[i]!);
    // The premise: no run of one period is long enough for the held-pitch rule.
    expect(heldShare(alarm)).toBeLessThan(0.1);
    // Half the windows are the alarm's; nearly all of them are found.
    expect(recurringShare(alarm)).toBeGreaterThan(0.4);
    // A voice gliding slowly with a 5 Hz vibrato comes back to a period now and then: a few windows (measured 8 %),
    // which the voice's level (the top quarter of its windows) does not miss.
    expect(recurringShare(voice(0.05))).toBeLessThan(0.1);
    expect(recurringShare(voice(0.3))).toBeLessThan(0.1);
  });

  /**
   * Of the windows the pitch rules flag (held or recurring), the share toneWindows keeps: those whose spectrum
   * recurs with their pitch.
   */
  const keptShare = (x: Float32Array) => {
    const p = periods(x).map((period, w) => ({ w, period }));
    const held = new Uint8Array(p.length);
    for (const run of heldPitchRuns(p.map((q) => q.period))) held.fill(1, run.from, run.to);
    recurringPitch(p).forEach((r, k) => {
      if (r) held[k] = 1;
    });
    const flagged = held.reduce((n, h) => n + h, 0);
    const kept = toneWindows(p, held, windowSpectra(x, W)).reduce((n, h) => n + h, 0);
    return { flagged, share: flagged > 0 ? kept / flagged : 0 };
  };

  it("keeps a tone's windows out of the voice only where its sound recurs: an alarm's do, a monotone voice's do not", () => {
    // A monotone voice: one pitch throughout, its harmonics shaped by the formants of a new vowel every 0.15 s.
    const vowels = [[700, 1200], [300, 2300], [500, 900], [500, 1900], [300, 800], [650, 1700]] as const;
    const monotone = new Float32Array(2 * R);
    for (let i = 0; i < monotone.length; i++) {
      const [f1, f2] = vowels[Math.floor(i / (0.15 * R)) % vowels.length]!;
      for (let h = 1; h * 140 < 4000; h++) {
        const f = h * 140;
        const gain = Math.exp(-(((f - f1) / 150) ** 2)) + 0.6 * Math.exp(-(((f - f2) / 200) ** 2)) + 0.02;
        monotone[i]! += 0.05 * gain * Math.sin((2 * Math.PI * f * i) / R);
      }
    }
    const voiceFlags = keptShare(monotone);
    // The pitch rules take nearly all of it for an instrument (else this would test nothing)...
    expect(voiceFlags.flagged).toBeGreaterThan(0.8 * (monotone.length / W));
    // ...and the spectral check gives it back.
    expect(voiceFlags.share).toBeLessThan(0.1);
    // An alarm (0.3 s beeps) under calm talk keeps its windows out.
    const bursts = tone(2, 0.1, () => 250, true).map((v, i) => (Math.floor(i / (0.3 * R)) % 2 === 0 ? v : 0));
    const calm = voice(0.03);
    const alarmFlags = keptShare(bursts.map((v, i) => v + calm[i]!));
    expect(alarmFlags.flagged).toBeGreaterThan(20);
    expect(alarmFlags.share).toBeGreaterThan(0.8);
  });
});

describe("which seconds the model listens to", () => {
  it("listens to every loud second of a long loud run while the seconds marked fit the budget", () => {
    // 200 loud seconds in a row in a 40-minute stream: padded, they mark 202 seconds, within the 240 s floor of
    // the budget. Counting each loud second as 1 + 2 pads (600 s) once left 120 of them unheard.
    const db = new Array<number>(2400).fill(0);
    for (let i = 1000; i < 1200; i++) db[i] = 6 + (i % 7);
    const stretches = candidateStretches(db);
    for (let i = 1000; i < 1200; i++) expect(stretches.some((s) => i >= s.start && i < s.end)).toBe(true);
  });

  it("keeps to the budget, loudest first, when the loud seconds would mark more", () => {
    const db = new Array<number>(2400).fill(0);
    // 300 loud seconds, every 8th second: each marks 3 of its own, 900 in all, over the 288 s budget (12 %).
    for (let k = 0; k < 300; k++) db[k * 8] = 5 + (k % 10);
    const budget = Math.max(CANDIDATE_RULES.minBudgetSeconds, Math.round(2400 * CANDIDATE_RULES.maxShare));
    const stretches = candidateStretches(db);
    const marked = stretches.reduce((n, s) => n + s.end - s.start, 0);
    expect(marked).toBeLessThanOrEqual(budget);
    expect(marked).toBeGreaterThan(budget - 3);
    // The loudest (+14 dB) are all heard; the quietest (+5 dB) are the ones left out.
    for (let k = 9; k < 300; k += 10) expect(stretches.some((s) => k * 8 >= s.start && k * 8 < s.end)).toBe(true);
    expect(stretches.filter((s) => db[s.start + 1] === 5).length).toBeLessThan(30);
  });

  it("listens where either reading is loud: over the level around the second, or over the whole stream's median", () => {
    // A compressed mix (nothing rises more than 6 dB: thresholds at 0.6 of themselves, 2.4 dB) whose shout at 1000
    // reads 2.8 dB over the whole stream but 1.8 dB over the level around it (the moment's own action raised it).
    const overStream = Array.from({ length: 2400 }, (_, i) => (i >= 500 && i < 503 ? 6 : i >= 1000 && i < 1003 ? 2.8 : (i % 4) / 4));
    const local = overStream.map((d, i) => (i >= 960 && i < 1040 ? d - 1 : d));
    const heard = (stretches: { start: number; end: number }[]) => stretches.some((s) => 1001 >= s.start && 1001 < s.end);
    expect(heard(candidateStretches(local, CANDIDATE_RULES, overStream))).toBe(true);
    expect(heard(candidateStretches(local))).toBe(false);
  });

  it("gives the budget first to seconds loud over the level around them, then to those loud over the whole stream only", () => {
    // A 2-hour stream whose levels swing: for 40 minutes of every 80 the talk reads 9 dB over the whole stream's
    // median (0 over the level around it); 60 moments of 3 s read 7 dB over the level around them (4 over the
    // whole stream: they sit where the swing is down).
    const n = 7200;
    const overStream: number[] = Array.from({ length: n }, (_, i) => (Math.floor(i / 2400) % 2 === 0 ? 9 : 0));
    const local = new Array<number>(n).fill(0);
    const moments = Array.from({ length: 60 }, (_, k) => 2400 + 40 * k);
    for (const m of moments) for (let i = m; i < m + 3; i++) {
      local[i] = 7;
      overStream[i] = 4;
    }
    const stretches = candidateStretches(local, CANDIDATE_RULES, overStream);
    const heard = moments.filter((m) => stretches.some((s) => m + 1 >= s.start && m + 1 < s.end)).length;
    expect(heard).toBe(moments.length);
    // Sorted with the rest, the swing's 4,800 seconds at 9 dB took the whole 864 s budget and not one was heard.
    expect(stretches.reduce((c, s) => c + s.end - s.start, 0)).toBeLessThanOrEqual(Math.round(n * CANDIDATE_RULES.maxShare));
  });

  it("reads how far the mix lets anything rise on the whole stream's reading, not the local one", () => {
    // The local reading's loudest 3 s is 11 dB (an event where the level around dipped): open-mix thresholds (4 dB)
    // would leave a 3 dB shout unheard; the whole stream's reading says the mix is compressed (6 dB: 2.4 dB).
    const overStream = Array.from({ length: 2400 }, (_, i) => (i >= 500 && i < 503 ? 6 : i >= 1000 && i < 1003 ? 3 : (i % 4) / 4));
    const local = overStream.map((d, i) => (i >= 500 && i < 503 ? 11 : d));
    const stretches = candidateStretches(local, CANDIDATE_RULES, overStream);
    expect(stretches.some((s) => 1001 >= s.start && 1001 < s.end)).toBe(true);
    expect(candidateStretches(local).some((s) => 1001 >= s.start && 1001 < s.end)).toBe(false);
  });
});
