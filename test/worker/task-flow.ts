import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { ArtifactRef, Manifest, MomentSignals } from "../../common/contract";
import type { StoredResult } from "../../worker/src/artifacts/results";
import { reelPartName, RenderTaskRequest, type JobPlan, type RenderTaskSpec, type TaskEvent, type TaskResult } from "../../common/contract/job-plan";
import { call, minimalJob } from "./helpers";
import { bytesOf, eventually, jobState, putTaskFile, rendererLog, startedJob, type RenderedFile } from "./job-steps";

/**
 * The renderer's side of a fanned-out job, played by the tests: a hand-made plan (one balanced reel of two
 * moments with a teaser from the first, its join, one short), task events through the Worker's real route, and
 * files through the real upload route. The Durable Object sends the render tasks through the real queue, whose
 * consumer starts them on the renderer double.
 */

const signals = (score: number): MomentSignals => ({
  score,
  audience_score: score,
  streamer_score: score,
  audio_hype: 0.5,
  chat_rate_ratio: 2,
  unique_chatters: 10,
  hype_density: 0.2,
  speech_activity: 0.6,
  loudness_db_above_baseline: 6,
  source: "auto",
  reasons: ["chat burst"],
});

export function testPlan(jobId: string): JobPlan {
  const texts = { description: "What happened", tags: ["celeste"] };
  return {
    version: 1,
    job_id: jobId,
    source: { duration_seconds: 3600, video_rendition: "chunked", format_switches: [], vod_url: "https://www.twitch.tv/videos/123456789", frame_rate: 60 },
    languages: { stream: "en", metadata: "en" },
    captions: { burn: true, language: "en" },
    facecam: null,
    moments: [
      { id: "m1", profile: "balanced", start: 100, end: 130, peak: 120, score: 0.9, source: "auto", label: null, signals: signals(0.9), title: "The clutch", story: "A last-second clutch", highlight: true, chat_profanity: [] },
      { id: "m2", profile: "balanced", start: 400, end: 440, peak: 420, score: 0.8, source: "auto", label: null, signals: signals(0.8), title: "The fall", story: "Chat loses it over a fall", highlight: true, chat_profanity: [] },
      { id: "m3", profile: "balanced", start: 900, end: 930, peak: 915, score: 0.7, source: "auto", label: null, signals: signals(0.7), title: "Short pick", story: "Only a short", highlight: false, chat_profanity: [] },
    ],
    reels: [{ run_name: "balanced", moment_ids: ["m1", "m2"], title: "Best of the night", ...texts }],
    shorts: [{ index: 1, moment_id: "m3", title: "Short pick", ...texts }],
    tasks: [
      { kind: "reel_moment", id: "reel-balanced-m01", run_name: "balanced", moment_id: "m1", position: 1, start: 100, end: 130, snap: { min_start: 0, max_end: 400, min_duration: 10, max_duration: 60 }, title_text: "The clutch", teasers: [{ position: 0, start: 118, end: 122 }], expected_encode_seconds: 34 },
      { kind: "reel_moment", id: "reel-balanced-m02", run_name: "balanced", moment_id: "m2", position: 2, start: 400, end: 440, snap: { min_start: 130, max_end: 3600, min_duration: 10, max_duration: 60 }, title_text: "The fall", teasers: [], expected_encode_seconds: 40 },
      { kind: "reel_join", id: "reel-balanced-join", run_name: "balanced", depends_on: ["reel-balanced-m01", "reel-balanced-m02"], pieces: 3, thumbnail_at: 1, title: "Best of the night", ...texts, expected_encode_seconds: 1 },
      { kind: "short", id: "short-01", index: 1, moment_id: "m3", start: 900, end: 930, peak: 915, snap: true, title_text: "Short pick", title: "Short pick", ...texts, expected_encode_seconds: 75 },
    ],
    metadata: { language: "en", reels: [], shorts: [], moments: [] },
    warnings: ["Chat replay was only partly available: chat signals cover part of the VOD."],
  };
}

let seq = 100;

/** A task event without its sequence number (and, by default, attempt): the helpers fill them in. */
type EventInput = TaskEvent extends infer E ? (E extends TaskEvent ? Omit<E, "seq" | "attempt"> & { attempt?: number; seq?: number } : never) : never;

