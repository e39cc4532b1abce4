import { beforeAll, describe, expect, it } from "vitest";
import type { RenderTaskRequest } from "../../common/contract/job-plan";
import { AI_CHAT_MAX_PROMPT_CHARS, AI_CHAT_MAX_TOKENS, AI_TRANSCRIPTION_MAX_BODY_BYTES, AI_TRANSCRIPTION_MAX_SECONDS } from "../../common/contract/workers-ai";
import { createAccount, expectError, type TestAccount } from "./helpers";
import { callWithEnv, createJob, deliver, jobState, rendererAnswers, rendererLog, startedJob } from "./job-steps";
import { toneWav } from "../support/tone-wav";
import { chatOutput, InferenceUpstreamError, WHISPER, WorkersAiStandIn } from "./workers-ai-standin";

/**
 * The Worker's Workers AI routes for the renderer (routes/internal-ai.ts), with the AI binding replaced by a
 * stand-in that answers in the models' documented shapes (workers-ai-standin.ts). Jobs are dispatched for real, so
 * the AI endpoint and token are the ones the renderer receives in its task request.
 */

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 1_000_000, purchase: true });
});

/** A dispatched (running) job as its renderer sees it. */
async function runningJob(): Promise<RenderTaskRequest & { ai: { url: string; token: string } }> {
  const { render } = await startedJob(acct.api_key);
  expect(render.ai).toBeTruthy();
  return render as RenderTaskRequest & { ai: { url: string; token: string } };
}

const pathOf = (url: string) => new URL(url).pathname;
/** An internal error's additions beyond the public envelope. */
const extra = (error: object) => error as Record<string, unknown>;

function transcriptionForm(wav: Uint8Array, fields: Record<string, string> = { model: "whisper-1", response_format: "verbose_json", language: "en-US" }): FormData {
  const form = new FormData();
  form.append("file", new Blob([wav], { type: "audio/wav" }), "speech.wav");
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

function transcribe(ai: WorkersAiStandIn | null, job: { ai: { url: string; token: string } }, body: FormData | string, token: string | null = job.ai.token, envOverrides: Record<string, unknown> = {}): Promise<Response> {
  return callWithEnv({ AI: ai?.binding, ...envOverrides }, `${pathOf(job.ai.url)}/audio/transcriptions`, {
    method: "POST",
    headers: token === null ? {} : { Authorization: `Bearer ${token}` },
    body,
  });
}

function chat(ai: WorkersAiStandIn, job: { ai: { url: string; token: string } }, body: unknown, envOverrides: Record<string, unknown> = {}): Promise<Response> {
  return callWithEnv({ AI: ai.binding, ...envOverrides }, `${pathOf(job.ai.url)}/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${job.ai.token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Three bursts: two close together (one segment), one after a pause (a second segment). */
const BURSTS = [
  { start: 0.5, end: 0.9 },
  { start: 1.1, end: 1.6 },
  { start: 3.0, end: 3.4 },
];

describe("the job's AI endpoint", () => {
  it("comes with every task request while the binding is in use, on the task attempt's own path and token", async () => {
    const render = await runningJob();
    expect(render.ai).toEqual({ url: `https://api.test/internal/jobs/${render.job_id}/tasks/analyse/attempts/1/ai/v1`, token: render.callback.token });
  });

  it("is left out when WORKERS_AI is off (the local dev stack), so the renderer stays offline", async () => {
    const { ack, message } = await createJob(acct.api_key);
    await rendererAnswers(ack.id, 202);
    await deliver(message, { env: { WORKERS_AI: "off" } });
    const [start] = (await rendererLog(ack.id)).starts as RenderTaskRequest[];
    expect(start!.ai).toBeNull();
  });
});

