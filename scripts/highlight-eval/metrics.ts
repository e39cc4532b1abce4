/**
 * Scores chosen clips against a synthetic stream's truth (what was planted where). The selection never sees it.
 */
import type { MomentKind, SyntheticVodTruth } from "../../dev/synth-vod";

export interface Clip {
  start: number;
  end: number;
}

type MomentTruth = SyntheticVodTruth["moments"][number];

/** Moments a viewer wants to see; the rest are distractors that no profile should pick. */
export const REAL_KINDS: readonly MomentKind[] = ["hype", "streamer_only", "loud_only", "audience_only"];
export const isReal = (m: MomentTruth) => REAL_KINDS.includes(m.kind);
const contains = (c: Clip, t: number) => c.start <= t && t < c.end;

/** Sums over streams of one run (a profile or baseline under one budget). */
export interface Tally {
  vods: number;
  clips: number;
  clipsPerVod: number[];
  clipSeconds: number;
  /** Per kind: planted, and found (its peak inside a clip). */
  planted: Partial<Record<MomentKind, number>>;
  found: Partial<Record<MomentKind, number>>;
  /** Clips holding at least one real moment's peak. */
  relevantClips: number;
  /** Clips holding a distractor's peak and no real moment. */
  distractorClips: number;
  distractorExamples: string[];
  /** Per real moment inside a clip: seconds of the clip before its peak, and what the truth's setup needed. */
  lead: LeadEntry[];
  /** Per real moment inside a clip: seconds of the clip after its peak. */
  payoff: { kind: MomentKind; after: number }[];
  /** Clip ends (starts and ends) that fall inside a sentence the streamer is speaking. */
  midSentence: number;
  ends: number;
  midSentenceExamples: string[];
}

export function newTally(): Tally {
  return {
    vods: 0, clips: 0, clipsPerVod: [], clipSeconds: 0, planted: {}, found: {}, relevantClips: 0, distractorClips: 0,
    distractorExamples: [], lead: [], payoff: [], midSentence: 0, ends: 0, midSentenceExamples: [],
  };
}

/**
 * What "the setup was found" can mean. A setup marked in the media (the streamer starts talking after a pause, a
 * build-up begins, the scene cuts) can be found: the clip starts on the marker, from `SETUP_FOUND.early` s before
 * it to `SETUP_FOUND.late` s after (a start half a second into the pause before the talk, a build-up whose
 * beginning the loudness smooths over a few seconds). A clip that starts even earlier still covers the setup but
 * did not find it (it shows unrelated seconds first). A setup without any marker ("fixed": the streamer talks on
 * as before) cannot be found by anything that reads the stream: it is only reported as covered or not, and kept
 * apart from the found figures.
 */
export const SETUP_FOUND = { early: 2.5, late: 1 } as const;

export interface LeadEntry {
  kind: MomentKind;
  style: string;
  /** Seconds of the clip before the peak, and what the planted setup needed. */
  lead: number;
  needed: number;
}

export const isMarked = (l: LeadEntry) => l.style !== "fixed";
/** The clip starts at or before the planted setup (within the `late` tolerance). */
export const coversSetup = (l: LeadEntry) => l.lead >= l.needed - SETUP_FOUND.late;
/** The clip starts on the setup's marker. */
export const foundSetup = (l: LeadEntry) => coversSetup(l) && l.lead <= l.needed + SETUP_FOUND.early;

/** A cut this far inside a sentence's ends (seconds) counts as cutting through it. */
const SENTENCE_MARGIN = 0.15;

export function scoreClips(t: Tally, vodId: string, clips: readonly Clip[], truth: SyntheticVodTruth): void {
  t.vods++;
  t.clips += clips.length;
  t.clipsPerVod.push(clips.length);
  t.clipSeconds += clips.reduce((s, c) => s + (c.end - c.start), 0);
  for (const m of truth.moments) {
    t.planted[m.kind] = (t.planted[m.kind] ?? 0) + 1;
    if (clips.some((c) => contains(c, m.peak))) t.found[m.kind] = (t.found[m.kind] ?? 0) + 1;
  }
  const spoken = truth.sentences.filter((s) => !s.muted);
  for (const c of clips) {
    const inside = truth.moments.filter((m) => contains(c, m.peak));
    const real = inside.filter(isReal);
    if (real.length > 0) t.relevantClips++;
    else if (inside.length > 0) {
      t.distractorClips++;
      t.distractorExamples.push(`${vodId} ${c.start.toFixed(1)}-${c.end.toFixed(1)}: ${inside.map((m) => m.id).join(", ")}`);
    }
    for (const m of real) {
      t.lead.push({ kind: m.kind, style: m.setup_style ?? "fixed", lead: m.peak - c.start, needed: m.peak - m.setup_start });
      t.payoff.push({ kind: m.kind, after: c.end - m.peak });
    }
    for (const at of [c.start, c.end]) {
      t.ends++;
      const s = spoken.find((x) => at > x.start + SENTENCE_MARGIN && at < x.end - SENTENCE_MARGIN);
      if (s) {
        t.midSentence++;
        t.midSentenceExamples.push(`${vodId} cut at ${at.toFixed(2)} inside "${s.text.slice(0, 30)}..." (${s.start.toFixed(2)}-${s.end.toFixed(2)})`);
      }
    }
  }
}

export const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);

export function recallOf(t: Tally, kinds: readonly MomentKind[]): number | null {
  const planted = kinds.reduce((s, k) => s + (t.planted[k] ?? 0), 0);
  const found = kinds.reduce((s, k) => s + (t.found[k] ?? 0), 0);
  return ratio(found, planted);
}

export function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
