import { PocketsphinxTranscriber } from "./pocketsphinx";
import type { Transcriber } from "./transcriber";
import { WhisperApiTranscriber } from "./whisper-api";

/**
 * Whisper through an OpenAI-compatible API when TRANSCRIBE_API_URL is set (TRANSCRIBE_API_KEY,
 * TRANSCRIBE_MODEL optional; model defaults to whisper-1), otherwise offline pocketsphinx (English only).
 */
export function createTranscriber(env: NodeJS.ProcessEnv = process.env, fetchImpl?: typeof fetch): Transcriber {
  const url = env.TRANSCRIBE_API_URL?.trim();
  if (url) {
    return new WhisperApiTranscriber({
      baseUrl: url,
      apiKey: env.TRANSCRIBE_API_KEY || undefined,
      model: env.TRANSCRIBE_MODEL || undefined,
      fetchImpl,
    });
  }
  return new PocketsphinxTranscriber();
}

export interface CaptionPlan {
  /** Transcribe at all (for the .srt sidecar and burn-in). */
  transcribe: boolean;
  /** Burn the captions into the video. */
  burn: boolean;
  /** For the job manifest's warnings, when captions had to be dropped. */
  warning: string | null;
}

/**
 * Decides what captions a job gets. A language the transcriber has no model for (pocketsphinx: anything but
 * English) yields no captions at all, neither burned nor as .srt, rather than wrong-language gibberish;
 * the job still succeeds and says why in its warnings.
 */
export function planCaptions(transcriber: Transcriber, language: string | null, burnRequested: boolean): CaptionPlan {
  if (!transcriber.supportsLanguage(language)) {
    return {
      transcribe: false,
      burn: false,
      warning: `Captions were skipped: the offline speech recogniser (${transcriber.name}) only understands English and the stream language is "${language}". Configure a Whisper-compatible transcription API for other languages.`,
    };
  }
  return { transcribe: true, burn: burnRequested, warning: null };
}
