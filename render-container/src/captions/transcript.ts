import { TRANSCRIPT_VERSION, type ShortTranscript, type TranscriptWord } from "../../../common/handoff/transcript";
import { isProfane, isSlur, maskWord } from "./profanity";
import type { Word } from "./types";

export interface TranscriptInput {
  index: number;
  short: string;
  vodStart: number;
  vodEnd: number;
  language: string;
  recogniser: string;
  captionsBurned: boolean;
  /** Every word the recogniser heard, seconds from the short's first frame. */
  heard: readonly Word[];
  /** The words the captions show (trustedWords' `words`: copies of heard words, a profane one masked). */
  shown: readonly Word[];
  /** The job's mask_profanity: a profane word left out of the captions is masked here too. */
  maskProfanity: boolean;
  note: string | null;
}

const ms = (n: number) => Math.round(n * 1000) / 1000;
/** A heard word and its shown copy have the same times (trustedWords copies them, changing only the text). */
const key = (w: Pick<Word, "start" | "end">) => `${w.start}:${w.end}`;

/**
 * The short's transcript document (common/handoff/transcript.ts): every heard word in time order, `shown` where
 * the captions show it, with the text they show; words not shown keep the recogniser's text, a profane one masked
 * as the captions would have masked it.
 */
export function shortTranscript(i: TranscriptInput): ShortTranscript {
  const shown = new Map(i.shown.map((w) => [key(w), w.word]));
  const words: TranscriptWord[] = [...i.heard]
    .filter((w) => w.word.trim() && w.end >= w.start)
    .sort((a, b) => a.start - b.start)
    .map((w) => {
      const text = w.word.trim();
      const as = shown.get(key(w));
      const word = as ?? (isProfane(text) && (i.maskProfanity || isSlur(text)) ? maskWord(text) : text);
      return { word, start: ms(w.start), end: ms(w.end), confidence: w.confidence === undefined ? null : ms(w.confidence), shown: as !== undefined };
    });
  return {
    version: TRANSCRIPT_VERSION,
    index: i.index,
    short: i.short,
    vod_start: ms(i.vodStart),
    vod_end: ms(i.vodEnd),
    language: i.language,
    recogniser: i.recogniser,
    captions_burned: i.captionsBurned,
    words,
    note: i.note,
  };
}
