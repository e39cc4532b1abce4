import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AI_TRANSCRIPTION_MAX_SECONDS } from "../../../common/contract/workers-ai";
import { createTranscriber } from "../../../render-container/src/captions/create-transcriber";
import { silentLogger } from "../../../render-container/src/log";
import { LocalDirUploader } from "../../../render-container/src/output/uploader";
import { transcribeRanges } from "../../../render-container/src/pipeline/stages/transcribe";
import { JobProgress } from "../../../render-container/src/pipeline/progress";
import type { ClipSource } from "../../../render-container/src/source";
import { startRecorder, type RecordedRequest } from "../../support/http-recorder";
import { soundBursts, toneWav, wavSamples } from "../../support/tone-wav";

/**
 * The analysis' transcription of long VOD ranges through a remote recogniser (the job's Workers AI endpoint, played
 * by a local server that "hears" where the sound is): a range longer than one request takes is cut into chunks
 * (common/contract/workers-ai.ts: AI_TRANSCRIPTION_MAX_SECONDS), and every word must come back on the VOD's clock. The audio is a 900 s
 * file standing for VOD 1000-1900 s, with tone bursts at known VOD times.
 */
const VOD_START = 1000;
const BURSTS = [
  { start: 1010, end: 1010.6 },
  { start: 1290, end: 1291 },
  { start: 1305.2, end: 1305.8 },
  { start: 1500, end: 1500.5 },
  { start: 1700.3, end: 1701 },
  { start: 1890, end: 1890.4 },
];

let dir: string;
let audio: ClipSource;
let worker: Awaited<ReturnType<typeof startRecorder>>;

async function sentSamples(req: RecordedRequest): Promise<Int16Array> {
  const form = await new Response(new Uint8Array(req.body), { headers: { "content-type": String(req.headers["content-type"]) } }).formData();
  return wavSamples(new Uint8Array(await (form.get("file") as Blob).arrayBuffer()));
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "ranges-remote-"));
  const file = path.join(dir, "audio.wav");
  await writeFile(file, toneWav(900, BURSTS.map((b) => ({ start: b.start - VOD_START, end: b.end - VOD_START }))));
  audio = { path: file, media_start_seconds: VOD_START, media_end_seconds: VOD_START + 900, bytes: (await stat(file)).size, muted_ranges: [] };
  worker = await startRecorder(async (req, res: ServerResponse) => {
    const bursts = soundBursts(await sentSamples(req), 16_000);
    const segments = bursts.map((b, i) => ({ id: i, start: b.start, end: b.end, text: ` w${i}`, avg_logprob: -0.05, no_speech_prob: 0.01 }));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ text: segments.map((s) => s.text).join(""), words: bursts.map((b, i) => ({ word: `w${i}`, ...b })), segments }));
  });
});
afterAll(async () => {
  await worker.close();
  await rm(dir, { recursive: true, force: true });
});

describe("transcribeRanges with the job's Workers AI endpoint", () => {
  it("sends a 890 s range in requests of at most the route's limit and puts every word on the VOD's clock", async () => {
    const transcriber = createTranscriber({}, fetch, { url: `${worker.url}/internal/jobs/job_x/ai/v1`, token: "t" });
    const ctx = { signal: new AbortController().signal, workDir: dir, reporter: { progress: () => undefined }, uploader: new LocalDirUploader(dir), log: silentLogger, fetchImpl: fetch };
    const result = await transcribeRanges(
      { ctx, progress: new JobProgress(ctx.reporter) },
      { ranges: [{ start: 1005, end: 1895 }], audio: [audio], transcriber, language: "en", captionPlan: { transcribe: true, burn: true, warning: null } },
    );

    expect(result.warnings).toEqual([]);
    const sent = await Promise.all(worker.requests.map(async (r) => (await sentSamples(r)).length / 16_000));
    expect(sent.length).toBeGreaterThanOrEqual(Math.ceil(891 / AI_TRANSCRIPTION_MAX_SECONDS));
    for (const seconds of sent) expect(seconds).toBeLessThanOrEqual(AI_TRANSCRIPTION_MAX_SECONDS);
    // The range and the second of silence after it.
    expect(sent.reduce((a, b) => a + b, 0)).toBeCloseTo(891, 1);

    const words = [...result.words].sort((a, b) => a.start - b.start);
    expect(words).toHaveLength(BURSTS.length);
    words.forEach((w, i) => {
      expect(w.start).toBeCloseTo(BURSTS[i]!.start, 1);
      expect(w.end).toBeCloseTo(BURSTS[i]!.end, 1);
      expect(w.confidence).toBeCloseTo(0.951, 3);
    });
  }, 120_000);
});
