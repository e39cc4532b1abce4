import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { ArtifactRef, JobAck, JobRecord, Manifest, RenderEvent, RenderJob } from "../../common/contract";
import { app } from "../../worker/src/app";
import type { Env, JobQueueMessage } from "../../worker/src/env";
import type { RenderTaskRequest } from "../../common/contract/job-plan";
import { handleQueue } from "../../worker/src/queue/consumer";
import type { BoxConfig, ReceivedDelivery, RendererJobLog } from "./doubles-protocol";
import { BASE, call, get, minimalJob, nextIp } from "./helpers";

/**
 * The steps of one job's life as the Worker sees them: POST /jobs (its queue message captured instead of sent,
 * so no real delivery races the test), the queue consumer, the renderer's callbacks and uploads, the webhook
 * receiver. Everything goes through the Worker's real handlers.
 */

export const JOB_QUEUE = "highlight-jobs";
export const DEAD_LETTER_QUEUE = "highlight-jobs-dlq";

export const jobState = (jobId: string) => env.JOB_STATE.get(env.JOB_STATE.idFromName(jobId));

/** The Hono app with a modified environment. */
export async function callWithEnv(overrides: Partial<Env>, path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`${BASE}${path}`, init), { ...env, ...overrides } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** POST /jobs whose queue message is kept for the test to deliver. */
export async function createJob(
  apiKey: string,
  body: Record<string, unknown> = minimalJob(),
  envOverrides: Partial<Env> = {},
): Promise<{ ack: JobAck; message: JobQueueMessage }> {
  const sent: JobQueueMessage[] = [];
  const queue = { send: async (m: JobQueueMessage) => void sent.push(m) } as unknown as Queue<JobQueueMessage>;
  const res = await callWithEnv({ ...envOverrides, JOBS_QUEUE: queue }, "/jobs", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-API-Key": apiKey, "CF-Connecting-IP": nextIp() },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(202);
  expect(sent).toHaveLength(1);
  return { ack: (await res.json()) as JobAck, message: sent[0]! };
}

let messageCounter = 0;

/** Runs the Worker's queue handler on one message, as the queue would, and returns ack/retry. */
export async function deliver(message: unknown, opts: { queue?: string; attempts?: number; env?: Partial<Env> } = {}) {
  messageCounter += 1;
  const batch = createMessageBatch(opts.queue ?? JOB_QUEUE, [
    { id: `msg-${messageCounter}`, timestamp: new Date(), attempts: opts.attempts ?? 1, body: message },
  ]);
  // The queue result says whether a message was retried, not with which delay: record the options too.
  const retryOptions: (QueueRetryOptions | undefined)[] = [];
  const delivered = batch.messages[0]!;
  const retry = delivered.retry.bind(delivered);
  Object.defineProperty(delivered, "retry", { value: (o?: QueueRetryOptions) => (retryOptions.push(o), retry(o)) });
  const ctx = createExecutionContext();
  await handleQueue(batch, { ...env, ...opts.env } as Env, ctx);
  return { ...(await getQueueResult(batch, ctx)), retryOptions };
}

// ---- renderer double -------------------------------------------------------------------------------------------

export async function rendererLog(jobId: string): Promise<RendererJobLog> {
  return (await (await fetch(`${env.RENDER_URL}/__test/jobs/${jobId}`)).json()) as RendererJobLog;
}

/** How the renderer double answers this job's starts (202 accepts). */
export async function rendererAnswers(jobId: string, status: number): Promise<void> {
  const res = await fetch(`${env.RENDER_URL}/__test/jobs/${jobId}`, { method: "PUT", body: JSON.stringify({ status }) });
  await res.body?.cancel();
}

/**
 * Creates a job and dispatches it in whole-job mode (RENDER_MODE=job: one renderer runs it and reports job-level
 * events, which the lifecycle tests play) to an accepting renderer double; returns what the renderer received.
 */
export async function startedJob(apiKey: string, body?: Record<string, unknown>): Promise<{ ack: JobAck; render: RenderJob }> {
  const { ack, message } = await createJob(apiKey, body);
  await rendererAnswers(ack.id, 202);
  const result = await deliver(message, { env: { RENDER_MODE: "job" } });
  expect(result.explicitAcks).toEqual([expect.any(String)]);
  const log = await rendererLog(ack.id);
  expect(log.starts).toHaveLength(1);
  return { ack, render: log.starts[0] as RenderJob };
}

/** Creates a job and dispatches its analysis task (the default task mode); returns the task request received. */
export async function startedTaskJob(apiKey: string, body?: Record<string, unknown>): Promise<{ ack: JobAck; render: RenderTaskRequest }> {
  const { ack, message } = await createJob(apiKey, body);
  await rendererAnswers(ack.id, 202);
  const result = await deliver(message);
  expect(result.explicitAcks).toEqual([expect.any(String)]);
  const log = await rendererLog(ack.id);
  expect(log.starts).toHaveLength(1);
  return { ack, render: log.starts[0] as RenderTaskRequest };
}

// ---- renderer callbacks and uploads ----------------------------------------------------------------------------

export function postEvent(jobId: string, token: string | null, event: unknown): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  return call(`/internal/jobs/${jobId}/events`, { method: "POST", headers, body: typeof event === "string" ? event : JSON.stringify(event) });
}

export async function sendEvent(render: RenderJob, event: RenderEvent, status = 200): Promise<Record<string, unknown>> {
  const res = await postEvent(render.job_id, render.callback.token, event);
  const body = (await res.json()) as Record<string, unknown>;
  expect({ status: res.status, body }).toMatchObject({ status });
  return body;
}

