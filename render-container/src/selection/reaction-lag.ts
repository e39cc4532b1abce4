import type { ChatBurst } from "../analysis/types";
import { quantile } from "../analysis/stats";

/**
 * How late this stream's chat reacts. Chat sees the stream through the broadcast delay and then reads and
 * types: 5-15 s on a typical stream, 20-30 s on one with a long delay or a slow crowd. A burst is credited to
 * the stretch of the stream it reacts to, so a wrong lag puts chat's reaction beside the moment instead of on it:
 * the shout and the burst then look like two half-moments, and a moment strong on both signals loses.
 *
 * The lag is read from the stream itself: the streamer's own events (loud speech the voice model heard) that
 * come shortly before chat's bursts. The gap that most bursts share is the stream's lag, and the spread of those
 * gaps is how far the credited stretch must reach. With too few such pairs the usual range is used.
 */
export const LAG_RULES = {
  /** The usual range, credited when the stream does not show its own: chat reacts 3-15 s after its moment. */
  defaultRange: { min: 3, max: 15 },
  /**
   * How far back a moment only chat reacted to may lie when the stream does not show its lag: chat behind a long
   * broadcast delay reacts up to 30 s late. Only the clip reaches that far (its setup, kept as the budget allows);
   * the score is credited over the usual range, where most streams' moments are.
   */
  unknownReachSeconds: 30,
  /**
   * Within that reach, a burst with no streamer event in the usual range but one further back is credited to that
   * event (second-scores.ts lateEventFor): from its onset, this many seconds (a shout's length).
   */
  lateEventCreditSeconds: 5,
  /** A burst starting this soon after the previous one ends is a second wave of the same reaction. */
  waveGapSeconds: 5,
  /** The longest lag looked for. */
  maxLagSeconds: 32,
  /**
   * A streamer event: the streamer score rises to at least this (its onset is where it first reaches half of its
   * peak). computeSecondScores passes the stream's own event level instead (evidence.ts streamerEventLevel).
   */
  streamerEventScore: 0.35,
  /** A burst that counts for the estimate. */
  minBurstScore: 0.35,
  /** How much earlier than a streamer event's onset a burst may start and still be read as reacting to it. */
  onsetSlackSeconds: 2,
  /** Gaps within this many seconds of a candidate lag support it. */
  toleranceSeconds: 4,
  /** Bursts whose gap must support the chosen lag before it replaces the usual range... */
  minPairs: 2,
  /**
   * ...and that many pairs must be unlikely by chance: below this probability (Poisson, from how densely the
   * stream's events fall, over every lag looked at). Two bursts 29 s after two of six shouts in 25 minutes are
   * a lag; two bursts after two of sixty shouts are not.
   */
  maxChance: 0.05,
  /** The credited stretch is at least this wide, and reaches this far past the supporting gaps on each side. */
  minWidthSeconds: 10,
  marginSeconds: 3,
} as const;

export interface ReactionLag {
  /** A burst whose first messages come at chat time c reacts to the stream between c - max and c - min. */
  min: number;
  max: number;
  /** How the range was found: from the stream's own pairs, or the usual range. */
  source: "stream" | "default";
  pairs: number;
  /** How far before a burst its moment may lie: `max`, or further when the stream does not show its lag. */
  reach: number;
}

/** Onsets (seconds) of the streamer's events: runs of the score at or above the event level. */
export function streamerEventOnsets(streamer: readonly number[], level: number = LAG_RULES.streamerEventScore): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < streamer.length) {
    if (streamer[i]! < level) {
      i++;
      continue;
    }
    let j = i;
    let peak = i;
    while (j < streamer.length && streamer[j]! >= level * 0.5) {
      if (streamer[j]! > streamer[peak]!) peak = j;
      j++;
    }
    // The onset: the first second of the run at half its peak (where the shout starts, not where it is loudest).
    let onset = peak;
    while (onset > i && streamer[onset - 1]! >= streamer[peak]! * 0.5) onset--;
    out.push(onset);
    i = j;
  }
  return out;
}

