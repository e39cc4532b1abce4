import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { ArtifactRef, JobAck, JobRecord } from "../../common/contract";
import { app } from "../../worker/src/app";
import type { Env, JobQueueMessage } from "../../worker/src/env";
import type { RenderTaskRequest } from "../../common/contract/job-plan";
import { handleQueue } from "../../worker/src/queue/consumer";
import type { BoxConfig, ReceivedDelivery, RendererJobLog } from "./doubles-protocol";
import { BASE, call, get, minimalJob, nextIp } from "./helpers";

/**
 * The steps of one job's life as the Worker sees them: POST /jobs (its queue message captured instead of sent,
 * so no real delivery races the test), the queue consumer, the renderer double, uploads, the webhook receiver.
 * Everything goes through the Worker's real handlers; task-flow.ts plays the renderer's task events on top.
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
  // Messages the consumer sends itself (a task waiting for capacity asks again as a new message) are kept here.
  const sent: { body: unknown; options: QueueSendOptions | undefined }[] = [];
  const queue = { send: async (body: unknown, options?: QueueSendOptions) => void sent.push({ body, options }) } as unknown as Queue<JobQueueMessage>;
  const ctx = createExecutionContext();
  await handleQueue(batch, { ...env, JOBS_QUEUE: queue, ...opts.env } as Env, ctx);
  return { ...(await getQueueResult(batch, ctx)), retryOptions, sent };
}

// ---- renderer double -------------------------------------------------------------------------------------------

export async function rendererLog(jobId: string): Promise<RendererJobLog> {
  return (await (await fetch(`${env.RENDER_URL}/__test/jobs/${jobId}`)).json()) as RendererJobLog;
}

/** How the renderer double answers this job's starts (202 accepts); `script`: the statuses of the next starts first. */
export async function rendererAnswers(jobId: string, status: number, script: number[] = []): Promise<void> {
  const res = await fetch(`${env.RENDER_URL}/__test/jobs/${jobId}`, { method: "PUT", body: JSON.stringify({ status, script }) });
  await res.body?.cancel();
}

/** Creates a job and dispatches its analysis task to an accepting renderer double; returns the task request it received. */
export async function startedJob(apiKey: string, body?: Record<string, unknown>): Promise<{ ack: JobAck; render: RenderTaskRequest }> {
  const { ack, message } = await createJob(apiKey, body);
  await rendererAnswers(ack.id, 202);
  const result = await deliver(message);
  expect(result.explicitAcks).toEqual([expect.any(String)]);
  const log = await rendererLog(ack.id);
  expect(log.starts).toHaveLength(1);
  return { ack, render: log.starts[0] as RenderTaskRequest };
}

// ---- uploads -----------------------------------------------------------------------------------------------------

/**
 * The Worker's path for `name` on a task's upload target (that attempt's own storage route, modes "worker" and
 * "presigned"), with an optional query.
 */
export function taskFilePath(task: Pick<RenderTaskRequest, "upload">, name: string, query = ""): string {
  if (task.upload.mode === "s3") throw new Error("upload mode s3 has no Worker route");
  return `${new URL(task.upload.url).pathname}/${name}${query}`;
}

/**
 * PUT of one file through a task's upload target (mode "worker"), with its token unless `token` says otherwise.
 * `inProcess` calls the app directly: for uploads the Worker refuses unread, whose aborted request body would
 * otherwise surface as an uncaught "Network connection lost" on the test runner's side.
 */
export function putTaskFile(task: Pick<RenderTaskRequest, "upload">, name: string, bytes: Uint8Array, contentType: string, inProcess = false, token: string | null = task.upload.mode === "s3" ? null : task.upload.token): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": contentType, "Content-Length": String(bytes.byteLength) };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  const init = { method: "PUT", headers, body: bytes };
  return inProcess ? callWithEnv({}, taskFilePath(task, name), init) : call(taskFilePath(task, name), init);
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

/** A stored file of a job: its reference as the job's result lists it, and its bytes. */
export interface RenderedFile {
  ref: ArtifactRef;
  bytes: Uint8Array;
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
