import type { Word } from "./types";

export interface TranscribeOptions {
  /** ISO 639-1 language of the speech, or null when unknown. */
  language: string | null;
  signal?: AbortSignal;
  /** Receives a note for the job's warnings when the words came another way than asked (e.g. a fallback). */
  warn?: (message: string) => void;
}

/** Speech to timed words. Times are seconds from the start of the given wav. */
export interface Transcriber {
  /** Short name for logs and warnings, e.g. "pocketsphinx" or "whisper-api". */
  readonly name: string;
  /** Runs on this machine's CPU (competing with the encodes), rather than behind an API. */
  readonly local: boolean;
  /** Whether captions in this language can be produced at all (null: unknown language). */
  supportsLanguage(language: string | null): boolean;
  transcribe(wavPath: string, opts: TranscribeOptions): Promise<Word[]>;
}

/** Thrown when a transcriber is asked for a language it has no model for. */
export class UnsupportedLanguageError extends Error {
  readonly code = "captions_language_unsupported";
  constructor(readonly transcriber: string, readonly language: string) {
    super(`${transcriber} cannot transcribe language "${language}"`);
    this.name = "UnsupportedLanguageError";
  }
}

/** Lowercase primary subtag of a language code ("en-US" -> "en"); null when empty. */
export function primaryLanguage(language: string | null | undefined): string | null {
  const l = language?.trim().toLowerCase().split(/[-_]/)[0];
  return l ? l : null;
}

/** The language of what a transcriber heard: the job's, else English from the offline recogniser (it knows no other). */
export function heardLanguage(transcriber: Pick<Transcriber, "local">, language: string | null): string | null {
  return language ?? (transcriber.local ? "en" : null);
}
