import { mkdtemp, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { AI_TRANSCRIPTION_MAX_SECONDS } from "../../common/contract/workers-ai";
import { WhisperApiTranscriber } from "../../render-container/src/captions/whisper-api";
import { LlmMetadataWriter } from "../../render-container/src/metadata/llm-writer";
import { writeLocalMetadata } from "../../render-container/src/metadata/local-writer";
import { sampleInput } from "../renderer/metadata/sample-input";
import { toneWav } from "../support/tone-wav";
import { createAccount, type TestAccount } from "./helpers";
import { callWithEnv, startedJob } from "./job-steps";
import { chatOutput, WHISPER, WorkersAiStandIn } from "./workers-ai-standin";

/**
 * The two ends joined: the renderer's own clients (WhisperApiTranscriber, LlmMetadataWriter) talking to the
 * Worker's real Workers AI routes, with only the AI binding replaced by its stand-in. Each side has its own tests
 * against the contract (common/contract/workers-ai.ts); this one fails if they disagree on it: the URL the task
 * request carries, the token, the multipart form, the verbose_json answer, the chat completion's shape, the
 * chunking against the route's limit (AI_TRANSCRIPTION_MAX_SECONDS). The renderer's wav goes through workerd's node:fs (/tmp).
 */

let acct: TestAccount;
let dir: string;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 1_000_000, purchase: true });
  dir = await mkdtemp("/tmp/ai-join-");
});

/** A fetch for the renderer's clients that reaches the Worker app with the stand-in binding. */
function throughWorker(ai: WorkersAiStandIn): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    return callWithEnv({ AI: ai.binding }, `${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body: request.body ? await request.arrayBuffer() : undefined });
  }) as typeof fetch;
}

async function runningJobAi(): Promise<{ url: string; token: string }> {
  const { render } = await startedJob(acct.api_key);
  expect(render.ai).toBeTruthy();
  return render.ai!;
}

describe("the renderer's clients against the Worker's AI routes", () => {
  it("transcribe: words come back on the wav's clock, a long wav in requests the route accepts", async () => {
    const ai = new WorkersAiStandIn();
    const job = await runningJobAi();
    // Twice the route's limit and a half: three requests; a burst in each.
    const max = AI_TRANSCRIPTION_MAX_SECONDS;
    const at = [1, max + 80, 2 * max + 20];
    const wav = path.join(dir, "speech.wav");
    await writeFile(wav, toneWav(2.5 * max, [{ start: at[0]!, end: at[0]! + 0.5 }, { start: at[1]!, end: at[1]! + 0.6 }, { start: at[2]!, end: at[2]! + 0.4 }]));
    const transcriber = new WhisperApiTranscriber({ baseUrl: job.url, apiKey: job.token, name: "workers-ai", fetchImpl: throughWorker(ai), retryDelayMs: 1 });
    const words = await transcriber.transcribe(wav, { language: "en" });
    expect(ai.calls.filter((c) => c.model === WHISPER).length).toBe(3);
    expect(words.map((w) => w.word)).toHaveLength(3);
    for (const [w, t] of words.map((x, i) => [x, at[i]!] as const)) {
      expect(w.start).toBeGreaterThan(t - 0.2);
      expect(w.start).toBeLessThan(t + 0.3);
    }
  });

  it("a wrong token is refused by the route, and the client gives up without retrying", async () => {
    const ai = new WorkersAiStandIn();
    const job = await runningJobAi();
    const wav = path.join(dir, "short.wav");
    await writeFile(wav, toneWav(3, [{ start: 1, end: 1.5 }]));
    const transcriber = new WhisperApiTranscriber({ baseUrl: job.url, apiKey: "not-the-token", fetchImpl: throughWorker(ai), retryDelayMs: 1 });
    await expect(transcriber.transcribe(wav, { language: "en" })).rejects.toThrow(/401/);
    expect(ai.calls).toEqual([]);
  });

  it("write metadata: the model's answer reaches the writer through the chat route and is checked there", async () => {
    const ai = new WorkersAiStandIn();
    const job = await runningJobAi();
    const input = sampleInput();
    const local = writeLocalMetadata(input);
    // The model answers for the first moment only, in the requested shape; the writer fills the rest in itself.
    ai.replyNext(chatOutput(JSON.stringify({ moments: [{ id: "m1", title: "NovaPlays drops the dragon in one hit", story: "Chat went 8x as NovaPlays killed the dragon with one hit." }] })));
    const writer = new LlmMetadataWriter({ baseUrl: job.url, apiKey: job.token, model: "workers-ai", name: "workers-ai", fetchImpl: throughWorker(ai) });
    const out = await writer.write(input);
    expect(ai.calls.filter((c) => c.model.startsWith("@cf/meta/"))).toHaveLength(1);
    expect(out.moments[0]).toMatchObject({ id: "m1", title: "NovaPlays drops the dragon in one hit" });
    expect(out.moments[1]!.title).toBe(local.moments[1]!.title);
  });
});