describe("POST /internal/jobs/{id}/tasks/{task}/attempts/{n}/ai/v1/audio/transcriptions", () => {
  let job: Awaited<ReturnType<typeof runningJob>>;
  beforeAll(async () => {
    job = await runningJob();
  });

  it("sends Whisper the wav as base64 with the language's primary subtag, and answers OpenAI's verbose_json with word timings", async () => {
    const ai = new WorkersAiStandIn();
    const wav = toneWav(4, BURSTS);
    const res = await transcribe(ai, job, transcriptionForm(wav));
    expect(res.status, await res.clone().text()).toBe(200);

    expect(ai.calls).toHaveLength(1);
    const { model, inputs } = ai.calls[0]!;
    expect(model).toBe(WHISPER);
    expect(inputs).toEqual({ audio: expect.any(String), task: "transcribe", language: "en" });
    expect(Uint8Array.from(atob(inputs.audio as string), (c) => c.charCodeAt(0))).toEqual(wav);

    const body = (await res.json()) as { text: string; language: string; duration: number; words: { word: string; start: number; end: number }[]; segments: { start: number; end: number; text: string; avg_logprob: number; no_speech_prob: number }[] };
    expect(body.text).toBe("alpha bravo charlie");
    expect(body.language).toBe("en");
    expect(body.duration).toBeCloseTo(4, 3);
    expect(body.words.map((w) => w.word)).toEqual(["alpha", "bravo", "charlie"]);
    body.words.forEach((w, i) => {
      expect(w.start).toBeCloseTo(BURSTS[i]!.start, 1);
      expect(w.end).toBeCloseTo(BURSTS[i]!.end, 1);
    });
    // Segments keep what the renderer judges confidence from.
    expect(body.segments).toEqual([
      expect.objectContaining({ id: 0, text: " alpha bravo", avg_logprob: -0.05, no_speech_prob: 0.01 }),
      expect.objectContaining({ id: 1, text: " charlie", avg_logprob: -0.05, no_speech_prob: 0.01 }),
    ]);
  });

  it("answers only the text for response_format json, and lets the model detect an absent language", async () => {
    const ai = new WorkersAiStandIn();
    const res = await transcribe(ai, job, transcriptionForm(toneWav(2, [BURSTS[0]!]), { response_format: "json" }));
    expect(await res.json()).toEqual({ text: "alpha" });
    expect(ai.calls[0]!.inputs).not.toHaveProperty("language");
  });

  it("refuses calls without the attempt's token, or with another job's, before any model runs", async () => {
    const ai = new WorkersAiStandIn();
    const other = await runningJob();
    await expectError(await transcribe(ai, job, transcriptionForm(toneWav(1, [])), null), 401, "unauthorized");
    await expectError(await transcribe(ai, job, transcriptionForm(toneWav(1, [])), other.ai.token), 401, "unauthorized");
    expect(ai.calls).toEqual([]);
  });

  it("serves a job only while it runs (a cancelled job has failed)", async () => {
    const ai = new WorkersAiStandIn();
    const done = await runningJob();
    await jobState(done.job_id).cancel();
    const error = await expectError(await transcribe(ai, done, transcriptionForm(toneWav(1, []))), 409, "job_not_running");
    expect(error.status).toBe("failed");
    expect(ai.calls).toEqual([]);
  });

  it("answers 404 ai_not_available without a binding, or with WORKERS_AI off", async () => {
    await expectError(await transcribe(null, job, transcriptionForm(toneWav(1, []))), 404, "ai_not_available");
    const ai = new WorkersAiStandIn();
    await expectError(await transcribe(ai, job, transcriptionForm(toneWav(1, [])), job.ai.token, { WORKERS_AI: "off" }), 404, "ai_not_available");
    expect(ai.calls).toEqual([]);
  });

  it("takes one chunk of at most 120 s of wav: the limit passes, anything above is 413 before the model runs", async () => {
    const ai = new WorkersAiStandIn();
    const max = AI_TRANSCRIPTION_MAX_SECONDS;
    expect(max).toBe(120);
    const fits = await transcribe(ai, job, transcriptionForm(toneWav(max, [{ start: max - 1, end: max - 0.5 }])));
    expect(fits.status, await fits.clone().text()).toBe(200);
    expect(((await fits.json()) as { words: { start: number }[] }).words[0]!.start).toBeCloseTo(max - 1, 1);
    const tooLong = await transcribe(ai, job, transcriptionForm(toneWav(max + 10, [])));
    const error = await expectError(tooLong, 413, "payload_too_large");
    expect(extra(error).max_bytes).toBe(AI_TRANSCRIPTION_MAX_BODY_BYTES);
    expect(ai.calls).toHaveLength(1);
  });

  it("names what is wrong with a malformed request", async () => {
    const ai = new WorkersAiStandIn();
    const noFile = new FormData();
    noFile.append("model", "whisper-1");
    expect((await expectError(await transcribe(ai, job, noFile), 422, "validation_failed")).detail).toEqual([{ field: "file", message: expect.stringContaining("audio file") }]);
    expect((await expectError(await transcribe(ai, job, "not a form"), 422, "validation_failed")).detail).toEqual([{ field: "body", message: expect.stringContaining("multipart/form-data") }]);
    expect((await expectError(await transcribe(ai, job, transcriptionForm(toneWav(1, []), { language: "english!" })), 422, "validation_failed")).detail).toEqual([{ field: "language", message: expect.stringContaining("ISO 639-1") }]);
    expect((await expectError(await transcribe(ai, job, transcriptionForm(toneWav(1, []), { response_format: "srt" })), 422, "validation_failed")).detail).toEqual([{ field: "response_format", message: expect.stringContaining("verbose_json") }]);
    expect(ai.calls).toEqual([]);
  });

  it("answers 503 ai_unavailable with Retry-After for failures worth another try, and the next try succeeds", async () => {
    const ai = new WorkersAiStandIn().failNext(new InferenceUpstreamError("3040: No more data centers to forward the request to"), new Error("Network connection lost."));
    const form = () => transcriptionForm(toneWav(2, [BURSTS[0]!]));
    for (const expected of [3040, undefined]) {
      const res = await transcribe(ai, job, form());
      expect(res.headers.get("Retry-After")).toBe("2");
      const error = await expectError(res, 503, "ai_unavailable");
      expect(extra(error).ai_code).toBe(expected);
      expect(error.retry_after_seconds).toBe(2);
    }
    const retried = await transcribe(ai, job, form());
    expect(retried.status).toBe(200);
    expect(ai.calls).toHaveLength(3);
  });

  it("passes on Workers AI's refusals as answers not worth repeating", async () => {
    const ai = new WorkersAiStandIn().failNext(new InferenceUpstreamError("5004: Invalid data type for base64 input: object"), new InferenceUpstreamError("3006: Request is too large"), new InferenceUpstreamError("3036: You have used up your daily free allocation of 10,000 neurons."));
    const form = () => transcriptionForm(toneWav(1, []));
    expect((await expectError(await transcribe(ai, job, form()), 422, "ai_refused")).message).toContain("5004: Invalid data type");
    expect(extra(await expectError(await transcribe(ai, job, form()), 413, "payload_too_large")).ai_code).toBe(3006);
    expect(extra(await expectError(await transcribe(ai, job, form()), 422, "ai_refused")).ai_code).toBe(3036);
  });

  it("leaves out the language and duration when the model does not give them (every field but text is optional)", async () => {
    const bare = { run: async () => ({ text: "", segments: [] }) } as unknown as Ai;
    const res = await callWithEnv({ AI: bare }, `${pathOf(job.ai.url)}/audio/transcriptions`, { method: "POST", headers: { Authorization: `Bearer ${job.ai.token}` }, body: transcriptionForm(toneWav(1, [])) });
    expect(await res.json()).toEqual({ task: "transcribe", text: "", words: [], segments: [] });
  });

  it("answers 502 ai_bad_answer when the model's output is not its documented shape", async () => {
    const ai = new WorkersAiStandIn();
    const odd = { run: async () => ({ transcript: "hello" }) } as unknown as Ai;
    await expectError(await callWithEnv({ AI: odd }, `${pathOf(job.ai.url)}/audio/transcriptions`, { method: "POST", headers: { Authorization: `Bearer ${job.ai.token}` }, body: transcriptionForm(toneWav(1, [])) }), 502, "ai_bad_answer");
    const untimed = { run: async () => ({ text: "hello there", segments: [] }) } as unknown as Ai;
    const res = await callWithEnv({ AI: untimed }, `${pathOf(job.ai.url)}/audio/transcriptions`, { method: "POST", headers: { Authorization: `Bearer ${job.ai.token}` }, body: transcriptionForm(toneWav(1, [])) });
    expect((await expectError(res, 502, "ai_bad_answer")).message).toContain("without timed segments");
    expect(ai.calls).toEqual([]);
  });
});

