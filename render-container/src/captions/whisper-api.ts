import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { primaryLanguage, type TranscribeOptions, type Transcriber } from "./transcriber";
import type { Word } from "./types";
import { sleep } from "../../../common/sleep";

export interface WhisperApiOptions {
  /** Base URL of an OpenAI-compatible API, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey?: string;
  /** Default `whisper-1`. */
  model?: string;
  fetchImpl?: typeof fetch;
  /** Per-request time limit. Default 120 s. */
  timeoutMs?: number;
  /** Attempts on network errors, 429 and 5xx. Default 3. */
  attempts?: number;
  /** First retry delay; doubles each time. Default 1000 ms. */
  retryDelayMs?: number;
}

const VerboseTranscription = z.object({
  text: z.string().optional(),
  language: z.string().optional(),
  // `probability` per word: whisper servers built on faster-whisper add it; OpenAI's API does not.
  words: z.array(z.object({ word: z.string(), start: z.number(), end: z.number(), probability: z.number().nullish() })).nullish(),
  segments: z
    .array(z.object({ start: z.number(), end: z.number(), text: z.string(), avg_logprob: z.number().nullish(), no_speech_prob: z.number().nullish() }))
    .nullish(),
});
type VerboseTranscription = z.infer<typeof VerboseTranscription>;

export class TranscriptionApiError extends Error {
  readonly code = "transcription_failed";
  constructor(message: string, readonly status: number | null) {
    super(message);
    this.name = "TranscriptionApiError";
  }
}

/**
 * Spreads a segment's words evenly over its time span, weighted by word length: APIs that return only
 * segments still give captions that follow the speech closely enough.
 */
export function segmentsToWords(segments: readonly Segment[]): Word[] {
  const words: Word[] = [];
  for (const s of segments) {
    const tokens = s.text.trim().split(/\s+/).filter(Boolean);
    if (!tokens.length || !(s.end > s.start)) continue;
    const total = tokens.reduce((n, t) => n + t.length + 1, 0);
    const confidence = segmentConfidence(s);
    let t = s.start;
    for (const token of tokens) {
      const d = ((token.length + 1) / total) * (s.end - s.start);
      words.push({ word: token, start: round3(t), end: round3(t + d), ...(confidence === undefined ? {} : { confidence }) });
      t += d;
    }
  }
  return words;
}

type Segment = { start: number; end: number; text: string; avg_logprob?: number | null; no_speech_prob?: number | null };

/**
 * A segment's confidence: its mean token probability (exp of Whisper's avg_logprob), and none at all when Whisper
 * itself thinks the segment is probably not speech (hallucinated text over music or silence).
 */
export function segmentConfidence(s: Segment): number | undefined {
  if (s.avg_logprob == null) return undefined;
  if ((s.no_speech_prob ?? 0) > 0.6) return 0;
  return round3(Math.min(1, Math.exp(s.avg_logprob)));
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}

export function wordsFromResponse(body: VerboseTranscription): Word[] {
  if (body.words && body.words.length) {
    const segments = body.segments ?? [];
    return body.words
      .map((w) => {
        // A word's own probability when the server gives one, else its segment's.
        const mid = (w.start + w.end) / 2;
        const seg = segments.find((s) => mid >= s.start && mid <= s.end);
        const confidence = w.probability ?? (seg ? segmentConfidence(seg) : undefined);
        return { word: w.word.trim(), start: w.start, end: w.end, ...(confidence == null ? {} : { confidence }) };
      })
      .filter((w) => w.word && w.end >= w.start);
  }
  return segmentsToWords(body.segments ?? []);
}

/**
 * Transcription through an OpenAI-compatible `POST {baseUrl}/audio/transcriptions` (OpenAI Whisper, Groq,
 * a local whisper server, ...): multipart with the wav, `verbose_json` and word timestamps; many languages.
 */
export class WhisperApiTranscriber implements Transcriber {
  readonly name = "whisper-api";
  readonly local = false;
  private readonly model: string;

  constructor(private readonly opts: WhisperApiOptions) {
    this.model = opts.model ?? "whisper-1";
  }

  supportsLanguage(): boolean {
    return true;
  }

  async transcribe(wavPath: string, opts: TranscribeOptions): Promise<Word[]> {
    const audio = await fs.readFile(wavPath);
    const url = `${this.opts.baseUrl.replace(/\/+$/, "")}/audio/transcriptions`;
    const attempts = this.opts.attempts ?? 3;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      opts.signal?.throwIfAborted();
      const form = new FormData();
      form.append("file", new Blob([audio], { type: "audio/wav" }), path.basename(wavPath));
      form.append("model", this.model);
      form.append("response_format", "verbose_json");
      form.append("timestamp_granularities[]", "word");
      form.append("timestamp_granularities[]", "segment");
      const language = primaryLanguage(opts.language);
      if (language) form.append("language", language);
      const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 120_000);
      const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
      try {
        const res = await (this.opts.fetchImpl ?? fetch)(url, {
          method: "POST",
          headers: this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {},
          body: form,
          signal,
        });
        if (res.ok) {
          const parsed = VerboseTranscription.safeParse(await res.json());
          if (!parsed.success) throw new TranscriptionApiError(`unexpected transcription response: ${parsed.error.message}`, res.status);
          return wordsFromResponse(parsed.data);
        }
        const detail = (await res.text()).slice(0, 300);
        lastError = new TranscriptionApiError(`transcription API answered ${res.status}: ${detail}`, res.status);
        if (res.status !== 429 && res.status < 500) throw lastError;
      } catch (err) {
        if (opts.signal?.aborted) throw opts.signal.reason;
        if (err instanceof TranscriptionApiError && err.status !== null && err.status !== 429 && err.status < 500) throw err;
        lastError = err;
      }
      if (attempt < attempts) await sleep((this.opts.retryDelayMs ?? 1000) * 2 ** (attempt - 1), opts.signal);
    }
    throw lastError instanceof Error ? lastError : new TranscriptionApiError(String(lastError), null);
  }
}

