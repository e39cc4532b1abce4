import { z } from "zod";
import { ShortSpeech } from "./job-plan";

/**
 * What a short heard, kept beside its files for the account's later re-cuts of the VOD (docs/TASK-MODEL.md, "A
 * re-cut's words heard once"): every word the recogniser gave over the short's range, on the VOD's clock, with the
 * confidences and cross-checks the captions' rules read (the public transcript, short-NN.transcript.json, masks
 * profanity and leaves the cross-checks out, so it cannot serve). A private object: never listed among the
 * deliverables nor in the ZIP, deleted with the job's other files.
 */
export const HEARD_WORDS_VERSION = 1 as const;

/** The object's name in the job's folder, per short (1-based index). */
export const heardWordsName = (index: number) => `short-${String(index).padStart(2, "0")}.heard.json`;

export const HeardWords = ShortSpeech.extend({
  version: z.literal(HEARD_WORDS_VERSION),
  vod_id: z.string(),
  /** The language the recogniser heard in. */
  language: z.string(),
});
export type HeardWords = z.infer<typeof HeardWords>;
