import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TranscriptionApiError, WhisperApiTranscriber, segmentsToWords } from "../../../render-container/src/captions/whisper-api";
import { soundBursts, toneWav, wavSamples } from "../../support/tone-wav";

/** What the fake API saw of one request, decoded with the platform's own multipart parser. */
interface Seen {
  method: string;
  url: string;
  auth: string | undefined;
  contentType: string;
  fields: Record<string, string[]>;
  file: { name: string; type: string; bytes: Buffer } | null;
}

let server: http.Server;
let baseUrl: string;
let seen: Seen[] = [];
let answers: Array<(res: http.ServerResponse, req: Seen) => void> = [];
let dir: string;
let wav: string;

async function decode(req: http.IncomingMessage): Promise<Seen> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks);
  const contentType = req.headers["content-type"] ?? "";
  const form = await new Response(body, { headers: { "content-type": contentType } }).formData();
  const fields: Record<string, string[]> = {};
  let file: Seen["file"] = null;
  const entries: Array<[string, FormDataEntryValue]> = [];
  form.forEach((v, k) => entries.push([k, v]));
  for (const [k, v] of entries) {
    if (typeof v === "string") (fields[k] ??= []).push(v);
    else file = { name: v.name, type: v.type, bytes: Buffer.from(await v.arrayBuffer()) };
  }
  return { method: req.method ?? "", url: req.url ?? "", auth: req.headers.authorization, contentType, fields, file };
}

const json = (status: number, body: unknown) => (res: http.ServerResponse) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "whisper-test-"));
  wav = path.join(dir, "short-1.wav");
  await fs.writeFile(wav, toneWav(3, [{ start: 0.5, end: 1 }]));
  server = http.createServer(async (req, res) => {
    const request = await decode(req);
    seen.push(request);
    const answer = answers.shift() ?? json(500, { error: { message: "no answer queued" } });
    answer(res, request);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await fs.rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  seen = [];
  answers = [];
});

