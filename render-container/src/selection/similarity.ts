import type { MomentSignals } from "../../../common/contract/render";

export interface Span {
  start: number;
  end: number;
}

/**
 * Gap (seconds) at which two moments' time similarity has fallen to 1/e. Short: two clips a few seconds apart
 * are often two different events close together (a play, then chat laughing at the streamer's reaction).
 */
export const PROXIMITY_SCALE_SECONDS = 10;

export function overlapSeconds(a: Span, b: Span): number {
  return Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
}

/** Beyond this gap two moments are unrelated (similarity 0), whatever the threshold. */
export const UNRELATED_GAP_SECONDS = 5 * PROXIMITY_SCALE_SECONDS;

/** 1 for overlapping moments, decaying with the gap between them. */
export function timeSimilarity(a: Span, b: Span): number {
  if (overlapSeconds(a, b) > 0) return 1;
  const gap = Math.max(0, Math.max(a.start, b.start) - Math.min(a.end, b.end));
  return gap >= UNRELATED_GAP_SECONDS ? 0 : Math.exp(-gap / PROXIMITY_SCALE_SECONDS);
}

/** Cosine similarity of what drove two moments (chat vs voice vs loudness vs talking), 0..1. */
export function signalSimilarity(a: MomentSignals, b: MomentSignals): number {
  const va = [a.audience_score, a.streamer_score, a.audio_hype, a.speech_activity];
  const vb = [b.audience_score, b.streamer_score, b.audio_hype, b.speech_activity];
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < va.length; i++) {
    dot += va[i]! * vb[i]!;
    na += va[i]! * va[i]!;
    nb += vb[i]! * vb[i]!;
  }
  // Two moments with no signal at all (e.g. quiet manual ranges) are alike.
  if (na === 0 || nb === 0) return na === nb ? 1 : 0;
  return Math.max(0, Math.min(1, dot / Math.sqrt(na * nb)));
}

/**
 * How much two moments are "the same highlight twice", 0..1: close in time AND driven by the same kind of
 * signal. Two nearby moments of different kinds (chat laughing at a joke, then the streamer raging) are
 * less similar than two back-to-back chat bursts.
 */
export function momentSimilarity(a: Span & { signals: MomentSignals }, b: Span & { signals: MomentSignals }): number {
  return timeSimilarity(a, b) * (0.5 + 0.5 * signalSimilarity(a.signals, b.signals));
}

/**
 * True when `candidate` may not join `chosen`: it overlaps one of them (a reel never shows the same seconds
 * twice) or is more similar to one than the threshold allows (higher threshold lets more through).
 */
export function isNearDuplicate(candidate: Span & { signals: MomentSignals }, chosen: readonly (Span & { signals: MomentSignals })[], threshold: number): boolean {
  return chosen.some((c) => overlapSeconds(candidate, c) > 0 || momentSimilarity(candidate, c) > threshold);
}
