/** A recognised word, seconds from the start of the transcribed audio. */
export interface Word {
  word: string;
  start: number;
  end: number;
}

/** One caption, seconds from the start of the short. */
export interface Cue {
  start: number;
  end: number;
  text: string;
}