describe("POST /internal/jobs/{id}/tasks/{task}/attempts/{n}/ai/v1/chat/completions", () => {
  let job: Awaited<ReturnType<typeof runningJob>>;
  beforeAll(async () => {
    job = await runningJob();
  });
  const messages = [
    { role: "system", content: "You write titles. Answer with a JSON object." },
    { role: "user", content: '{"moments":[{"id":"m1"}]}' },
  ];

  it("runs the instruct model with the messages, JSON mode and room for a whole answer, and answers a chat completion", async () => {
    const ai = new WorkersAiStandIn().replyNext(chatOutput('{"moments":[{"id":"m1","title":"Clutch"}]}'));
    const res = await chat(ai, job, { model: "gpt-4o-mini", temperature: 0.4, response_format: { type: "json_object" }, messages });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(ai.calls).toEqual([
      {
        model: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
        inputs: { messages, max_tokens: AI_CHAT_MAX_TOKENS, temperature: 0.4, response_format: { type: "json_object" } },
      },
    ]);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
      choices: [{ index: 0, message: { role: "assistant", content: '{"moments":[{"id":"m1","title":"Clutch"}]}' }, finish_reason: "stop" }],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    });
  });

  it("hands back JSON the model returned already parsed as text, and uses WORKERS_AI_TEXT_MODEL when set", async () => {
    const ai = new WorkersAiStandIn().replyNext({ response: { moments: [] } });
    const res = await chat(ai, job, { messages }, { WORKERS_AI_TEXT_MODEL: "@cf/meta/llama-3.1-8b-instruct-fast" });
    const body = (await res.json()) as { model: string; choices: { message: { content: string } }[] };
    expect(body.model).toBe("@cf/meta/llama-3.1-8b-instruct-fast");
    expect(JSON.parse(body.choices[0]!.message.content)).toEqual({ moments: [] });
    expect(ai.calls[0]!.inputs).toEqual({ messages, max_tokens: AI_CHAT_MAX_TOKENS });
  });

  it("refuses a prompt longer than the model's context before it runs", async () => {
    const ai = new WorkersAiStandIn();
    const long = [{ role: "user", content: "x".repeat(AI_CHAT_MAX_PROMPT_CHARS + 1) }];
    expect(extra(await expectError(await chat(ai, job, { messages: long }), 413, "payload_too_large")).max_chars).toBe(AI_CHAT_MAX_PROMPT_CHARS);
    expect(ai.calls).toEqual([]);
  });

  it("names what is wrong with a malformed request", async () => {
    const ai = new WorkersAiStandIn();
    const fields = async (body: unknown) => ((await expectError(await chat(ai, job, body), 422, "validation_failed")).detail ?? []).map((d) => d.field);
    expect(await fields({ messages: [] })).toEqual(["messages"]);
    expect(await fields({ messages: [{ role: "robot", content: "hi" }] })).toEqual(["messages[0].role"]);
    expect(await fields({ messages, max_tokens: AI_CHAT_MAX_TOKENS + 1 })).toEqual(["max_tokens"]);
    expect(ai.calls).toEqual([]);
  });

  it("maps the model's failures like the transcription route, and an answer without text to 502", async () => {
    const ai = new WorkersAiStandIn().failNext(new InferenceUpstreamError("3040: No more data centers to forward the request to"));
    await expectError(await chat(ai, job, { messages }), 503, "ai_unavailable");
    ai.replyNext({ usage: {} });
    await expectError(await chat(ai, job, { messages }), 502, "ai_bad_answer");
    expect(ai.calls).toHaveLength(2);
  });
});
