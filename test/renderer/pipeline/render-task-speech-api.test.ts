import { readFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ShortTask } from "../../../common/contract/job-plan";
import type { RenderJob } from "../../../common/contract/render";
import { localRenderJob } from "../../../dev/render-cli/local-job";
import { parseSrt } from "../../../render-container/src/captions";
import { probeMedia } from "../../../render-container/src/ffmpeg/probe";
import { runRenderTask } from "../../../render-container/src/pipeline/render-task";
import { SMALL_VOD } from "../../dev/fixture-vods";
import { startRecorder, type RecordedRequest } from "../../support/http-recorder";
import { serveVodForTests } from "../../support/twitch-fixture";
import { wavSamples } from "../../support/tone-wav";
import { handMadePlan, planMoment, taskContext, taskRequest, tempDir } from "./task-fixtures";

/**
 * A short task whose captions come from a speech API instead of the offline recogniser: the job's Workers AI
 * endpoint (the Worker's route, played by a local server speaking its contract: common/contract/workers-ai.ts), or
 * a configured Whisper-compatible API that fails. Real downloads from the local Twitch server, real FFmpeg.
 */
const twitchServer = serveVodForTests(SMALL_VOD);
const SETTINGS = { downloadConcurrency: 4, maxVideoBytesPerJob: 1e9, encodeConcurrency: 2, env: {} };
const TOKEN = "job-renderer-token";
const ROUTE = "/internal/jobs/job_speech/ai/v1/audio/transcriptions";
/** What the Worker's route answers: three confident words, seconds from the start of the audio it was sent. */
const HEARD = [
  { word: "alpha", start: 1.0, end: 1.4 },
  { word: "bravo", start: 1.5, end: 1.9 },
  { word: "charlie", start: 2.0, end: 2.6 },
];

let job: RenderJob;
let worker: Awaited<ReturnType<typeof startRecorder>>;
let reply: (req: RecordedRequest, res: ServerResponse) => void;
const verbose = (_req: RecordedRequest, res: ServerResponse) =>
  res.writeHead(200, { "content-type": "application/json" }).end(
    JSON.stringify({ task: "transcribe", language: "en", text: "alpha bravo charlie", words: HEARD, segments: [{ id: 0, start: 1, end: 2.6, text: " alpha bravo charlie", avg_logprob: -0.05, no_speech_prob: 0.01 }] }),
  );

beforeAll(async () => {
  worker = await startRecorder((req, res) => {
    if (req.url !== ROUTE || req.headers.authorization !== `Bearer ${TOKEN}`) return res.writeHead(401).end('{"error":{"code":"unauthorized","message":"no"}}');
    reply(req, res);
  });
  const base = await localRenderJob({ vod_url: `https://www.twitch.tv/videos/${SMALL_VOD.vodId}`, num_shorts: 1 }, { twitch: twitchServer(), jobId: "job_speech" });
  job = { ...base, ai: { url: `${worker.url}/internal/jobs/job_speech/ai/v1`, token: TOKEN } };
});
afterAll(async () => {
  await worker.close();
});
beforeEach(() => {
  worker.requests.length = 0;
  reply = verbose;
});

/** A 6 s short without snapping (61-67 s of the synthetic VOD). */
const TASK: ShortTask = { kind: "short", id: "short-02", index: 2, moment_id: "m2", start: 61, end: 67, peak: 63, snap: false, title_text: null, title: "T", description: "", tags: [], expected_encode_seconds: 6 };

async function runShort(env: NodeJS.ProcessEnv = {}) {
  const store = await tempDir("task-store-");
  const plan = handMadePlan("job_speech", SMALL_VOD.durationSeconds, [planMoment("m2", 61, 67, 63)], [TASK]);
  const run = await taskContext(store);
  const result = await runRenderTask(taskRequest(job, plan, TASK.id), run.ctx, { ...SETTINGS, env });
  if (result.kind !== "short") throw new Error(result.kind);
  return { result, store, cues: parseSrt(await readFile(path.join(store, "short-02.srt"), "utf8")) };
}

async function sentSeconds(req: RecordedRequest): Promise<number> {
  const form = await new Response(new Uint8Array(req.body), { headers: { "content-type": String(req.headers["content-type"]) } }).formData();
  return wavSamples(new Uint8Array(await (form.get("file") as Blob).arrayBuffer())).length / 16_000;
}

describe("a short task of a job with a Workers AI endpoint", () => {
  it("gets its captions through the Worker's route: the short's audio goes up, the words come back timed in the short", async () => {
    const { result, cues } = await runShort();
    expect(worker.requests).toHaveLength(1);
    // The short's 6 s and the second of silence that ends its last utterance.
    expect(await sentSeconds(worker.requests[0]!)).toBeCloseTo(7, 1);
    expect(cues.map((c) => c.text).join(" ")).toBe("alpha bravo charlie");
    expect(cues[0]!.start).toBeCloseTo(1.0, 2);
    expect(cues.at(-1)!.end).toBeGreaterThanOrEqual(2.6 - 0.01);
    expect(cues.at(-1)!.end).toBeLessThanOrEqual(6 + 0.01);
    expect(result.warnings ?? []).toEqual([]);
  }, 180_000);

  it("falls back to the offline recogniser when the route keeps failing, and says so in the short's warnings", async () => {
    reply = (_req, res) => res.writeHead(503, { "content-type": "application/json", "retry-after": "2" }).end('{"error":{"code":"ai_unavailable","message":"Workers AI could not run the model just now"}}');
    const { result, cues } = await runShort();
    expect(worker.requests).toHaveLength(3);
    expect(result.warnings).toEqual([expect.stringMatching(/^Captions for 61-67 s: workers-ai could not transcribe \(.*503.*\); the offline recogniser \(pocketsphinx\) was used instead\.$/)]);
    expect(cues.map((c) => c.text).join(" ")).not.toContain("alpha");
  }, 180_000);

  it("uses TRANSCRIBE_API_URL instead when it is set; a refusal there falls back the same way", async () => {
    const api = await startRecorder((_q, res) => res.writeHead(400, { "content-type": "application/json" }).end('{"error":{"message":"bad audio"}}'));
    try {
      const { result, store } = await runShort({ TRANSCRIBE_API_URL: api.url });
      expect(worker.requests).toEqual([]);
      expect(api.requests).toHaveLength(1);
      expect(result.warnings).toEqual([expect.stringMatching(/^Captions for 61-67 s: whisper-api could not transcribe \(.*400.*bad audio.*\); the offline recogniser \(pocketsphinx\) was used instead\.$/)]);
      expect((await probeMedia(path.join(store, "short-02.mp4"))).durationSeconds).toBeCloseTo(6, 0);
    } finally {
      await api.close();
    }
  }, 180_000);
});
