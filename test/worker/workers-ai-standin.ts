/**
 * A stand-in for the Workers AI binding (an outside service): `run(model, inputs)` answers in the models'
 * documented output shapes (typed with workers-types' own definitions, so a shape that drifts from them does not
 * compile), records every call, and can be told to fail.
 *
 * Whisper: it "hears" the wav it is sent. Every burst of sound is one word (alpha, bravo, ...) timed where the burst
 * is, and bursts less than 0.6 s apart form one segment, so tests can check the Worker's mapping of times and the
 * renderer's chunk offsets against where the sound really is.
 */

import { soundBursts, wavSamples } from "../support/tone-wav";

export const WHISPER = "@cf/openai/whisper-large-v3-turbo";

/** The binding's own error type: `InferenceUpstreamError("<code>: <description>")`. */
export class InferenceUpstreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InferenceUpstreamError";
  }
}

export interface RecordedCall {
  model: string;
  inputs: Record<string, unknown>;
}

const VOCABULARY = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett", "kilo", "lima"];

export class WorkersAiStandIn {
  readonly calls: RecordedCall[] = [];
  private readonly failures: unknown[] = [];
  private readonly replies: unknown[] = [];

  /** The next calls throw these, one each, in order. */
  failNext(...errors: unknown[]): this {
    this.failures.push(...errors);
    return this;
  }

  /** The next text model calls answer these (a whole output object), in order; afterwards `{response: "{}"}`. */
  replyNext(...outputs: unknown[]): this {
    this.replies.push(...outputs);
    return this;
  }

  async run(model: string, inputs: Record<string, unknown>): Promise<unknown> {
    this.calls.push({ model, inputs });
    if (this.failures.length) throw this.failures.shift();
    if (model === WHISPER) return transcribe(inputs);
    if (model.startsWith("@cf/meta/")) return this.replies.length ? this.replies.shift() : chatOutput("{}");
    throw new InferenceUpstreamError(`5007: No such model ${model} or task`);
  }

  /** As the Worker's env wants it. */
  get binding(): Ai {
    return this as unknown as Ai;
  }
}

export function chatOutput(response: string): Ai_Cf_Meta_Llama_3_3_70B_Instruct_Fp8_Fast_Output {
  return { response, usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } };
}

function transcribe(inputs: Record<string, unknown>): Ai_Cf_Openai_Whisper_Large_V3_Turbo_Output {
  if (typeof inputs.audio !== "string") throw new InferenceUpstreamError("5004: Invalid data type for base64 input: object");
  let pcm: Int16Array;
  try {
    pcm = wavSamples(Uint8Array.from(atob(inputs.audio), (c) => c.charCodeAt(0)));
  } catch (error) {
    throw new InferenceUpstreamError(`3010: Invalid or incomplete input for the model: ${(error as Error).message}`);
  }
  const bursts = soundBursts(pcm, 16_000);
  const segments: NonNullable<Ai_Cf_Openai_Whisper_Large_V3_Turbo_Output["segments"]> = [];
  bursts.forEach((b, i) => {
    const word = { word: ` ${VOCABULARY[i % VOCABULARY.length]}`, start: round2(b.start), end: round2(b.end) };
    const last = segments.at(-1);
    if (last && b.start - last.end! < 0.6) {
      last.words!.push(word);
      last.end = word.end;
      last.text += word.word;
    } else {
      segments.push({ start: word.start, end: word.end, text: word.word, avg_logprob: -0.05, no_speech_prob: 0.01, compression_ratio: 1.2, temperature: 0, words: [word] });
    }
  });
  return {
    transcription_info: { language: typeof inputs.language === "string" ? inputs.language : "en", language_probability: 0.99, duration: pcm.length / 16_000, duration_after_vad: pcm.length / 16_000 },
    text: segments.map((s) => s.text).join("").trim(),
    word_count: bursts.length,
    segments,
    vtt: "WEBVTT\n",
  };
}

const round2 = (v: number) => Math.round(v * 100) / 100;
