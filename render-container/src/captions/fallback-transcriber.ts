import type { TranscribeOptions, Transcriber } from "./transcriber";
import type { Word } from "./types";

/**
 * A remote recogniser (Workers AI through the Worker, any Whisper-compatible API) backed by the offline one: when
 * the remote one fails for good (after its own retries), the same wav is transcribed offline and the job's
 * warnings say so, so a flaky or exhausted service costs caption quality, never the captions. A language the
 * offline recogniser has no model for keeps the remote failure (no captions, said by the caller).
 */
export class FallbackTranscriber implements Transcriber {
  readonly name: string;
  readonly local: boolean;

  constructor(
    private readonly primary: Transcriber,
    private readonly fallback: Transcriber,
  ) {
    this.name = primary.name;
    // Plans (which ranges to transcribe) follow the recogniser that is meant to run.
    this.local = primary.local;
  }

  supportsLanguage(language: string | null): boolean {
    return this.primary.supportsLanguage(language) || this.fallback.supportsLanguage(language);
  }

  async transcribe(wavPath: string, opts: TranscribeOptions): Promise<Word[]> {
    try {
      return await this.primary.transcribe(wavPath, opts);
    } catch (err) {
      if (opts.signal?.aborted || !this.fallback.supportsLanguage(opts.language)) throw err;
      const words = await this.fallback.transcribe(wavPath, opts);
      const why = err instanceof Error ? err.message : String(err);
      opts.warn?.(`${this.primary.name} could not transcribe (${why.slice(0, 200)}); the offline recogniser (${this.fallback.name}) was used instead.`);
      return words;
    }
  }
}
