import { parseJsonBody } from "../lib/json-body";
import { Hono, type Context } from "hono";
import { AI_TRANSCRIPTION_MAX_BODY_BYTES, AI_TRANSCRIPTION_MAX_SECONDS } from "../../../common/contract/workers-ai";
import { ChatRequest, checkPromptSize, textModelInput, toChatCompletion } from "../ai/chat";
import { checkTranscriptionForm, toVerboseJson, whisperInput } from "../ai/transcription";
import { readTranscriptionBody } from "../ai/transcription-body";
import { aiFailure, textModel, TRANSCRIBE_MODEL, workersAi } from "../ai/workers-ai";
import type { AppEnv } from "../hono-env";
import { limitBody } from "../middleware/body-limit";
import { ApiError } from "../lib/api-error";
import { logEvent } from "../lib/log";
import { callerOf, rendererAiAuth, TASK_ATTEMPT_PREFIX } from "../orchestration/renderer-auth";
import type { CallVerdict } from "../orchestration/task-call-scope";

/**
 * Workers AI for the renderer, as a small OpenAI-compatible API per task attempt (contract:
 * common/contract/workers-ai.ts), under that attempt's own path and token (its task request's `ai`):
 *
 *   POST /internal/jobs/{id}/tasks/{task}/attempts/{attempt}/ai/v1/audio/transcriptions   Whisper (word timings),
 *        one chunk of at most 120 s
 *   POST /internal/jobs/{id}/tasks/{task}/attempts/{attempt}/ai/v1/chat/completions       the instruct model, for
 *        titles, descriptions and stories
 *
 * Only while the job runs and the attempt is current (orchestration/task-call-scope.ts): the model calls are billed
 * to this account, so a finished job's or a superseded attempt's renderer runs none. `/internal/jobs/{id}/ai/v1/...`
 * with the job's token serves only attempts claimed by the previous Worker version (remove with the next release).
 * The Worker does not retry a failed model call itself; it answers 503 (`ai_unavailable`, Retry-After) for what
 * may pass and the renderer, which owns the chunk, sends it again.
 */
export const internalAiRoutes = new Hono<AppEnv>();

/** Each route on the attempt's path and on the job-wide legacy one. */
const paths = (route: string) => [`${TASK_ATTEMPT_PREFIX}/ai/v1${route}`, `/jobs/:id/ai/v1${route}`];
/** Chat requests carry the prompt only (AI_CHAT_MAX_PROMPT_CHARS characters, up to 4 bytes each in UTF-8). */
const MAX_CHAT_BODY_BYTES = 256 * 1024;

/** The binding, after the checks every AI call needs: the Worker has Workers AI, the job runs, the caller's attempt is current. */
async function admit(c: Context<AppEnv>): Promise<Ai> {
  const ai = workersAi(c.env);
  if (!ai) throw new ApiError(404, "ai_not_available", "This Worker has no Workers AI binding in use (none bound, or WORKERS_AI is \"off\").");
  const jobId = c.req.param("id") ?? "";
  // RPC results carry Disposable; the plain union narrows.
  const verdict = (await c.env.JOB_STATE.get(c.env.JOB_STATE.idFromName(jobId)).aiAccess(callerOf(c))) as CallVerdict;
  if (!verdict.ok) throw new ApiError(verdict.status, verdict.code, verdict.message, verdict.extra ?? {});
  return ai;
}

/** Runs the model, turning its failures into answers and logging what it cost in time. */
async function runModel(c: Context<AppEnv>, ai: Ai, model: string, input: Record<string, unknown>, fields: Record<string, unknown>): Promise<unknown> {
  const started = Date.now();
  try {
    // The binding's types tie each model name to its input; the model is chosen at run time here.
    const output = await (ai as unknown as { run(model: string, input: Record<string, unknown>): Promise<unknown> }).run(model, input);
    logEvent("info", "workers ai call", { request_id: c.get("requestId"), job_id: c.req.param("id"), task_id: c.req.param("task"), model, ms: Date.now() - started, ...fields });
    return output;
  } catch (error) {
    const failure = aiFailure(model, error);
    logEvent("warn", "workers ai call failed", { request_id: c.get("requestId"), job_id: c.req.param("id"), task_id: c.req.param("task"), model, ms: Date.now() - started, status: failure.status, error: failure.message, ...fields });
    throw failure;
  }
}

const tooLarge = (max: number, what: string) => () => {
  throw new ApiError(413, "payload_too_large", `${what} may be at most ${max} bytes.`, { max_bytes: max });
};

internalAiRoutes.on(
  "POST",
  paths("/audio/transcriptions"),
  rendererAiAuth,
  limitBody(AI_TRANSCRIPTION_MAX_BODY_BYTES, tooLarge(AI_TRANSCRIPTION_MAX_BODY_BYTES, `A transcription request (${AI_TRANSCRIPTION_MAX_SECONDS} s of 16 kHz mono wav)`)),
  async (c) => {
    const ai = await admit(c);
    // Streamed, the wav goes straight into base64: the route holds that text and the model call's request, no
    // parsed form or copy of the wav (the peak per chunk: docs/DEPLOY.md, "Worker memory").
    const req = checkTranscriptionForm(await readTranscriptionBody(c.req.raw));
    const output = await runModel(c, ai, TRANSCRIBE_MODEL, { ...whisperInput(req) }, { audio_bytes: req.audioBytes, language: req.language });
    const verbose = toVerboseJson(output);
    return c.json(req.verbose ? verbose : { text: verbose.text }, 200);
  },
);

internalAiRoutes.on(
  "POST",
  paths("/chat/completions"),
  rendererAiAuth,
  limitBody(MAX_CHAT_BODY_BYTES, tooLarge(MAX_CHAT_BODY_BYTES, "A chat completion request")),
  async (c) => {
    const ai = await admit(c);
    const request = await parseJsonBody(c, ChatRequest, "chat completion request");
    checkPromptSize(request);
    const model = textModel(c.env);
    const output = await runModel(c, ai, model, textModelInput(request), { prompt_chars: request.messages.reduce((n, m) => n + m.content.length, 0) });
    return c.json(toChatCompletion(model, output), 200);
  },
);
