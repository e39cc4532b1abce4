import { z } from "zod";
import { validationError } from "../lib/api-error";
import type { StreamedTranscriptionForm } from "./transcription-body";
import { aiBadAnswer, TRANSCRIBE_MODEL } from "./workers-ai";

/** What the renderer sends (OpenAI's `POST /audio/transcriptions`), read from its multipart form. */
export interface TranscriptionRequest {
  /** The wav, base64: the form the model takes, built while the body streamed in (the wav is not kept). */
  audioBase64: string;
  audioBytes: number;
  /** ISO 639-1, or null to let the model detect it. */
  language: string | null;
  verbose: boolean;
}

/** Checks the streamed form; every problem is a 422 naming the field. */
export function checkTranscriptionForm(form: StreamedTranscriptionForm): TranscriptionRequest {
  if (form.audioBase64 === null) throw validationError([{ field: "file", message: "must be the audio file (multipart/form-data file field)" }]);
  if (form.audioBytes === 0) throw validationError([{ field: "file", message: "is empty" }]);

  const rawLanguage = form.fields.get("language");
  let language: string | null = null;
  if (rawLanguage?.trim()) {
    language = rawLanguage.trim().toLowerCase().split(/[-_]/)[0]!;
    if (!/^[a-z]{2,3}$/.test(language)) throw validationError([{ field: "language", message: "must be an ISO 639-1 language code such as \"en\"" }]);
  }
  const responseFormat = form.fields.get("response_format") || "json";
  if (responseFormat !== "json" && responseFormat !== "verbose_json") {
    throw validationError([{ field: "response_format", message: "must be \"json\" or \"verbose_json\"" }]);
  }
  return { audioBase64: form.audioBase64, audioBytes: form.audioBytes, language, verbose: responseFormat === "verbose_json" };
}

/** The model's input: base64 audio, as its schema documents (a string, or {body, contentType}). */
export function whisperInput(req: TranscriptionRequest): Ai_Cf_Openai_Whisper_Large_V3_Turbo_Input {
  return { audio: req.audioBase64, task: "transcribe", ...(req.language ? { language: req.language } : {}) };
}

/** The model's documented output (workers-types Ai_Cf_Openai_Whisper_Large_V3_Turbo_Output); every field but text optional. */
const WhisperOutput = z.object({
  text: z.string(),
  transcription_info: z.object({ language: z.string().optional(), duration: z.number().optional() }).partial().optional(),
  segments: z
    .array(
      z.object({
        start: z.number().optional(),
        end: z.number().optional(),
        text: z.string().optional(),
        avg_logprob: z.number().optional(),
        no_speech_prob: z.number().optional(),
        compression_ratio: z.number().optional(),
        temperature: z.number().optional(),
        words: z.array(z.object({ word: z.string().optional(), start: z.number().optional(), end: z.number().optional() })).optional(),
      }),
    )
    .optional(),
});

/** OpenAI's verbose_json: what the renderer's Whisper client reads (words for timing, segments for confidence). */
export interface VerboseTranscription {
  task: "transcribe";
  /** Left out when the model does not say (OpenAI's always has them; the renderer does without). */
  language?: string;
  duration?: number;
  text: string;
  words: { word: string; start: number; end: number }[];
  segments: { id: number; start: number; end: number; text: string; avg_logprob?: number; no_speech_prob?: number; compression_ratio?: number; temperature?: number }[];
}

/**
 * Workers AI's answer as OpenAI's verbose_json: the segments (with their log probability and no-speech
 * probability, from which the renderer judges confidence) and the words inside them, times in seconds from the
 * start of the audio sent. Speech the model heard but could not time is an answer the renderer cannot caption.
 */
export function toVerboseJson(output: unknown): VerboseTranscription {
  const parsed = WhisperOutput.safeParse(output);
  if (!parsed.success) throw aiBadAnswer(TRANSCRIBE_MODEL, parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const out = parsed.data;
  const timed = <T extends { start?: number; end?: number }>(x: T): x is T & { start: number; end: number } =>
    typeof x.start === "number" && typeof x.end === "number" && x.end >= x.start;
  const segments = (out.segments ?? []).filter(timed);
  const words = segments.flatMap((s) =>
    (s.words ?? []).filter(timed).flatMap((w) => (w.word?.trim() ? [{ word: w.word.trim(), start: w.start, end: w.end }] : [])),
  );
  if (out.text.trim() && segments.length === 0) throw aiBadAnswer(TRANSCRIBE_MODEL, "text without timed segments");
  return {
    task: "transcribe",
    ...(out.transcription_info?.language === undefined ? {} : { language: out.transcription_info.language }),
    ...(out.transcription_info?.duration === undefined ? {} : { duration: out.transcription_info.duration }),
    text: out.text,
    words,
    segments: segments.map((s, id) => ({
      id,
      start: s.start,
      end: s.end,
      text: s.text ?? "",
      ...(s.avg_logprob === undefined ? {} : { avg_logprob: s.avg_logprob }),
      ...(s.no_speech_prob === undefined ? {} : { no_speech_prob: s.no_speech_prob }),
      ...(s.compression_ratio === undefined ? {} : { compression_ratio: s.compression_ratio }),
      ...(s.temperature === undefined ? {} : { temperature: s.temperature }),
    })),
  };
}
