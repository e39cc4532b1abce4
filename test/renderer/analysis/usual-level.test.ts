import { describe, expect, it } from "vitest";
import { LOCAL_USUAL, REFERENCE, referenceStretches, usualLevels, levelOf, type ReferenceSecond } from "../../../render-container/src/analysis/voice-activity/usual-level";

const VOICE = 80; // semitones
const MUSIC = 97; // a note well over the voice's pitch
const dbOf = (power: number, ref: number) => 10 * Math.log10(power / ref);

/** A reference second of calm talk at `db` (relative): 20 voiced windows at the voice's pitch, 8 quieter gaps. */
function talk(at: number, db: number): ReferenceSecond {
  const p = 10 ** (db / 10);
  const voiced = [...Array.from({ length: 20 }, (_, k) => p * (0.6 + (k % 5) * 0.2)), ...Array.from({ length: 8 }, () => p * 0.05)];
  return { at, voiced, pitch: [...Array.from({ length: 20 }, (_, k) => VOICE + (k % 3) - 1), ...Array.from({ length: 8 }, () => Number.NaN)] };
}

/** A second the model took for speech with no one talking: a music bed's notes, 25 dB under the voice. */
function musicOnly(at: number): ReferenceSecond {
  return { at, voiced: Array.from({ length: 25 }, () => 10 ** (-25 / 10)), pitch: Array.from({ length: 25 }, () => MUSIC) };
}

describe("the streamer's usual talking level (usual-level.ts)", () => {
  it("reads calm talk at its own level whatever share of the ordinary stretches the model heard as music", () => {
    const talky = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? musicOnly(i * 10) : talk(i * 10, 0)));
    const sparse = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? talk(i * 10, 0) : musicOnly(i * 10)));
    const calm = levelOf(talk(0, 0).voiced);
    for (const seconds of [talky, sparse]) {
      const usual = usualLevels(seconds, [VOICE], 3)!;
      expect(Math.abs(dbOf(calm, usual(200)))).toBeLessThan(0.5);
    }
    // Over all the windows at once, the sparse stream's usual level sinks under the music's, and calm talk reads
    // as a raised voice.
    const mixture = levelOf(sparse.flatMap((s) => s.voiced));
    expect(dbOf(calm, mixture)).toBeGreaterThan(6);
  });

  it("follows a microphone's slow swing, and holds within maxApartDb of the whole stream's level", () => {
    // Calm talk whose level swings 6 dB either way over 10 minutes, for an hour.
    const swing = (t: number) => 6 * Math.sin((2 * Math.PI * t) / 600);
    const seconds = Array.from({ length: 3600 / 15 }, (_, i) => talk(i * 15, swing(i * 15)));
    const usual = usualLevels(seconds, [VOICE], 3)!;
    const calm = (t: number) => levelOf(talk(t, swing(t)).voiced);
    // At the swing's top and bottom (150 s and 450 s) calm talk reads within 2 dB of 0 (against the whole
    // stream's level it would read +6 and -6).
    for (const t of [150, 450, 1950, 2250]) expect(Math.abs(dbOf(calm(t), usual(t)))).toBeLessThan(2);
    // Talk only in the first two minutes, then 10 minutes of silence before a second 20 dB over it: the nearest
    // talk seconds stand in, never more than maxApartDb from the whole level.
    const early = [...Array.from({ length: 12 }, (_, i) => talk(i * 10, 0)), ...Array.from({ length: 4 }, (_, i) => talk(700 + i, 20))];
    const u = usualLevels(early, [VOICE], 3)!;
    expect(dbOf(u(703), u(0))).toBeLessThanOrEqual(LOCAL_USUAL.maxApartDb + 1e-9);
  });

  it("counts a guest's talk at the guest's pitch, and nothing where too few talk seconds were heard", () => {
    const guest = (at: number) => ({ ...talk(at, 0), pitch: talk(at, 0).pitch.map((p) => p + 9) });
    const seconds = Array.from({ length: 20 }, (_, i) => guest(i * 10));
    expect(usualLevels(seconds, [VOICE], 3)).toBeNull();
    expect(usualLevels(seconds, [VOICE, VOICE + 9], 3)).not.toBeNull();
    // Pitch unclear (no usual voice): any clearly voiced window counts.
    expect(usualLevels(seconds, [], 3)).not.toBeNull();
    expect(usualLevels(Array.from({ length: 40 }, (_, i) => musicOnly(i * 10)), [VOICE], 3)).toBeNull();
  });

  it("counts a low voice's talk, with few clearly voiced windows, and not a second with little speech in it", () => {
    // A low or breathy voice: 28 speech windows a second, only 3 of them clear enough to read a pitch.
    const low = (at: number, db: number): ReferenceSecond => {
      const t = talk(at, db);
      return { ...t, pitch: t.pitch.map((p, k) => (k % 7 === 0 ? p : Number.NaN)) };
    };
    const quietLow = Array.from({ length: 30 }, (_, i) => low(i * 10, 0));
    // Its loudest seconds are the most clearly voiced: counted alone they would set the usual level high.
    const withLoud = [...quietLow, ...Array.from({ length: 10 }, (_, i) => talk(5 + i * 30, 6))];
    const usual = usualLevels(withLoud, [VOICE], 3)!;
    expect(usual).not.toBeNull();
    expect(Math.abs(dbOf(levelOf(low(0, 0).voiced), usual(150)))).toBeLessThan(1);
    // The tail of a sentence: a few speech windows, however clearly voiced, is no reading of the voice's level.
    const tail = (at: number): ReferenceSecond => ({ at, voiced: talk(at, 0).voiced.slice(0, 10), pitch: talk(at, 0).pitch.slice(0, 10) });
    expect(usualLevels(Array.from({ length: 30 }, (_, i) => tail(i * 10)), [VOICE], 3)).toBeNull();
    // Clearly voiced windows mostly at another pitch (a note near the voice's range): not the voice's talk.
    const notes = (at: number): ReferenceSecond => ({ ...talk(at, 0), pitch: talk(at, 0).pitch.map((p, k) => (k < 4 ? p : Number.isFinite(p) ? VOICE + 9 : p)) });
    expect(usualLevels(Array.from({ length: 30 }, (_, i) => notes(i * 10)), [VOICE], 3)).toBeNull();
  });

  it("places one reference piece a minute, at most maxPieces over a long VOD", () => {
    const flat = (n: number) => new Array<number>(n).fill(0);
    expect(referenceStretches(flat(1500), [])).toHaveLength(25);
    expect(referenceStretches(flat(600), [])).toHaveLength(REFERENCE.minPieces);
    const six = referenceStretches(flat(6 * 3600), []);
    expect(six).toHaveLength(REFERENCE.maxPieces);
    expect(six.every((s) => s.end - s.start === REFERENCE.seconds)).toBe(true);
  });
});