/** `eventLevel`: the streamer score that makes an event on this stream (computeSecondScores gives evidence's). */
export function estimateReactionLag(bursts: readonly ChatBurst[], streamer: readonly number[], rules = LAG_RULES, eventLevel: number = rules.streamerEventScore): ReactionLag {
  const fallback: ReactionLag = { ...rules.defaultRange, source: "default", pairs: 0, reach: Math.max(rules.defaultRange.max, rules.unknownReachSeconds) };
  const events = streamerEventOnsets(streamer, eventLevel);
  const strong = bursts.filter((b) => b.score >= rules.minBurstScore);
  if (events.length === 0 || strong.length < rules.minPairs) return fallback;
  // Every gap from a burst back to a streamer event within reach.
  // From 0, and gaps down to -2 s count for it: chat that reacts within a second or two (a low-latency stream)
  // starts its burst about when the streamer's shout reaches half its peak in the 3 s average the onset is read from.
  const gaps = strong.map((b) => events.map((e) => b.onset - e).filter((g) => g >= -rules.onsetSlackSeconds && g <= rules.maxLagSeconds));
  let best = { lag: 0, support: 0 };
  for (let lag = 0; lag <= rules.maxLagSeconds; lag++) {
    const support = gaps.filter((gs) => gs.some((g) => Math.abs(g - lag) <= rules.toleranceSeconds)).length;
    if (support > best.support) best = { lag, support };
  }
  if (best.support < rules.minPairs) return fallback;
  // Chance alone: bursts in a stream full of shouts find some event at any lag. The chosen lag must be supported
  // clearly more than a lag picked at random would be.
  const supports: number[] = [];
  for (let lag = 0; lag <= rules.maxLagSeconds; lag++) supports.push(gaps.filter((gs) => gs.some((g) => Math.abs(g - lag) <= rules.toleranceSeconds)).length);
  if (best.support < 1.5 * quantile(supports, 0.5)) return fallback;
  if (chanceOfSupport(best.support, strong.length, events.length, streamer.length, rules) > rules.maxChance) return fallback;
  const chosen = gaps.flatMap((gs) => {
    const near = gs.filter((g) => Math.abs(g - best.lag) <= rules.toleranceSeconds);
    return near.length > 0 ? [near.reduce((a, b) => (Math.abs(a - best.lag) <= Math.abs(b - best.lag) ? a : b))] : [];
  });
  // A lag below 0 is the onsets' measuring error (above): the credited stretch may reach that far past the burst.
  let min = Math.max(-rules.onsetSlackSeconds, Math.floor(quantile(chosen, 0) - rules.marginSeconds));
  let max = Math.ceil(quantile(chosen, 1) + rules.marginSeconds);
  if (max - min < rules.minWidthSeconds) {
    const grow = rules.minWidthSeconds - (max - min);
    min = Math.max(-rules.onsetSlackSeconds, min - Math.ceil(grow / 2));
    max = min + Math.max(rules.minWidthSeconds, max - min);
  }
  // The stream's own range widens the usual one rather than replacing it: a few pairs can be chance (a streamer-only
  // shout that happens to come 20 s before an unrelated burst), and a burst that does react within the usual
  // 3-15 s must keep its moment. Audience-only moments have no pair to show their lag, but their chat comes
  // through the same delay, so they are credited over the widened range too.
  const widest = Math.max(max, rules.defaultRange.max);
  return { min: Math.min(min, rules.defaultRange.min), max: widest, source: "stream", pairs: best.support, reach: widest };
}

/**
 * The chance that `support` of `bursts` bursts find one of `events` events within the tolerance of one lag, if
 * bursts and events were unrelated, over all the lags looked at (about maxLag / window independent tries).
 */
export function chanceOfSupport(support: number, bursts: number, events: number, seconds: number, rules: Pick<typeof LAG_RULES, "toleranceSeconds" | "maxLagSeconds"> = LAG_RULES): number {
  const window = 2 * rules.toleranceSeconds + 1;
  const perBurst = Math.min(1, (events * window) / Math.max(1, seconds));
  const lambda = bursts * perBurst;
  // P(X >= support) for X ~ Poisson(lambda).
  let term = Math.exp(-lambda);
  let below = 0;
  for (let k = 0; k < support; k++) {
    below += term;
    term *= lambda / (k + 1);
  }
  const tries = Math.max(1, rules.maxLagSeconds / window);
  return Math.min(1, Math.max(0, 1 - below) * tries);
}
