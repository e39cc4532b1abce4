import type { NormalizedJobRequest } from "../../../common/contract/normalized-request";
import { primaryLanguage } from "../captions/transcriber";

export interface JobLanguages {
  /** What the speech is in (captions): null when nobody knows. */
  stream: string | null;
  /** What titles, descriptions, tags and stories are written in. */
  metadata: string;
}

/** A detected language worth trusting: an ISO 639-1 code (Twitch also reports e.g. "other" or "asl"). */
function detectedCode(value: string | null | undefined): string | null {
  const l = primaryLanguage(value);
  return l && /^[a-z]{2}$/.test(l) ? value!.trim() : null;
}

/**
 * The languages of a job: `stream_language` overrides detection (what Twitch reports for the VOD,
 * first known value of `detected`); `metadata_language` defaults to the stream language, and to English
 * when that is unknown too.
 */
export function jobLanguages(request: Pick<NormalizedJobRequest, "stream_language" | "metadata_language">, detected: readonly (string | null | undefined)[]): JobLanguages {
  const stream = request.stream_language?.trim() || detected.map(detectedCode).find((l) => l !== null) || null;
  return { stream, metadata: request.metadata_language?.trim() || stream || "en" };
}