describe("WhisperApiTranscriber", () => {
  it("posts an OpenAI-style multipart request and reads word timestamps", async () => {
    answers.push(
      json(200, {
        task: "transcribe",
        language: "german",
        duration: 3.2,
        text: "Hallo zusammen, willkommen!",
        words: [
          { word: " Hallo", start: 0.1, end: 0.5 },
          { word: "zusammen,", start: 0.55, end: 1.1 },
          { word: "willkommen!", start: 1.3, end: 2.0 },
        ],
        segments: [{ id: 0, start: 0, end: 2.0, text: "Hallo zusammen, willkommen!" }],
      }),
    );
    const t = new WhisperApiTranscriber({ baseUrl, apiKey: "sk-test", model: "whisper-large-v3" });
    const words = await t.transcribe(wav, { language: "de-DE" });
    expect(words).toEqual([
      { word: "Hallo", start: 0.1, end: 0.5 },
      { word: "zusammen,", start: 0.55, end: 1.1 },
      { word: "willkommen!", start: 1.3, end: 2.0 },
    ]);
    expect(seen).toHaveLength(1);
    const r = seen[0]!;
    expect(r.method).toBe("POST");
    expect(r.url).toBe("/v1/audio/transcriptions");
    expect(r.auth).toBe("Bearer sk-test");
    expect(r.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(r.fields.model).toEqual(["whisper-large-v3"]);
    expect(r.fields.response_format).toEqual(["verbose_json"]);
    expect(r.fields["timestamp_granularities[]"]).toContain("word");
    expect(r.fields.language).toEqual(["de"]);
    expect(r.file?.name).toBe("short-1.wav");
    expect(r.file?.type).toBe("audio/wav");
    expect(r.file?.bytes.equals(await fs.readFile(wav))).toBe(true);
  });

  it("falls back to segments when the API returns no words, and omits an unknown language", async () => {
    answers.push(json(200, { text: "one two three", segments: [{ start: 1, end: 2.5, text: " one two three" }, { start: 3, end: 3, text: "skip" }] }));
    const words = await new WhisperApiTranscriber({ baseUrl }).transcribe(wav, { language: null });
    expect(words.map((w) => w.word)).toEqual(["one", "two", "three"]);
    expect(words[0]!.start).toBe(1);
    expect(words[2]!.end).toBeCloseTo(2.5, 3);
    for (let i = 1; i < words.length; i++) expect(words[i]!.start).toBeCloseTo(words[i - 1]!.end, 3);
    expect(seen[0]!.fields.language).toBeUndefined();
    expect(seen[0]!.fields.model).toEqual(["whisper-1"]);
    expect(seen[0]!.auth).toBeUndefined();
  });

  it("retries 429 and 5xx, then succeeds", async () => {
    answers.push(json(429, { error: { message: "slow down" } }), json(503, { error: { message: "busy" } }), json(200, { words: [{ word: "ok", start: 0, end: 1 }] }));
    const t = new WhisperApiTranscriber({ baseUrl, retryDelayMs: 5 });
    expect(await t.transcribe(wav, { language: "en" })).toEqual([{ word: "ok", start: 0, end: 1 }]);
    expect(seen).toHaveLength(3);
  });

  it("does not retry a client error and reports the API's message", async () => {
    answers.push(json(401, { error: { message: "Incorrect API key provided" } }));
    const t = new WhisperApiTranscriber({ baseUrl, retryDelayMs: 5 });
    const err = await t.transcribe(wav, { language: "en" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TranscriptionApiError);
    expect((err as TranscriptionApiError).status).toBe(401);
    expect(String(err)).toMatch(/Incorrect API key/);
    expect(seen).toHaveLength(1);
  });

  it("rejects a malformed answer", async () => {
    answers.push(json(200, { words: [{ word: "x", start: "soon" }] }));
    await expect(new WhisperApiTranscriber({ baseUrl, attempts: 1 }).transcribe(wav, { language: "en" })).rejects.toThrow(/unexpected transcription response/);
  });

  it("stops when the job is cancelled", async () => {
    answers.push((res) => setTimeout(() => json(200, { words: [] })(res), 5000));
    const ctrl = new AbortController();
    const p = new WhisperApiTranscriber({ baseUrl }).transcribe(wav, { language: "en", signal: ctrl.signal });
    setTimeout(() => ctrl.abort(new Error("cancelled by user")), 100);
    const started = Date.now();
    await expect(p).rejects.toThrow("cancelled by user");
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

/** A speech API that "hears" the wav it is sent: one word per burst of sound, timed where the burst is in that wav. */
const hearBursts = (res: http.ServerResponse, req: Seen) => {
  const bursts = soundBursts(wavSamples(new Uint8Array(req.file!.bytes)), 16_000);
  json(200, { text: bursts.map((_, i) => `w${i}`).join(" "), words: bursts.map((b, i) => ({ word: `w${i}`, start: b.start, end: b.end })) })(res);
};

describe("WhisperApiTranscriber on audio longer than one request takes", () => {
  // 700 s: three chunks of at most 300 s (a chunk length the client is given; the Worker's route takes 120 s). One burst straddles the 300 s limit: the cut must go before it.
  const BURSTS = [
    { start: 12, end: 12.8 },
    { start: 296.5, end: 302 },
    { start: 450, end: 451.2 },
    { start: 598, end: 598.4 },
    { start: 699, end: 699.5 },
  ];
  let long: string;
  beforeAll(async () => {
    long = path.join(dir, "long.wav");
    await fs.writeFile(long, toneWav(700, BURSTS));
  });

  it("sends chunks of at most 300 s, cut at quiet moments, and puts every word back on the whole wav's clock", async () => {
    answers.push(hearBursts, hearBursts, hearBursts);
    const words = await new WhisperApiTranscriber({ baseUrl, name: "workers-ai", apiKey: "job-token", chunkSeconds: 300 }).transcribe(long, { language: "en" });
    expect(seen).toHaveLength(3);
    const sent = seen.map((r) => wavSamples(new Uint8Array(r.file!.bytes)).length / 16_000);
    for (const seconds of sent) expect(seconds).toBeLessThanOrEqual(300);
    expect(sent.reduce((a, b) => a + b, 0)).toBeCloseTo(700, 3);
    expect(seen.map((r) => r.file!.name)).toEqual(["long-1.wav", "long-2.wav", "long-3.wav"]);
    expect(seen.every((r) => r.auth === "Bearer job-token")).toBe(true);
    // Each burst heard once, whole, where it is in the 700 s wav (the 20 ms frames of the listener).
    expect(words).toHaveLength(BURSTS.length);
    words.forEach((w, i) => {
      expect(w.start).toBeCloseTo(BURSTS[i]!.start, 1);
      expect(w.end).toBeCloseTo(BURSTS[i]!.end, 1);
    });
  });

  it("retries a failed chunk on its own and keeps the others", async () => {
    answers.push(hearBursts, json(503, { error: { code: "ai_unavailable", message: "busy" } }), hearBursts, hearBursts);
    const words = await new WhisperApiTranscriber({ baseUrl, retryDelayMs: 5, chunkSeconds: 300 }).transcribe(long, { language: "en" });
    expect(seen.map((r) => r.file!.name)).toEqual(["long-1.wav", "long-2.wav", "long-2.wav", "long-3.wav"]);
    expect(words.map((w) => Math.round(w.start))).toEqual(BURSTS.map((b) => Math.round(b.start)));
  });
});

describe("segmentsToWords", () => {
  it("spreads words over a segment in proportion to their length", () => {
    const words = segmentsToWords([{ start: 0, end: 10, text: "a bbbbbbbbb" }]);
    expect(words).toEqual([
      { word: "a", start: 0, end: 1.667 },
      { word: "bbbbbbbbb", start: 1.667, end: 10 },
    ]);
  });
});
