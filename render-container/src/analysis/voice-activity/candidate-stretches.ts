import { loudnessScale } from "../loudness-range";

/**
 * Which seconds the voice-activity model listens to. The streamer's signal is loudness carried by speech, so
 * only seconds loud enough to count as excitement (the streamer score's loudness ramp starts at +4 dB over the
 * stream's baseline) need to know whether that loudness is a voice. Running the model on the whole VOD would
 * cost about a second of CPU per 15 minutes of audio; these stretches are a tenth of that or less.
 */
export const CANDIDATE_RULES = {
  /** dB over the stream's baseline loudness from which a second may be the streamer's excitement. */
  minLoudDb: 4,
  /** Seconds added on either side of a loud second (a shout's first syllables can be quieter). */
  padSeconds: 1,
  /** Loud stretches closer than this are listened to as one. */
  joinGapSeconds: 2,
  /**
   * At most this share of the VOD (but never less than `minBudgetSeconds`) is listened to, counted on the seconds
   * marked (the short gaps joined between stretches come on top); past it, the loudest seconds first. A stream
   * that is loud all the time (a music bed turned up) still costs little.
   */
  maxShare: 0.12,
  minBudgetSeconds: 240,
} as const;

export interface Stretch {
  start: number;
  end: number;
}

/**
 * Whole-second stretches [start, end) to run the model on, in VOD order. `overWholeStreamDb`, where given, is each
 * second's loudness over the whole stream's median rather than over the level around it: a second loud on either
 * reading is listened to, at the louder of the two. The level around a moment is raised a little by the moment's own
 * action (its setup's fight, its game sounds), and through a compressed mix, where a shout is 2-3 dB over the talk,
 * that little was enough for the model never to hear six shouts of the compressed tuning streams; over the whole
 * stream's median they are loud. Where levels drift, the whole stream's reading marks talk at the top of a swing
 * too: the budget goes to what the local reading marks first.
 */
export function candidateStretches(loudnessAboveBaselineDb: readonly number[], rules = CANDIDATE_RULES, overWholeStreamDb?: readonly number[]): Stretch[] {
  const n = loudnessAboveBaselineDb.length;
  // On a compressed mix the streamer signal's thresholds shrink (loudness-range.ts); so does where it listens.
  const minLoudDb = rules.minLoudDb * loudnessScale(overWholeStreamDb ?? loudnessAboveBaselineDb);
  const localDb = loudnessAboveBaselineDb;
  if (overWholeStreamDb) loudnessAboveBaselineDb = loudnessAboveBaselineDb.map((db, i) => Math.max(db, overWholeStreamDb[i] ?? db));
  const budget = Math.max(rules.minBudgetSeconds, Math.round(n * rules.maxShare));
  // Loudest first, each loud second with its padding, until the seconds marked reach the budget: first the
  // seconds loud over the level around them, then those loud over the whole stream's median only. Where levels
  // drift, the whole stream's reading marks the talk at the top of every swing, as loud as a moment: sorted with
  // the others, it took two thirds of a 2-hour drift stream's budget and left 400 seconds loud over the level
  // around unheard (music swells and gunfire among them, then judged by the voice band's syllables). Loud
  // seconds come in runs whose paddings overlap, so the budget is counted on what is actually marked: counting
  // every loud second as 1 + 2 * pad seconds left half of a busy stream's loud seconds unheard while the model
  // listened to half its budget.
  const locallyLoud = (i: number) => Number(localDb[i]! >= minLoudDb);
  const loud = loudnessAboveBaselineDb
    .map((db, i) => ({ db, i }))
    .filter((x) => x.db >= minLoudDb)
    .sort((a, b) => locallyLoud(b.i) - locallyLoud(a.i) || b.db - a.db || a.i - b.i);
  const marked = new Uint8Array(n);
  let count = 0;
  for (const { i } of loud) {
    const from = Math.max(0, i - rules.padSeconds);
    const to = Math.min(n - 1, i + rules.padSeconds);
    let added = 0;
    for (let j = from; j <= to; j++) if (!marked[j]) added++;
    if (count + added > budget) break;
    for (let j = from; j <= to; j++) marked[j] = 1;
    count += added;
  }
  const out: Stretch[] = [];
  for (let i = 0; i < n; i++) {
    if (!marked[i]) continue;
    const last = out.at(-1);
    if (last && i - last.end <= rules.joinGapSeconds) last.end = i + 1;
    else out.push({ start: i, end: i + 1 });
  }
  return out;
}