/** POSTs a task event to the task's callback URL (the Worker's real route). */
export async function postTaskEvent(render: RenderTaskRequest, event: EventInput): Promise<Response> {
  const path = new URL(render.callback.url).pathname;
  const body = { attempt: render.task.attempt, seq: ++seq, ...event };
  return call(path, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${render.callback.token}` }, body: JSON.stringify(body) });
}

export async function taskEvent(render: RenderTaskRequest, event: EventInput, status = 200): Promise<Record<string, unknown>> {
  const res = await postTaskEvent(render, event);
  const body = (await res.json()) as Record<string, unknown>;
  expect({ status: res.status, body }).toMatchObject({ status });
  return body;
}

/** Every task start the renderer double received for a job, parsed. */
export async function taskStarts(jobId: string): Promise<RenderTaskRequest[]> {
  return (await rendererLog(jobId)).starts.map((s) => RenderTaskRequest.parse(s));
}

/**
 * Waits until the renderer double has received attempt `attempt` of a task (the real queue delivers it): one
 * request the double answers when that start arrives (dispatch-fixtures.node.ts), not a poll of its log. Then
 * until the queue consumer has told the job's object how the start went (it does right after the double's
 * answer), so what the test does next meets the task and the job as the Worker left them: a report finds the
 * attempt confirmed, an upload finds the job running.
 */
export async function waitForStart(jobId: string, taskId: string, attempt = 1, timeoutMs = 15_000): Promise<RenderTaskRequest> {
  const res = await fetch(`${env.RENDER_URL}/__test/jobs/${jobId}/starts/${taskId}/${attempt}?wait_ms=${timeoutMs}`);
  if (res.status !== 200) throw new Error(`timed out waiting for task ${taskId} attempt ${attempt} to start (${res.status}: ${await res.text()})`);
  const start = RenderTaskRequest.parse(await res.json());
  const settled = async () => {
    const stub = jobState(jobId);
    const task = (await stub.tasks()).find((t) => t.id === taskId);
    const status = (await stub.get())?.status;
    return !task || task.attempt !== attempt || task.state !== "dispatching" || status === "completed" || status === "failed";
  };
  await eventually(settled, timeoutMs, `the start of task ${taskId} attempt ${attempt} to be confirmed`);
  return start;
}

/** Stores a file as the renderer would: on the task's own upload target (its attempt's storage route and token). */
async function upload(task: Pick<RenderTaskRequest, "upload">, name: string, bytes: Uint8Array, contentType: string): Promise<number> {
  const res = await putTaskFile(task, name, bytes, contentType);
  expect(res.status, `${name}: ${await res.clone().text()}`).toBe(201);
  return bytes.byteLength;
}

const ref = (r: Partial<ArtifactRef> & Pick<ArtifactRef, "name" | "kind" | "content_type" | "size_bytes">): ArtifactRef => ({ run_name: null, index: null, title: null, duration_seconds: null, tags: null, ...r });

/** Uploads what a render task would store and returns its result (the reel moments' edges moved by a snap). */
export async function renderTaskOutputs(render: RenderTaskRequest, seed = 1): Promise<TaskResult> {
  return specOutputs(render, render.plan!.tasks.find((t) => t.id === render.task.id)!, seed);
}

async function specOutputs(task: Pick<RenderTaskRequest, "upload">, spec: RenderTaskSpec, seed: number): Promise<TaskResult> {
  switch (spec.kind) {
    case "clip_group": {
      const results = [];
      for (const [i, member] of spec.members.entries()) results.push((await specOutputs(task, member, seed + 10 * i)) as Extract<TaskResult, { kind: "reel_moment" | "short" }>);
      return { kind: "clip_group", results };
    }
    case "reel_moment": {
      const parts = [];
      for (const p of [...spec.teasers.map((t) => ({ position: t.position, seconds: t.end - t.start })), { position: spec.position, seconds: spec.end - spec.start }]) {
        const name = reelPartName(spec.run_name, p.position);
        parts.push({ position: p.position, name, size_bytes: await upload(task, name, bytesOf(seed + p.position, 5_000), "video/mp4"), duration_seconds: p.seconds });
      }
      return { kind: "reel_moment", parts, moment: { id: spec.moment_id, start: spec.start - 0.5, end: spec.end + 0.5 } };
    }
    case "reel_join": {
      const reel = await upload(task, "reel-balanced.mp4", bytesOf(seed, 50_000), "video/mp4");
      const thumb = await upload(task, "reel-balanced.jpg", bytesOf(seed + 1, 3_000), "image/jpeg");
      return {
        kind: "reel_join",
        artifacts: [
          ref({ name: "reel-balanced.mp4", kind: "reel", content_type: "video/mp4", size_bytes: reel, run_name: "balanced", title: spec.title, duration_seconds: 75, tags: spec.tags }),
          ref({ name: "reel-balanced.jpg", kind: "thumbnail", content_type: "image/jpeg", size_bytes: thumb, run_name: "balanced", title: spec.title }),
        ],
      };
    }
    case "short": {
      const name = (ext: string) => `short-${String(spec.index).padStart(2, "0")}.${ext}`;
      const video = await upload(task, name("mp4"), bytesOf(seed, 20_000), "video/mp4");
      const thumb = await upload(task, name("jpg"), bytesOf(seed + 1, 2_000), "image/jpeg");
      const srt = await upload(task, name("srt"), new TextEncoder().encode("1\n00:00:00,000 --> 00:00:01,000\nlet's go\n"), "application/x-subrip");
      const words = [{ word: "let's", start: 0, end: 0.4, confidence: 0.9, shown: true }, { word: "go", start: 0.4, end: 1, confidence: 0.95, shown: true }, { word: "uh", start: 1.5, end: 1.6, confidence: 0.2, shown: false }];
      const transcriptDoc = { version: 1, index: spec.index, short: name("mp4"), vod_start: spec.start, vod_end: spec.end, language: "en", recogniser: "pocketsphinx", captions_burned: true, words, note: null };
      const transcript = await upload(task, name("transcript.json"), new TextEncoder().encode(JSON.stringify(transcriptDoc)), "application/json");
      const common = { run_name: "balanced" as const, index: spec.index, title: spec.title };
      return {
        kind: "short",
        artifacts: [
          ref({ ...common, name: name("mp4"), kind: "short", content_type: "video/mp4", size_bytes: video, duration_seconds: 30, tags: spec.tags }),
          ref({ ...common, name: name("srt"), kind: "captions", content_type: "application/x-subrip", size_bytes: srt }),
          ref({ ...common, name: name("transcript.json"), kind: "transcript", content_type: "application/json", size_bytes: transcript }),
          ref({ ...common, name: name("jpg"), kind: "thumbnail", content_type: "image/jpeg", size_bytes: thumb }),
        ],
        moment: { id: spec.moment_id, start: spec.start, end: spec.end },
      };
    }
  }
}

/** Plays one render task to its end: started, progress, files, completed. */
export async function completeRenderTask(render: RenderTaskRequest, result?: TaskResult): Promise<void> {
  await taskEvent(render, { type: "started" });
  await taskEvent(render, { type: "progress", stage: "rendering_reels", fraction: 0.5 });
  await taskEvent(render, { type: "completed", result: result ?? (await renderTaskOutputs(render)) });
}

/** The test plan's render tasks that start at once (the join waits for its moments). */
export const FIRST_TASKS = ["reel-balanced-m01", "reel-balanced-m02", "short-01"];

/**
 * Plays a started job (its analysis task dispatched) to its end through the task path: the analysis returns the
 * test plan, every render task started through the real queue stores its files and completes, the join last;
 * the Worker then finalises (metadata.json, manifest.json) and completes the job. `outputs` may change what a
 * task stores (its default: renderTaskOutputs). Returns every stored file as the job's result lists it.
 */
export async function completeJob(render: RenderTaskRequest, outputs: (task: RenderTaskRequest) => Promise<TaskResult> = renderTaskOutputs): Promise<{ files: RenderedFile[]; manifest: Manifest }> {
  const jobId = render.job_id;
  await taskEvent(render, { type: "started" });
  await taskEvent(render, { type: "completed", result: { kind: "analyse", plan: testPlan(jobId) } });
  const starts = await Promise.all(FIRST_TASKS.map((id) => waitForStart(jobId, id)));
  for (const s of starts) await completeRenderTask(s, await outputs(s));
  const join = await waitForStart(jobId, "reel-balanced-join");
  await completeRenderTask(join, await outputs(join));
  return storedFiles(jobId);
}

/** A completed job's stored result: every file it lists, read back from R2, and its manifest. */
export async function storedFiles(jobId: string): Promise<{ files: RenderedFile[]; manifest: Manifest }> {
  const row = await env.DB.prepare("SELECT status, result_json FROM jobs WHERE id = ?").bind(jobId).first<{ status: string; result_json: string | null }>();
  expect(row?.status).toBe("completed");
  const result = JSON.parse(row!.result_json!) as StoredResult;
  const files: RenderedFile[] = [];
  for (const ref of result.artifacts) {
    const object = await env.ARTIFACTS.get(`jobs/${jobId}/${ref.name}`);
    files.push({ ref, bytes: new Uint8Array(await object!.arrayBuffer()) });
  }
  return { files, manifest: result.manifest };
}

export const r2Keys = async (jobId: string): Promise<string[]> => (await env.ARTIFACTS.list({ prefix: `jobs/${jobId}/` })).objects.map((o) => o.key.slice(`jobs/${jobId}/`.length)).sort();

/** A started job whose analysis returned the test plan; the render tasks are on their way through the queue. */
export async function plannedJob(apiKey: string, body: Record<string, unknown> = {}, plan: (jobId: string) => JobPlan = testPlan) {
  const started = await startedJob(apiKey, minimalJob({ num_shorts: 1, ...body }));
  await taskEvent(started.render, { type: "started" });
  await taskEvent(started.render, { type: "progress", stage: "analysing", fraction: 0.5 });
  await taskEvent(started.render, { type: "completed", result: { kind: "analyse", plan: plan(started.ack.id) } });
  return started;
}
