import fs from "node:fs/promises";
import type { ServerResponse } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTranscriber } from "../../../render-container/src/captions/create-transcriber";
import { extractWav } from "../../../render-container/src/captions/extract-wav";
import { wavSamples } from "../../support/tone-wav";
import { startRecorder, type RecordedRequest } from "../../support/http-recorder";
import { makeSourceClip, type TestClip } from "../../support/media";

/**
 * Which recogniser a job gets (TRANSCRIBE_API_URL, else the job's Workers AI endpoint, else pocketsphinx) and the
 * fallback to pocketsphinx when the remote one fails. The Worker's route is played by a local server speaking its
 * contract (common/contract/workers-ai.ts: OpenAI's multipart request, verbose_json answer, error envelope).
 */

const SENTENCES = [
  { at: 2, text: "hello everyone and welcome back to the stream" },
  { at: 7, text: "today we are playing a new game" },
  { at: 12, text: "this boss fight is really hard" },
];
const CONTENT_WORDS = ["hello", "everyone", "welcome", "stream", "today", "playing", "game", "boss", "fight", "really", "hard"];
// The attempt's own Workers AI endpoint and token (as a task request carries them).
const TOKEN = "attempt-token";
const ROUTE = "/internal/jobs/job_ai/tasks/short-01/attempts/1/ai/v1";

let clip: TestClip;
let dir: string;
let wav: string;

/** What the stand-in answers next (default: a verbose_json transcription). */
let reply: (req: RecordedRequest, res: ServerResponse) => void;
const verbose = (_req: RecordedRequest, res: ServerResponse) =>
  res.writeHead(200, { "content-type": "application/json" }).end(
    JSON.stringify({
      task: "transcribe",
      language: "en",
      duration: 16,
      text: "remote words",
      words: [
        { word: "remote", start: 2.1, end: 2.5 },
        { word: "words", start: 2.6, end: 3.0 },
      ],
      segments: [{ id: 0, start: 2.1, end: 3.0, text: " remote words", avg_logprob: -0.05, no_speech_prob: 0.01 }],
    }),
  );
const errorEnvelope = (status: number, code: string) => (_req: RecordedRequest, res: ServerResponse) =>
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ error: { code, message: `stand-in ${code}` } }));

let worker: Awaited<ReturnType<typeof startRecorder>>;
let explicitApi: Awaited<ReturnType<typeof startRecorder>>;
const ai = () => ({ url: `${worker.url}${ROUTE}`, token: TOKEN });

beforeAll(async () => {
  clip = await makeSourceClip({ durationSeconds: 16, width: 320, height: 180, mediaStartSeconds: 0, speech: SENTENCES });
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "remote-transcriber-"));
  wav = (await extractWav(clip, 0, 16, path.join(dir, "speech.wav"))).path;
  worker = await startRecorder((req, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return errorEnvelope(401, "unauthorized")(req, res);
    if (req.url !== `${ROUTE}/audio/transcriptions`) return errorEnvelope(404, "not_found")(req, res);
    reply(req, res);
  });
  explicitApi = await startRecorder(verbose);
});
afterAll(async () => {
  await worker.close();
  await explicitApi.close();
  await fs.rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  worker.requests.length = 0;
  explicitApi.requests.length = 0;
  reply = verbose;
});

/** The wav inside a recorded multipart request. */
async function sentAudio(req: RecordedRequest): Promise<Int16Array> {
  const form = await new Response(new Uint8Array(req.body), { headers: { "content-type": String(req.headers["content-type"]) } }).formData();
  return wavSamples(new Uint8Array(await (form.get("file") as Blob).arrayBuffer()));
}

describe("createTranscriber", () => {
  it("uses the task's Workers AI endpoint when no TRANSCRIBE_API_URL is set: the wav, the attempt's token, words back", async () => {
    const t = createTranscriber({}, fetch, ai());
    expect(t.name).toBe("workers-ai");
    expect(t.local).toBe(false);
    const warnings: string[] = [];
    const words = await t.transcribe(wav, { language: "en-US", warn: (m) => warnings.push(m) });
    expect(words).toEqual([
      { word: "remote", start: 2.1, end: 2.5, confidence: 0.951 },
      { word: "words", start: 2.6, end: 3, confidence: 0.951 },
    ]);
    expect(warnings).toEqual([]);
    expect(worker.requests).toHaveLength(1);
    expect((await sentAudio(worker.requests[0]!)).length).toBe(16 * 16_000);
  });

  it("lets TRANSCRIBE_API_URL win over the job's endpoint", async () => {
    const t = createTranscriber({ TRANSCRIBE_API_URL: `${explicitApi.url}/v1`, TRANSCRIBE_API_KEY: "own-key" }, fetch, ai());
    expect(t.name).toBe("whisper-api");
    await t.transcribe(wav, { language: "en" });
    expect(worker.requests).toEqual([]);
    expect(explicitApi.requests.map((r) => [r.url, r.headers.authorization])).toEqual([["/v1/audio/transcriptions", "Bearer own-key"]]);
  });

  it("runs pocketsphinx on this machine when the job has no endpoint and nothing is configured", () => {
    const t = createTranscriber({}, fetch, null);
    expect(t.name).toBe("pocketsphinx");
    expect(t.local).toBe(true);
  });
});

describe("falling back to the offline recogniser", () => {
  it("transcribes offline after the endpoint stays unavailable through its retries, and says so", async () => {
    reply = errorEnvelope(503, "ai_unavailable");
    const warnings: string[] = [];
    const words = await createTranscriber({}, fetch, ai()).transcribe(wav, { language: "en", warn: (m) => warnings.push(m) });
    // Three attempts (1 s, then 2 s apart), then pocketsphinx on the same wav: real words of the real speech.
    expect(worker.requests).toHaveLength(3);
    const heard = new Set(words.map((w) => w.word.toLowerCase()));
    expect(CONTENT_WORDS.filter((w) => heard.has(w)).length).toBeGreaterThanOrEqual(3);
    expect(words.every((w) => w.confidence !== undefined && w.end <= 16.05)).toBe(true);
    expect(warnings).toEqual([expect.stringMatching(/^workers-ai could not transcribe \(.*503.*ai_unavailable.*\); the offline recogniser \(pocketsphinx\) was used instead\.$/)]);
  }, 60_000);

  it("falls back at once when the endpoint refuses (not worth repeating)", async () => {
    reply = errorEnvelope(422, "ai_refused");
    const warnings: string[] = [];
    const words = await createTranscriber({}, fetch, ai()).transcribe(wav, { language: "en", warn: (m) => warnings.push(m) });
    expect(worker.requests).toHaveLength(1);
    expect(words.length).toBeGreaterThan(0);
    expect(warnings).toEqual([expect.stringContaining("ai_refused")]);
  }, 60_000);

  it("keeps the failure for a language the offline recogniser has no model for", async () => {
    reply = errorEnvelope(422, "ai_refused");
    await expect(createTranscriber({}, fetch, ai()).transcribe(wav, { language: "de" })).rejects.toThrow(/422/);
  });

  it("does not fall back when the job is cancelled meanwhile", async () => {
    reply = (req, res) => setTimeout(() => verbose(req, res), 3000);
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(new Error("cancelled by user")), 200);
    await expect(createTranscriber({}, fetch, ai()).transcribe(wav, { language: "en", signal: ctrl.signal })).rejects.toThrow("cancelled by user");
  });
});
