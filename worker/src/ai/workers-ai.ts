import { workerConfig } from "../config";
import type { Env } from "../env";
import { ApiError } from "../lib/api-error";

/** Whisper with word timings (input and output: workers-types' Ai_Cf_Openai_Whisper_Large_V3_Turbo_*). */
export const TRANSCRIBE_MODEL = "@cf/openai/whisper-large-v3-turbo";

/** The Workers AI binding when this Worker may use it: bound, and WORKERS_AI is not "off". */
export function workersAi(env: Env): Ai | null {
  if (!env.AI || !workerConfig(env).workersAi) return null;
  return env.AI;
}

export function textModel(env: Env): string {
  return workerConfig(env).workersAiTextModel;
}

/**
 * Workers AI's errors worth another try (developers.cloudflare.com/workers-ai/platform/errors): 3007 timeout,
 * 3008 aborted, 3040 out of capacity. 3036 (the account's daily allocation is used up) is a 429 too, but asking
 * again within a job cannot help.
 */
const TRANSIENT_CODES = new Set([3007, 3008, 3040]);
const REQUEST_TOO_LARGE = 3006;

/** Seconds the renderer is asked to wait before sending a transient failure again. */
const RETRY_AFTER_SECONDS = 2;

/**
 * A failed model call as the route's answer. The binding throws `InferenceUpstreamError("<code>: <description>")`;
 * an error without a code (network, the binding itself) counts as transient.
 */
export function aiFailure(model: string, error: unknown): ApiError {
  const message = error instanceof Error ? error.message : String(error);
  const code = Number(/^\s*(\d{4})\s*:/.exec(message)?.[1] ?? NaN);
  const said = message.slice(0, 300);
  if (code === REQUEST_TOO_LARGE) {
    return new ApiError(413, "payload_too_large", `Workers AI refused the request to ${model} as too large (${said}).`, { ai_code: code });
  }
  if (Number.isNaN(code) || TRANSIENT_CODES.has(code)) {
    return new ApiError(503, "ai_unavailable", `Workers AI could not run ${model} just now (${said}); try again shortly.`, { ...(Number.isNaN(code) ? {} : { ai_code: code }), retry_after_seconds: RETRY_AFTER_SECONDS }, {
      "Retry-After": String(RETRY_AFTER_SECONDS),
    });
  }
  return new ApiError(422, "ai_refused", `Workers AI refused to run ${model} (${said}).`, { ai_code: code });
}

/** The model answered, but not in its documented shape: asking again is unlikely to help. */
export function aiBadAnswer(model: string, what: string): ApiError {
  return new ApiError(502, "ai_bad_answer", `Workers AI's ${model} answered in an unexpected shape (${what.slice(0, 300)}).`);
}
