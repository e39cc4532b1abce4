/** A recognised word, seconds from the start of the transcribed audio. */
export interface Word {
  word: string;
  start: number;
  end: number;
  /**
   * How sure the recogniser is of this word, 0..1, when it says (pocketsphinx: the word's posterior probability;
   * a Whisper API: the segment's average token probability). Undefined when the recogniser gives nothing.
   */
  confidence?: number;
  /**
   * Whether the checking searches over the same audio all heard this word at the same time (pocketsphinx's fast
   * search over the audio delayed 5 and 15 ms, beside its accurate one). Undefined when no check ran.
   */
  crossChecked?: boolean;
}

/** One word of a caption, seconds from the start of the short: what word-by-word highlighting follows. */
export interface CueWord {
  text: string;
  start: number;
  end: number;
}

/** One caption, seconds from the start of the short. */
export interface Cue {
  start: number;
  end: number;
  text: string;
  /** The caption's words with their times (their texts joined by spaces are `text`); absent on parsed .srt. */
  words?: CueWord[];
}
