/**
 * Scores clips against a source-b stream's truth (dev/synth-streams-b), which the selection never sees.
 * A clip holds a moment when the moment's peak is inside it. Each clip is one of: on a real moment (holds a
 * hype, streamer-only or audience-only peak), on a distractor (overlaps a distractor and holds no real peak), on
 * a reaction only (overlaps chat's lagging reaction to a real moment but not the moment itself: the viewer sees
 * chat's cause missing), or empty (nothing planted at all).
 */
import type { MomentKind, MomentTruthB, StreamTruthB } from "../../dev/synth-streams-b";
import { neverQuoted, type ChatVocabulary } from "../../dev/synth-streams-b";

export interface Clip {
  start: number;
  end: number;
}

export interface TallyB {
  streams: number;
  clips: number;
  clipsPerStream: number[];
  planted: Partial<Record<MomentKind, number>>;
  found: Partial<Record<MomentKind, number>>;
  bothStrongPlanted: number;
  bothStrongFound: number;
  /** Real moments whose shout lasts under SHORT_SHOUT_SECONDS ("WHAT?! NO WAY!"), and how many were found. */
  shortShoutPlanted: number;
  shortShoutFound: number;
  realClips: number;
  distractorClips: number;
  reactionOnlyClips: number;
  emptyClips: number;
  /** Seconds of the clip after the peak, for hype and audience-only moments it holds. */
  payoff: number[];
  midSentence: number;
  /** Clip edges less than NEAR_SPEECH seconds from any sentence (inside one, or just before or after it). */
  nearSpeech: number;
  ends: number;
  examples: string[];
}

export const newTallyB = (): TallyB => ({
  streams: 0, clips: 0, clipsPerStream: [], planted: {}, found: {}, bothStrongPlanted: 0, bothStrongFound: 0, shortShoutPlanted: 0, shortShoutFound: 0,
  realClips: 0, distractorClips: 0, reactionOnlyClips: 0, emptyClips: 0, payoff: [], midSentence: 0, nearSpeech: 0, ends: 0, examples: [],
});

/**
 * A shout shorter than this is reported apart: an exclamation of a second or two ("WHAT?!", "NO WAY!") is what a
 * streamer's biggest reaction often is, and on a second's scale it is the hardest to hear (session 23: on source
 * c's spent held-out seeds `streamer` found 16 of 24 such shouts and 61 of 65 longer ones).
 */
export const SHORT_SHOUT_SECONDS = 2.5;

const holds = (c: Clip, t: number) => c.start <= t && t < c.end;
const overlap = (c: Clip, a: number, b: number) => Math.max(0, Math.min(c.end, b) - Math.max(c.start, a));

/** A distractor's extent: its sound, swell, spam or raid (chat events by their messages' offsets). */
function extentOf(m: MomentTruthB, truth: StreamTruthB): [number, number] {
  const ev = truth.chat.events.find((e) => e.moment_id === m.id);
  return [Math.min(m.peak, ev?.start ?? m.peak), Math.max(m.end, ev ? ev.end + 1 : m.end)];
}

/** Overlapping a distractor this much (or half of a short one) puts the clip on it. */
const DISTRACTOR_OVERLAP = 4;
/** A cut this far inside a sentence's ends counts as cutting through it. */
const SENTENCE_MARGIN = 0.15;
/**
 * A cut closer than this to a sentence is counted apart: a judge whose sentences carry their speech engine's
 * silence, or who counts a fading last syllable in, sees such a cut inside the sentence.
 */
const NEAR_SPEECH = 0.3;

export function scoreClipsB(t: TallyB, truth: StreamTruthB, clips: readonly Clip[]): void {
  t.streams++;
  t.clips += clips.length;
  t.clipsPerStream.push(clips.length);
  for (const m of truth.moments) {
    t.planted[m.kind] = (t.planted[m.kind] ?? 0) + 1;
    const found = clips.some((c) => holds(c, m.peak));
    if (found) t.found[m.kind] = (t.found[m.kind] ?? 0) + 1;
    if (m.both_strong) {
      t.bothStrongPlanted++;
      if (found) t.bothStrongFound++;
    }
    if (m.real && m.shout && m.shout.end - m.shout.start < SHORT_SHOUT_SECONDS) {
      t.shortShoutPlanted++;
      if (found) t.shortShoutFound++;
    }
  }
  for (const c of clips) {
    const real = truth.moments.filter((m) => m.real && holds(c, m.peak));
    const where = `${truth.vod_id} ${c.start.toFixed(1)}-${c.end.toFixed(1)}`;
    if (real.length > 0) {
      t.realClips++;
      for (const m of real) if (m.kind === "hype" || m.kind === "audience_only") t.payoff.push(c.end - m.peak);
    } else {
      const distractors = truth.moments.filter((m) => {
        if (m.real) return false;
        const [a, b] = extentOf(m, truth);
        return holds(c, m.peak) || overlap(c, a, b) >= Math.min(DISTRACTOR_OVERLAP, (b - a) / 2);
      });
      const reactions = truth.chat.events.filter((e) => e.kind === "reaction" && overlap(c, e.start, e.end + 1) > 0);
      if (distractors.length > 0) {
        t.distractorClips++;
        t.examples.push(`${where}: on ${distractors.map((m) => m.id).join(", ")}`);
      } else if (reactions.length > 0) {
        t.reactionOnlyClips++;
        t.examples.push(`${where}: only chat's reaction to ${reactions.map((e) => e.moment_id).join(", ")}`);
      } else {
        t.emptyClips++;
        // A lag-corrected chat event can pull a clip before it: name the chat event that starts soon after.
        const next = truth.chat.events.find((e) => e.start >= c.end - 1 && e.start <= c.end + 35);
        t.examples.push(`${where}: empty${next ? ` (${next.moment_id}'s chat starts ${(next.start - c.end).toFixed(0)} s after its end)` : ""}`);
      }
    }
    for (const at of [c.start, c.end]) {
      t.ends++;
      const u = truth.utterances.find((x) => at > x.start + SENTENCE_MARGIN && at < x.end - SENTENCE_MARGIN);
      if (truth.utterances.some((x) => at > x.start - NEAR_SPEECH && at < x.end + NEAR_SPEECH)) t.nearSpeech++;
      if (u) {
        t.midSentence++;
        t.examples.push(`${truth.vod_id} cut at ${at.toFixed(2)} inside the ${u.speaker}'s "${u.text.slice(0, 28)}..." (${u.start.toFixed(2)}-${u.end.toFixed(2)})`);
      }
    }
  }
}

export function recallB(t: TallyB, kinds: readonly MomentKind[]): { found: number; planted: number } {
  return { found: kinds.reduce((s, k) => s + (t.found[k] ?? 0), 0), planted: kinds.reduce((s, k) => s + (t.planted[k] ?? 0), 0) };
}

const normal = (s: string) => s.toLowerCase().replace(/[^a-z0-9 ]+/g, " ").replace(/\s+/g, " ").trim();

/** The small talk or spam line a title quotes, if any (a greeting, a question, a looping account, promotion). */
export function quotedSmallTalk(title: string, chat: ChatVocabulary): { category: string; text: string } | null {
  const n = ` ${normal(title)} `;
  const hit = neverQuoted(chat).find((x) => n.includes(` ${normal(x.text)} `));
  return hit ? { category: hit.category, text: hit.text } : null;
}
