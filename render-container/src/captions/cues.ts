import type { Cue, CueWord, Word } from "./types";

/** A pause longer than this between words starts a new caption (CueOptions.maxGap's default). */
export const CAPTION_PAUSE_SECONDS = 0.8;

export interface CueOptions {
  /** Longest caption text, characters (two short lines on a vertical video). Default 32. */
  maxChars?: number;
  /** Longest time one caption stays, seconds. Default 3. */
  maxDuration?: number;
  /** A pause longer than this between words starts a new caption. Default 0.8 s. */
  maxGap?: number;
  /** Shortest time a caption stays readable, seconds; extended into the following silence. Default 0.7. */
  minDuration?: number;
  /** Length of the clip the words are timed in: a short caption is never lengthened past its end (the .srt would
   *  show a caption after the video ended). */
  duration?: number;
}

/**
 * Groups timed words into captions: a caption closes when adding the next word would exceed maxChars or
 * maxDuration, or at a pause. Words must be sorted by time; empty/blank words are skipped.
 */
export function wordsToCues(words: readonly Word[], opts: CueOptions = {}): Cue[] {
  const maxChars = opts.maxChars ?? 32;
  const maxDuration = opts.maxDuration ?? 3;
  const maxGap = opts.maxGap ?? CAPTION_PAUSE_SECONDS;
  const minDuration = opts.minDuration ?? 0.7;
  const cues: Cue[] = [];
  type Open = { start: number; end: number; words: CueWord[] };
  let cur: Open | null = null;

  const close = () => {
    if (cur) cues.push({ start: cur.start, end: cur.end, text: cur.words.map((w) => w.text).join(" "), words: cur.words });
    cur = null;
  };

  for (const w of words) {
    const text = w.word.trim();
    if (!text || !(w.end >= w.start)) continue;
    const word = { text, start: round3(w.start), end: round3(w.end) };
    if (cur) {
      const c: Open = cur;
      const joined = c.words.map((x) => x.text).join(" ").length + 1 + text.length;
      if (joined > maxChars || w.end - c.start > maxDuration || w.start - c.end > maxGap) close();
    }
    if (!cur) cur = { start: w.start, end: w.end, words: [word] };
    else {
      const c: Open = cur;
      c.words.push(word);
      c.end = w.end;
    }
  }
  close();

  // Lengthen short cues into the silence after them, never into the next cue nor past the clip's end.
  const clipEnd = opts.duration ?? Infinity;
  for (let i = 0; i < cues.length; i++) {
    const c = cues[i]!;
    const next = cues[i + 1];
    if (c.end - c.start < minDuration) c.end = Math.max(c.end, Math.min(c.start + minDuration, next ? next.start : Infinity, clipEnd));
    c.start = round3(c.start);
    c.end = round3(c.end);
  }
  return cues;
}

/** Shifts cues by `offset` seconds and drops those outside [0, duration]; clips the ones on the edges. */
export function clipCues(cues: readonly Cue[], offset: number, duration: number): Cue[] {
  const out: Cue[] = [];
  for (const c of cues) {
    const start = Math.max(0, c.start + offset);
    const end = Math.min(duration, c.end + offset);
    if (end - start <= 0.05) continue;
    const cue: Cue = { start: round3(start), end: round3(end), text: c.text };
    if (c.words) {
      cue.words = c.words.map((w) => ({ text: w.text, start: round3(Math.min(end, Math.max(start, w.start + offset))), end: round3(Math.min(end, Math.max(start, w.end + offset))) }));
    }
    out.push(cue);
  }
  return out;
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}
