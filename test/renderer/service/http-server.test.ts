import { existsSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RenderJob } from "../../../common/contract/render";
import { silentLogger } from "../../../render-container/src/log";
import { JobError } from "../../../render-container/src/pipeline/job-error";
import type { JobRunner } from "../../../render-container/src/pipeline/types";
import { createRenderServer } from "../../../render-container/src/service/http-server";
import { JobRegistry } from "../../../render-container/src/service/job-registry";
import { TaskRegistry } from "../../../render-container/src/service/task-registry";
import { startRecorder } from "../../support/http-recorder";

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

function renderJob(callbackUrl: string, id = "job_test"): RenderJob {
  return {
    job_id: id,
    request: {
      vod_url: "https://www.twitch.tv/videos/1", vod_id: "1", streamer_name: null, game_name: null, streamer_twitch_url: null,
      streamer_twitter_url: null, streamer_pronouns: "they", webhook_url: null, vod_length_hours: null, final_video_length_minutes: 5,
      compilation_enabled: true, num_shorts: 1, num_shorts_requested: 1, burn_captions: true, manual_highlights: [], model_preset: "auto_balance",
      stream_language: null, metadata_language: null, run_profiles: ["balanced"], executed_profiles: ["balanced"],
      profile_settings: { balanced: { target_duration_seconds: 300, audience_weight: 0.5, streamer_weight: 0.5, similarity_threshold: 0.5, highlight_min_score: 0.35, bucket_size_seconds: 5 } },
      parameters: { min_highlight_duration: 20, max_highlight_duration: 60, cold_open_enabled: false, cold_open_max_clips: 3, cold_open_snippet_duration: 3, reel_title_card_enabled: false, shorts_title_card_enabled: true, shorts_crop_mode: "crop", shorts_split_ratio: 0.5, shorts_facecam_frame_enabled: false, shorts_facecam_frame_color: "white", caption_style: "plain", mask_profanity: true },
    },
    vod: { vod_id: "1", title: "t", duration_seconds: 60, streamer_login: null, streamer_display_name: null, game_name: null, created_at: null, language: null },
    callback: { url: callbackUrl, token: "cb-token" },
    upload: { mode: "worker", url: "http://127.0.0.1:1/upload", token: "up" },
    twitch: { gql_url: "http://127.0.0.1:1/gql", usher_url: "http://127.0.0.1:1" },
  };
}

async function startService(runner: JobRunner, token?: string) {
  const root = await mkdtemp(path.join(os.tmpdir(), "renderer-svc-"));
  const registry = new JobRegistry(root, runner, silentLogger);
  const tasks = new TaskRegistry(root, async () => {
    throw new Error("no task expected");
  }, silentLogger, { maxTasks: 1 });
  const server = createRenderServer({ jobs: registry, tasks }, silentLogger, { token });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closers.push(() => new Promise((r) => server.close(r)));
  return { url, registry, root };
}

const post = (url: string, body: unknown, token?: string) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

describe("renderer HTTP service", () => {
  it("accepts a job at once, runs it once, reports completion and removes its work folder", async () => {
    const cb = await startRecorder();
    closers.push(cb.close);
    let runs = 0;
    let seenDir = "";
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const svc = await startService(async (_job, ctx) => {
      runs++;
      seenDir = ctx.workDir;
      await writeFile(path.join(ctx.workDir, "scratch.bin"), "x");
      await gate;
      return { manifest: { summary: { total_videos: 0, generated_video_duration_seconds: 0, total_shorts: 0, source_vod_duration_seconds: 60 }, highlights: [], shorts_count: 0, artifacts: { assets: { compilation: [], shorts: [], thumbnails: [], captions: [], metadata: [] } }, warnings: [] }, artifacts: [] };
    });
    const first = await post(`${svc.url}/jobs`, renderJob(`${cb.url}/events`));
    expect(first.status).toBe(202);
    expect(await first.json()).toMatchObject({ accepted: true, status: "running" });
    const again = await post(`${svc.url}/jobs`, renderJob(`${cb.url}/events`));
    expect(await again.json()).toMatchObject({ accepted: false });
    release();
    await expect.poll(() => svc.registry.status("job_test")).toBe("completed");
    expect(runs).toBe(1);
    expect(existsSync(seenDir)).toBe(false);
    const types = cb.requests.map((r) => JSON.parse(r.body.toString()).type);
    expect(types).toEqual(["started", "completed"]);
  });

  it("cancel aborts the run and cleans up without reporting a failure", async () => {
    const cb = await startRecorder();
    closers.push(cb.close);
    let dir = "";
    const svc = await startService(async (_job, ctx) => {
      dir = ctx.workDir;
      await new Promise((_r, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)));
      throw new Error("unreachable");
    });
    await post(`${svc.url}/jobs`, renderJob(`${cb.url}/events`, "job_c"));
    await expect.poll(() => existsSync(dir)).toBe(true);
    const res = await post(`${svc.url}/jobs/job_c/cancel`, {});
    expect(await res.json()).toEqual({ job_id: "job_c", cancelled: true });
    expect(existsSync(dir)).toBe(false);
    expect(svc.registry.status("job_c")).toBe("cancelled");
    expect(cb.requests.map((r) => JSON.parse(r.body.toString()).type)).toEqual(["started"]);
  });

  it("reports a human error message when the run fails", async () => {
    const cb = await startRecorder();
    closers.push(cb.close);
    const svc = await startService(async () => {
      throw new JobError("vod_deleted", "The VOD was deleted on Twitch before it could be processed.");
    });
    await post(`${svc.url}/jobs`, renderJob(`${cb.url}/events`, "job_f"));
    await expect.poll(() => svc.registry.status("job_f")).toBe("failed");
    const last = JSON.parse(cb.requests.at(-1)!.body.toString());
    expect(last).toMatchObject({ type: "failed", error: { code: "vod_deleted", message: expect.stringContaining("deleted") } });
  });

  it("rejects malformed jobs with field details and requires the token when set", async () => {
    const svc = await startService(async () => {
      throw new Error("never");
    }, "secret");
    expect((await post(`${svc.url}/jobs`, { job_id: 1 })).status).toBe(401);
    const bad = await post(`${svc.url}/jobs`, { job_id: 1 }, "secret");
    expect(bad.status).toBe(422);
    const body = (await bad.json()) as { error: { detail: { field: string }[] } };
    expect(body.error.detail.map((d) => d.field)).toContain("job_id");
    expect((await fetch(`${svc.url}/health`)).status).toBe(200);
  });

  it("stops rendering when the Worker answers a callback with 409 (job settled there)", async () => {
    const cb = await startRecorder((q, res) => res.writeHead(JSON.parse(q.body.toString()).type === "progress" ? 409 : 200).end());
    closers.push(cb.close);
    const svc = await startService(async (_job, ctx) => {
      ctx.reporter.progress("analysing", 10);
      await new Promise((_r, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)));
      throw new Error("unreachable");
    });
    await post(`${svc.url}/jobs`, renderJob(`${cb.url}/events`, "job_s"));
    await expect.poll(() => svc.registry.status("job_s")).toBe("cancelled");
    expect(cb.requests.map((r) => JSON.parse(r.body.toString()).type)).toEqual(["started", "progress"]);
  });
});