/**
 * PUT of one file. `inProcess` calls the app directly: for uploads the Worker refuses unread, whose aborted
 * request body would otherwise surface as an uncaught "Network connection lost" on the test runner's side.
 */
export function putArtifact(jobId: string, token: string | null, name: string, bytes: Uint8Array, contentType: string, inProcess = false): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": contentType, "Content-Length": String(bytes.byteLength) };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  const path = `/internal/jobs/${jobId}/artifacts/${name}`;
  const init = { method: "PUT", headers, body: bytes };
  return inProcess ? callWithEnv({}, path, init) : call(path, init);
}

export async function record(apiKey: string, jobId: string): Promise<JobRecord> {
  const res = await get(apiKey, `/jobs/${jobId}`);
  expect(res.status).toBe(200);
  return (await res.json()) as JobRecord;
}

/** Deterministic pseudo-random bytes (videos and images are opaque to the Worker). */
export function bytesOf(seed: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Byte-for-byte equality without vitest's element-wise diffing of large arrays. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

export interface RenderedFile {
  ref: ArtifactRef;
  bytes: Uint8Array;
}

const text = (s: string) => new TextEncoder().encode(s);

/** The files a one-reel, one-short job produces, named as the renderer names them. */
export function renderedFiles(): RenderedFile[] {
  const file = (ref: Partial<ArtifactRef> & Pick<ArtifactRef, "name" | "kind" | "content_type">, bytes: Uint8Array): RenderedFile => ({
    ref: { run_name: null, index: null, title: null, duration_seconds: null, tags: null, ...ref, size_bytes: bytes.byteLength },
    bytes,
  });
  return [
    file({ name: "reel-balanced.mp4", kind: "reel", content_type: "video/mp4", run_name: "balanced", title: "Best of the night", duration_seconds: 62.5 }, bytesOf(1, 300_000)),
    file({ name: "reel-balanced.jpg", kind: "thumbnail", content_type: "image/jpeg", run_name: "balanced" }, bytesOf(2, 20_000)),
    file({ name: "short-01.mp4", kind: "short", content_type: "video/mp4", index: 1, title: "The clutch", duration_seconds: 31, tags: ["celeste", "clutch"] }, bytesOf(3, 120_000)),
    file({ name: "short-01.jpg", kind: "thumbnail", content_type: "image/jpeg", index: 1 }, bytesOf(4, 9_000)),
    file({ name: "short-01.srt", kind: "captions", content_type: "application/x-subrip", index: 1 }, text("1\n00:00:00,000 --> 00:00:02,500\nno way that worked\n\n2\n00:00:02,500 --> 00:00:04,000\nlet's go\n")),
    file({ name: "metadata.json", kind: "metadata", content_type: "application/json", run_name: "balanced" }, text(JSON.stringify({ title: "Best of the night", tags: ["celeste"], description: "Highlights" }, null, 2))),
  ];
}

export function manifestFor(files: RenderedFile[]): Manifest {
  const asset = (f: RenderedFile) => ({ name: f.ref.name, run_name: f.ref.run_name, index: f.ref.index, title: f.ref.title, duration_seconds: f.ref.duration_seconds, size_bytes: f.ref.size_bytes });
  const of = (kind: ArtifactRef["kind"]) => files.filter((f) => f.ref.kind === kind).map(asset);
  return {
    summary: { total_videos: 2, generated_video_duration_seconds: 93.5, total_shorts: 1, source_vod_duration_seconds: 3600 },
    highlights: [{ story: "A last-second clutch", start: 1200, end: 1262.5, duration: 62.5, run_name: "balanced" }],
    shorts_count: 1,
    artifacts: { assets: { compilation: of("reel"), shorts: of("short"), thumbnails: of("thumbnail"), captions: of("captions"), metadata: of("metadata") } },
    warnings: [],
  };
}

/** Uploads every file (as the renderer does before "completed"), then sends "completed". */
export async function completeJob(render: RenderJob, files: RenderedFile[] = renderedFiles(), seq = 10): Promise<Manifest> {
  for (const f of files) {
    const res = await putArtifact(render.job_id, render.callback.token, f.ref.name, f.bytes, f.ref.content_type);
    expect(res.status).toBe(201);
  }
  const manifest = manifestFor(files);
  await sendEvent(render, { type: "completed", seq, manifest, artifacts: files.map((f) => f.ref) });
  return manifest;
}

// ---- webhook receiver ------------------------------------------------------------------------------------------

let boxCounter = 0;

/** A fresh mailbox on the receiver: its URL (for webhook_url) and a reader of what arrived. */
export async function webhookBox(config: BoxConfig = {}): Promise<{ url: string; name: string; configure(c: BoxConfig): Promise<void>; received(): Promise<ReceivedDelivery[]> }> {
  boxCounter += 1;
  const name = `box-${Date.now().toString(36)}-${boxCounter}`;
  const control = `${env.TEST_HOOKS_URL}/__test/boxes/${name}`;
  const configure = async (c: BoxConfig) => void (await (await fetch(control, { method: "PUT", body: JSON.stringify(c) })).body?.cancel());
  await configure(config);
  return {
    url: `${env.TEST_HOOKS_URL}/hooks/${name}`,
    name,
    configure,
    received: async () => ((await (await fetch(control)).json()) as { deliveries: ReceivedDelivery[] }).deliveries,
  };
}

/** Polls until `check` returns a value (alarms and waitUntil work finish on their own time). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 8000, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
