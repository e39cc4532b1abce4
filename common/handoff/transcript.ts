import { z } from "zod";

/**
 * A short's word-level transcript (short-NN.transcript.json): every word the recogniser heard in the short, with its
 * times and confidence, and whether the captions show it (the burned captions and the .srt show exactly the words
 * marked `shown`, in this order). For an editor re-cutting the short, or re-styling its captions in their NLE.
 */
export const TRANSCRIPT_VERSION = 1 as const;

export const TranscriptWord = z.object({
  /** As the captions show it when shown; a profane word is masked ("f***") unless the job asked for mask_profanity false (slurs always). */
  word: z.string(),
  /** Seconds from the short's first frame (the .srt's clock); add `vod_start` for the VOD's clock. */
  start: z.number(),
  end: z.number(),
  /** The recogniser's confidence 0..1; null when it gives none. */
  confidence: z.number().min(0).max(1).nullable(),
  /** Whether the captions show this word (doubtful words are left out: docs/CAPTIONS.md). */
  shown: z.boolean(),
});
export type TranscriptWord = z.infer<typeof TranscriptWord>;

export const ShortTranscript = z.object({
  version: z.literal(TRANSCRIPT_VERSION),
  /** The short's 1-based index and file name. */
  index: z.number().int().positive(),
  short: z.string(),
  /** The short's range on the VOD's clock, seconds. */
  vod_start: z.number(),
  vod_end: z.number(),
  /** The language the speech was recognised in, and by which recogniser ("pocketsphinx", "whisper-api", ...). */
  language: z.string(),
  recogniser: z.string(),
  /** Whether the captions are burned into the video (they are always in the .srt). */
  captions_burned: z.boolean(),
  words: z.array(TranscriptWord),
  /** Why there are no words, when the speech was not transcribed (a language the recogniser lacks, or its failure); else null. */
  note: z.string().nullable(),
});
export type ShortTranscript = z.infer<typeof ShortTranscript>;
