import { existsSync, readdirSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../../render-container/src/log";
import { runRenderJob } from "../../../render-container/src/pipeline/run-job";
import { JobRegistry } from "../../../render-container/src/service/job-registry";
import { localRenderJob } from "../../../dev/render-cli/local-job";
import { childProcesses } from "../../support/child-processes";
import { startRecorder } from "../../support/http-recorder";
import { holdUntilDropped, startHoldingProxy } from "../../support/holding-proxy";
import { ONE_MOMENT_VOD } from "../../dev/fixture-vods";
import { serveVodForTests } from "../../support/twitch-fixture";

const children = () => childProcesses();

const VOD_ID = ONE_MOMENT_VOD.vodId;
const twitchServer = serveVodForTests(ONE_MOMENT_VOD);

type JobEvent = { type: string; stage?: string; percent?: number };

interface CancelCase {
  /** What must be running when the job is cancelled. */
  busy: (events: JobEvent[]) => boolean;
  /** Says why `busy` can no longer happen (the awaited process came and went between two looks), or null. */
  missed: (events: JobEvent[]) => string | null;
  /** Video segment requests wait until the job drops them, so its video download cannot end before the cancel. */
  holdVideoDownload?: boolean;
}

const VIDEO_SEGMENT = /\/chunked\/[^/]+\.(ts|mp4)$/;

/** Looks every 20 ms until `busy` holds; fails at once, saying why, when it no longer can. */
async function waitUntilBusy(c: CancelCase, events: JobEvent[], status: () => string | null): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (c.busy(events)) return;
    const ended = events.find((e) => e.type === "completed" || e.type === "failed");
    if (ended || status() !== "running") throw new Error(`the job ended (${ended?.type ?? status()}) before the state to cancel in was seen`);
    const missed = c.missed(events);
    if (missed) throw new Error(missed);
    if (Date.now() > deadline) throw new Error(`the state to cancel in was not reached within 90 s; events: ${JSON.stringify(events)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Starts a real job on a registry, cancels it once `busy` holds (or stops the registry as a SIGTERM does), and
 * checks what cancel promises.
 */
async function cancelWhen(jobId: string, c: CancelCase, how: "cancel" | "shutdown" = "cancel") {
  const events: (JobEvent & { error?: { code: string; message: string } })[] = [];
  const callbacks = await startRecorder((q, res) => {
    if (q.url.startsWith("/events")) events.push(JSON.parse(q.body.toString()));
    res.writeHead(200).end();
  });
  // The job talks to Twitch through a proxy, which can hold its video download open.
  const twitch = twitchServer();
  const proxy = await startHoldingProxy(twitch.url, c.holdVideoDownload ? holdUntilDropped((p) => VIDEO_SEGMENT.test(p), 120_000) : undefined);
  const job = await localRenderJob(
    { vod_url: `https://www.twitch.tv/videos/${VOD_ID}`, compilation_enabled: false, final_video_length_minutes: 0, num_shorts: 1, parameters: { max_highlight_duration: 30, shorts_crop_mode: "fit" } },
    {
      twitch: { gqlUrl: proxy.via(twitch.gqlUrl), usherUrl: proxy.url },
      jobId,
      callback: { url: `${callbacks.url}/events`, token: "cb" },
      upload: { mode: "worker", url: `${callbacks.url}/upload`, token: "up" },
    },
  );
  const workRoot = await mkdtemp(path.join(os.tmpdir(), "renderer-cancel-"));
  const registry = new JobRegistry(workRoot, (j, ctx) => runRenderJob(j, ctx, { downloadConcurrency: 4, maxVideoBytesPerJob: 1e9, encodeConcurrency: 2, env: {} }), silentLogger);
  const videoRequestsOpen = () => proxy.seen.filter((p) => VIDEO_SEGMENT.test(p)).length - [...proxy.answered, ...proxy.dropped].filter((p) => VIDEO_SEGMENT.test(p)).length;
  try {
    expect(registry.start(job)).toBe(true);
    const workDir = path.join(workRoot, job.job_id);
    // With the download held, also wait until its segment requests are out (and held), so it is under way.
    const busy = (events: JobEvent[]) => c.busy(events) && (!c.holdVideoDownload || videoRequestsOpen() > 0);
    await waitUntilBusy({ ...c, busy }, events, () => registry.status(job.job_id));
    expect(existsSync(workDir)).toBe(true);

    if (how === "shutdown") {
      await registry.shutdown();
      // Stopped from outside, the job says so at once (the Worker fails it with a full refund), then nothing more.
      expect(events.at(-1)).toMatchObject({ type: "failed", error: { code: "renderer_interrupted", message: "The renderer was stopped (a rollout or an eviction) before the job finished." } });
      expect(registry.status(job.job_id)).toBe("failed");
    } else {
      expect(await registry.cancel(job.job_id)).toBe(true);
      expect(registry.status(job.job_id)).toBe("cancelled");
    }
    // When cancel returns, the job's processes are gone and so is its disk.
    expect(children()).toEqual([]);
    expect(existsSync(workDir)).toBe(false);
    expect(readdirSync(workRoot)).toEqual([]);
    // A held video download was stopped too: the job closed those requests unanswered.
    if (c.holdVideoDownload) {
      await expect.poll(videoRequestsOpen, { timeout: 5000 }).toBe(0);
      expect(proxy.answered.filter((p) => VIDEO_SEGMENT.test(p))).toEqual([]);
    }
    const sent = events.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(events.length).toBe(sent);
    if (how === "cancel") expect(events.map((e) => e.type)).not.toContain("failed");
    expect(events.map((e) => e.type)).not.toContain("completed");
  } finally {
    await registry.shutdown();
    await callbacks.close();
    await proxy.close();
  }
}

/** A child process of this name (/proc shortens names to 15 characters: pocketsphinx_co). */
const hasChild = (name: string) => children().some((c) => c.name === name.slice(0, 15));
const reached = (events: JobEvent[], stage: string) => events.some((e) => e.stage === stage);

describe("cancelling a real job on the renderer service", () => {
  it("mid-encode: kills its FFmpeg processes, deletes its work folder and reports nothing more", async () => {
    await cancelWhen("job_cancel_encode", {
      // The shorts stage is reported from the encode's own progress, so its FFmpeg is running by then.
      busy: (events) => reached(events, "rendering_shorts") && hasChild("ffmpeg"),
      missed: (events) => (reached(events, "uploading") ? "the encodes finished before an FFmpeg process was seen" : null),
    });
  }, 180_000);

  it("while the recogniser runs: stops pocketsphinx too before the folder goes", async () => {
    await cancelWhen("job_cancel_captions", {
      // The analysis transcribes the words its titles are written from; the short's task its captions.
      busy: () => hasChild("pocketsphinx_continuous"),
      missed: (events) => (reached(events, "uploading") ? "the recogniser finished before it was seen running" : null),
    });
  }, 180_000);

  it("while a task's video download is held open: closes those requests unanswered", async () => {
    await cancelWhen("job_cancel_download", {
      holdVideoDownload: true,
      busy: (events) => reached(events, "downloading_video"),
      missed: (events) => (reached(events, "rendering_shorts") ? "the video download finished before the cancel" : null),
    });
  }, 180_000);

  it("on a shutdown (SIGTERM) mid-analysis: reports renderer_interrupted, then stops like a cancel", async () => {
    await cancelWhen(
      "job_shutdown_analysis",
      { busy: (events) => reached(events, "analysing") && hasChild("ffmpeg"), missed: (events) => (reached(events, "uploading") ? "the job got to its uploads before the shutdown" : null) },
      "shutdown",
    );
  }, 180_000);
});
