import { existsSync, readdirSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ANALYSE_TASK_ID, RenderTaskRequest, TaskEvent, type ShortTask } from "../../../common/contract/job-plan";
import { localRenderJob } from "../../../dev/render-cli/local-job";
import { silentLogger } from "../../../render-container/src/log";
import { runTask } from "../../../render-container/src/pipeline/run-task";
import { TaskRegistry } from "../../../render-container/src/service/task-registry";
import { ONE_MOMENT_VOD } from "../../dev/fixture-vods";
import { childProcesses } from "../../support/child-processes";
import { startRecorder } from "../../support/http-recorder";
import { holdUntilDropped, startHoldingProxy } from "../../support/holding-proxy";
import { serveVodForTests } from "../../support/twitch-fixture";
import { handMadePlan, planMoment, taskRequest } from "../pipeline/task-fixtures";

/**
 * Stopping a real task on the task registry: the cancel (POST /tasks/:key/cancel, and the Worker's cancel of a
 * job) of a short task, whatever it is doing (encoding, recognising speech, downloading), and a shutdown
 * (SIGTERM: interruptAll) of an analysis task. When the stop returns, the task's processes are gone, its folder
 * is gone and it reports nothing more (a shutdown first reports the task interrupted, so it is retried elsewhere).
 */
const twitchServer = serveVodForTests(ONE_MOMENT_VOD);
const VIDEO_SEGMENT = /\/chunked\/[^/]+\.(ts|mp4)$/;

// A short over the VOD's one moment, captions burnt in: download, recogniser and encode each run long enough.
const SHORT: ShortTask = {
  kind: "short", id: "short-01", index: 1, moment_id: "m1", start: 35, end: 62, peak: 50, snap: false, title_text: "Look",
  title: "A short", description: "d", tags: ["t"], expected_encode_seconds: 30,
};

interface CancelCase {
  /** What must be running when the task is cancelled. */
  busy: (events: TaskEvent[]) => boolean;
  /** Says why `busy` can no longer happen (the awaited step came and went between two looks), or null. */
  missed: (events: TaskEvent[]) => string | null;
  /** Video segment requests wait until the task drops them, so its download cannot end before the cancel. */
  holdVideoDownload?: boolean;
  /**
   * Children whose start waits until the cancel has arrived (the registry's test hook), released right after the
   * cancel began: the moment a process could be started while the cancel sweeps.
   */
  holdStart?: (command: string, args: readonly string[]) => boolean;
}

/** A child process of this name (/proc shortens names to 15 characters: pocketsphinx_co). */
const hasChild = (name: string) => childProcesses().some((c) => c.name === name.slice(0, 15));
const reached = (events: TaskEvent[], stage: string, above = -1) => events.some((e) => e.type === "progress" && e.stage === stage && e.fraction > above);

/**
 * Starts a real task on a registry (the short, or the job's analysis), cancels it once `busy` holds (or stops
 * the registry as a SIGTERM does), and checks what the stop promises.
 */
