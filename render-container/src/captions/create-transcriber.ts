import type { RenderJob } from "../../../common/contract/render";
import { FallbackTranscriber } from "./fallback-transcriber";
import { PocketsphinxTranscriber } from "./pocketsphinx";
import type { Transcriber } from "./transcriber";
import { WhisperApiTranscriber } from "./whisper-api";

/**
 * Which recogniser a job uses, first match:
 * 1. TRANSCRIBE_API_URL: Whisper through that OpenAI-compatible API (TRANSCRIBE_API_KEY, TRANSCRIBE_MODEL optional;
 *    model defaults to whisper-1).
 * 2. The task's `ai` endpoint: Whisper on Workers AI through the Worker (common/contract/workers-ai.ts), with the
 *    token given beside it (the task attempt's).
 * 3. Offline pocketsphinx (English only): its accurate search cross-checked by its fast one, unless
 *    POCKETSPHINX_FAST=1 (fast search alone) or POCKETSPHINX_CROSS_CHECK=0 (accurate search alone).
 * A remote recogniser falls back to pocketsphinx when it fails, with a warning (FallbackTranscriber).
 */
export function createTranscriber(env: NodeJS.ProcessEnv = process.env, fetchImpl?: typeof fetch, ai?: RenderJob["ai"]): Transcriber {
  const offline = new PocketsphinxTranscriber({ search: env.POCKETSPHINX_FAST === "1" ? "fast" : "accurate", crossCheck: env.POCKETSPHINX_CROSS_CHECK !== "0" });
  const url = env.TRANSCRIBE_API_URL?.trim();
  if (url) {
    const api = new WhisperApiTranscriber({ baseUrl: url, apiKey: env.TRANSCRIBE_API_KEY || undefined, model: env.TRANSCRIBE_MODEL || undefined, fetchImpl });
    return new FallbackTranscriber(api, offline);
  }
  if (ai) return new FallbackTranscriber(new WhisperApiTranscriber({ baseUrl: ai.url, apiKey: ai.token, name: "workers-ai", fetchImpl }), offline);
  return offline;
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
      warning: `Captions were skipped: the offline speech recogniser (${transcriber.name}) only understands English and the stream language is "${language}". Deploy with the Workers AI binding (or set TRANSCRIBE_API_URL to a Whisper-compatible API) for other languages.`,
    };
  }
  return { transcribe: true, burn: burnRequested, warning: null };
}
