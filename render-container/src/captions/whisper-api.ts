import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { primaryLanguage, type TranscribeOptions, type Transcriber } from "./transcriber";
import type { Word } from "./types";
import { AI_TRANSCRIPTION_MAX_SECONDS } from "../../../common/contract/workers-ai";
import { isTransientStatus, PermanentError, withRetries } from "../http-retry";
import { splitWav } from "./wav-chunks";

export interface WhisperApiOptions {
  /** Base URL of an OpenAI-compatible API, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey?: string;
  /** Default `whisper-1`. */
  model?: string;
  /** For logs and warnings (default "whisper-api"; "workers-ai" through the Worker). */
  name?: string;
  fetchImpl?: typeof fetch;
  /** Per-request time limit. Default 120 s. */
  timeoutMs?: number;
  /** Attempts per chunk on network errors, 408, 429 and 5xx. Default 3. */
  attempts?: number;
  /** First retry delay; doubles each time. Default 1000 ms. */
  retryDelayMs?: number;
  /**
   * Longest audio sent in one request; longer wavs go in chunks cut at quiet moments. Default
   * AI_TRANSCRIPTION_MAX_SECONDS (120 s: the Worker's Workers AI route takes no more; OpenAI's 25 MB upload limit is about 13 minutes of the renderer's wav).
   */
  chunkSeconds?: number;
}

const VerboseTranscription = z.object({
  text: z.string().nullish(),
  language: z.string().nullish(),
  // `probability` per word: whisper servers built on faster-whisper add it; OpenAI's API does not.
  words: z.array(z.object({ word: z.string(), start: z.number(), end: z.number(), probability: z.number().nullish() })).nullish(),
  segments: z
    .array(z.object({ start: z.number(), end: z.number(), text: z.string(), avg_logprob: z.number().nullish(), no_speech_prob: z.number().nullish() }))
    .nullish(),
});
type VerboseTranscription = z.infer<typeof VerboseTranscription>;

/** The API refused the request or answered something unusable: asking again would not help. */
export class TranscriptionApiError extends PermanentError {
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
 * Transcription through an OpenAI-compatible `POST {baseUrl}/audio/transcriptions` (OpenAI Whisper, Groq, a local
 * whisper server, the Worker's Workers AI route, ...): multipart with the wav, `verbose_json` and word timestamps;
 * many languages. A wav longer than `chunkSeconds` goes in chunks, one request each, retried on their own; the
 * chunks' words are moved back onto the whole wav's clock.
 */
export class WhisperApiTranscriber implements Transcriber {
  readonly name: string;
  readonly local = false;
  private readonly model: string;

  constructor(private readonly opts: WhisperApiOptions) {
    this.model = opts.model ?? "whisper-1";
    this.name = opts.name ?? "whisper-api";
  }

  supportsLanguage(): boolean {
    return true;
  }

  async transcribe(wavPath: string, opts: TranscribeOptions): Promise<Word[]> {
    const chunks = splitWav(await fs.readFile(wavPath), this.opts.chunkSeconds ?? AI_TRANSCRIPTION_MAX_SECONDS);
    const words: Word[] = [];
    for (const [i, chunk] of chunks.entries()) {
      const name = chunks.length === 1 ? path.basename(wavPath) : `${path.basename(wavPath, ".wav")}-${i + 1}.wav`;
      for (const w of await this.transcribeChunk(chunk.bytes, name, opts)) {
        words.push({ ...w, start: round3(w.start + chunk.offsetSeconds), end: round3(w.end + chunk.offsetSeconds) });
      }
    }
    return words;
  }

  /** One request (retried on its own), times relative to the chunk. */
  private transcribeChunk(audio: Uint8Array, fileName: string, opts: TranscribeOptions): Promise<Word[]> {
    const url = `${this.opts.baseUrl.replace(/\/+$/, "")}/audio/transcriptions`;
    const language = primaryLanguage(opts.language);
    const attempt = async (): Promise<Word[]> => {
      const form = new FormData();
      form.append("file", new Blob([audio as Uint8Array<ArrayBuffer>], { type: "audio/wav" }), fileName);
      form.append("model", this.model);
      form.append("response_format", "verbose_json");
      form.append("timestamp_granularities[]", "word");
      form.append("timestamp_granularities[]", "segment");
      if (language) form.append("language", language);
      const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 120_000);
      const res = await (this.opts.fetchImpl ?? fetch)(url, {
        method: "POST",
        headers: this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {},
        body: form,
        signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
      });
      if (res.ok) {
        const parsed = VerboseTranscription.safeParse(await res.json());
        if (!parsed.success) throw new TranscriptionApiError(`unexpected transcription response: ${parsed.error.message}`, res.status);
        return wordsFromResponse(parsed.data);
      }
      const detail = (await res.text()).slice(0, 300);
      const message = `transcription API answered ${res.status}: ${detail}`;
      throw isTransientStatus(res.status) ? new Error(message) : new TranscriptionApiError(message, res.status);
    };
    return withRetries(`${this.name} transcription`, attempt, opts.signal, this.opts.attempts ?? 3, this.opts.retryDelayMs ?? 1000);
  }
}