async function cancelWhen(jobId: string, c: CancelCase, how: "cancel" | "shutdown" = "cancel", taskId: "short-01" | typeof ANALYSE_TASK_ID = "short-01"): Promise<void> {
  const events: TaskEvent[] = [];
  const worker = await startRecorder((q, res) => {
    if (q.url.startsWith("/events")) events.push(TaskEvent.parse(JSON.parse(q.body.toString())));
    res.writeHead(200).end();
  });
  // The task talks to Twitch through a proxy, which can hold its video download open.
  const twitch = twitchServer();
  const proxy = await startHoldingProxy(twitch.url, c.holdVideoDownload ? holdUntilDropped((p) => VIDEO_SEGMENT.test(p), 120_000) : undefined);
  const root = await mkdtemp(path.join(os.tmpdir(), "renderer-cancel-task-"));
  let releaseHeld = () => {};
  const cancelArrived = new Promise<void>((resolve) => (releaseHeld = resolve));
  const held: string[] = [];
  const holdSpawn = c.holdStart && ((_key: string, command: string, args: readonly string[]) => (c.holdStart!(command, args) ? (held.push(command), cancelArrived) : undefined));
  const registry = new TaskRegistry(root, (req, ctx) => runTask(req, ctx, { downloadConcurrency: 4, maxVideoBytesPerJob: 1e9, encodeConcurrency: 2, env: {} }), silentLogger, { maxTasks: 1, holdSpawn });
  const videoRequestsOpen = () => proxy.seen.filter((p) => VIDEO_SEGMENT.test(p)).length - [...proxy.answered, ...proxy.dropped].filter((p) => VIDEO_SEGMENT.test(p)).length;
  const key = `${jobId}.${taskId}`;
  try {
    const job = await localRenderJob(
      { vod_url: `https://www.twitch.tv/videos/${ONE_MOMENT_VOD.vodId}`, compilation_enabled: false, final_video_length_minutes: 0, num_shorts: 1, parameters: { shorts_crop_mode: "fit" } },
      {
        twitch: { gqlUrl: proxy.via(twitch.gqlUrl), usherUrl: proxy.url },
        jobId,
        callback: { url: `${worker.url}/events`, token: "cb" },
        upload: { mode: "worker", url: `${worker.url}/upload`, token: "up" },
      },
    );
    const plan = handMadePlan(jobId, ONE_MOMENT_VOD.durationSeconds, [planMoment("m1", 35, 62, 50)], [SHORT]);
    const request = taskId === ANALYSE_TASK_ID ? RenderTaskRequest.parse({ ...job, task: { id: ANALYSE_TASK_ID, kind: "analyse", attempt: 1 }, plan: null }) : taskRequest(job, plan, "short-01");
    expect(registry.start(request)).toBe("started");

    // With the download held, also wait until its segment requests are out (and held), so it is under way.
    const busy = () => c.busy(events) && (!c.holdVideoDownload || videoRequestsOpen() > 0) && (!c.holdStart || held.length > 0);
    const deadline = Date.now() + 120_000;
    while (!busy()) {
      const ended = events.find((e) => e.type === "completed" || e.type === "failed");
      if (ended || registry.status(key) !== "running") throw new Error(`the task ended (${ended?.type ?? registry.status(key)}) before the state to cancel in was seen`);
      const missed = c.missed(events);
      if (missed) throw new Error(missed);
      if (Date.now() > deadline) throw new Error(`the state to cancel in was not reached within 120 s; events: ${JSON.stringify(events)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(existsSync(path.join(root, `${key}.1`))).toBe(true);

    if (how === "shutdown") {
      await registry.interruptAll("renderer shutting down (SIGTERM)");
      // Stopped from outside, the task says so once, at once (ahead of progress still on its way, which the Worker
      // answers 409 once it has retried the task elsewhere), then nothing more.
      expect(events.filter((e) => e.type === "interrupted")).toEqual([{ type: "interrupted", attempt: 1, seq: expect.any(Number), reason: "renderer shutting down (SIGTERM)" }]);
      expect(registry.status(key)).toBe("interrupted");
    } else {
      const cancelled = registry.cancel(key);
      releaseHeld();
      expect(await cancelled).toBe(true);
      expect(registry.status(key)).toBe("cancelled");
    }
    // When cancel returns, the task's processes are gone and so is its disk.
    expect(childProcesses()).toEqual([]);
    expect(readdirSync(root)).toEqual([]);
    // A held video download was stopped too: the task closed those requests unanswered.
    if (c.holdVideoDownload) {
      await expect.poll(videoRequestsOpen, { timeout: 5000 }).toBe(0);
      expect(proxy.answered.filter((p) => VIDEO_SEGMENT.test(p))).toEqual([]);
    }
    const sent = events.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(events.length).toBe(sent);
    expect(events.map((e) => e.type)).not.toContain("failed");
    expect(events.map((e) => e.type)).not.toContain("completed");
    expect(worker.requests.filter((q) => q.url.startsWith("/upload"))).toEqual([]);
  } finally {
    releaseHeld();
    await registry.interruptAll("test over");
    await worker.close();
    await proxy.close();
  }
}

describe("stopping a real task on the task registry", () => {
  it("mid-encode: kills its FFmpeg processes, deletes its work folder and reports nothing more", async () => {
    await cancelWhen("job_cancel_task_encode", {
      // The encode owns the short's bar from 0.35 on (the start of "rendering_shorts"), so its FFmpeg runs by then.
      busy: (events) => reached(events, "rendering_shorts", 0.35) && hasChild("ffmpeg"),
      missed: (events) => (reached(events, "uploading") ? "the encode finished before an FFmpeg process was seen" : null),
    });
  }, 180_000);

  it("while the recogniser transcribes the short's captions: stops pocketsphinx too before the folder goes", async () => {
    await cancelWhen("job_cancel_task_captions", {
      busy: () => hasChild("pocketsphinx_continuous"),
      missed: (events) => (reached(events, "rendering_shorts") ? "the recogniser finished before it was seen running" : null),
    });
  }, 180_000);

  it("when a recogniser search starts just as the cancel arrives: refuses it, so none is left running", async () => {
    await cancelWhen("job_cancel_task_captions_start", {
      // The cross-check's two fast searches wait to start until the cancel has begun; the accurate one runs.
      holdStart: (command, args) => command.endsWith("pocketsphinx_continuous") && args.includes("-ds"),
      busy: () => hasChild("pocketsphinx_continuous"),
      missed: (events) => (reached(events, "rendering_shorts") ? "the recogniser finished before it was seen running" : null),
    });
  }, 180_000);

  it("while its video download is held open: closes those requests unanswered", async () => {
    await cancelWhen("job_cancel_task_download", {
      holdVideoDownload: true,
      busy: (events) => reached(events, "downloading_video"),
      missed: (events) => (reached(events, "transcribing") || reached(events, "rendering_shorts") ? "the video download finished before the cancel" : null),
    });
  }, 180_000);

  it("on a shutdown (SIGTERM) mid-analysis: reports the task interrupted, then stops like a cancel", async () => {
    await cancelWhen(
      "job_shutdown_analysis",
      { busy: (events) => reached(events, "analysing") && hasChild("ffmpeg"), missed: (events) => (reached(events, "transcribing") ? "the analysis got past its audio before the shutdown" : null) },
      "shutdown",
      ANALYSE_TASK_ID,
    );
  }, 180_000);
});
