import { readdirSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TaskEvent, type ShortTask } from "../../../common/contract/job-plan";
import { localRenderJob } from "../../../dev/render-cli/local-job";
import { SMALL_VOD } from "../../dev/fixture-vods";
import { childProcesses, isAlive } from "../../support/child-processes";
import { startRecorder } from "../../support/http-recorder";
import { startRendererProcess, type RendererProcess } from "../../support/renderer-process";
import { serveVodForTests } from "../../support/twitch-fixture";
import { handMadePlan, planMoment, taskRequest } from "../pipeline/task-fixtures";

const twitchServer = serveVodForTests(SMALL_VOD);
const TOKEN = "shutdown-test-token";
let renderer: RendererProcess | undefined;
afterEach(async () => {
  if (renderer && renderer.child.exitCode === null && renderer.child.signalCode === null) renderer.child.kill("SIGKILL");
  renderer = undefined;
});

const SHORT: ShortTask = {
  kind: "short", id: "short-01", index: 1, moment_id: "m1", start: 40, end: 70, peak: 62, snap: false, title_text: "Look",
  title: "A short", description: "d", tags: ["t"], expected_encode_seconds: 30,
};

describe("a renderer told to stop (SIGTERM) mid-task", () => {
  it("reports the task as interrupted before its FFmpeg processes are killed, then exits, leaving none behind", async () => {
    const ffmpegSeen = new Set<number>();
    let ffmpegAliveAtInterrupt: boolean | null = null;
    const events: TaskEvent[] = [];
    const worker = await startRecorder((q, res) => {
      if (q.url.startsWith("/events")) {
        const event = TaskEvent.parse(JSON.parse(q.body.toString()));
        // Looked at while the renderer waits for this answer: are the encodes it started still running?
        if (event.type === "interrupted") ffmpegAliveAtInterrupt = [...ffmpegSeen].some(isAlive);
        events.push(event);
      }
      res.writeHead(200).end();
    });
    try {
      const workDir = await mkdtemp(path.join(os.tmpdir(), "renderer-sigterm-"));
      renderer = await startRendererProcess({ RENDERER_TOKEN: TOKEN, WORK_DIR: workDir, MAX_TASKS: "1", X264_PRESET: "veryfast" });
      await renderer.ready();
      const job = await localRenderJob(
        { vod_url: `https://www.twitch.tv/videos/${SMALL_VOD.vodId}`, compilation_enabled: false, final_video_length_minutes: 0, num_shorts: 1, parameters: { shorts_crop_mode: "split" } },
        { twitch: twitchServer(), jobId: "job_sigterm", callback: { url: `${worker.url}/events`, token: "cb" }, upload: { mode: "worker", url: `${worker.url}/upload`, token: "up" } },
      );
      const plan = handMadePlan("job_sigterm", SMALL_VOD.durationSeconds, [planMoment("m1", 40, 70, 62)], [SHORT]);
      const res = await fetch(`${renderer.url}/tasks`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }, body: JSON.stringify(taskRequest(job, plan, "short-01")) });
      expect(res.status).toBe(202);

      // Mid-encode: the short's own encode (from 0.35 of its bar) runs as the renderer's child.
      const deadline = Date.now() + 120_000;
      for (;;) {
        for (const c of childProcesses(renderer.pid)) if (c.name === "ffmpeg") ffmpegSeen.add(c.pid);
        const encoding = events.some((e) => e.type === "progress" && e.stage === "rendering_shorts" && e.fraction > 0.4);
        if (encoding && childProcesses(renderer.pid).some((c) => c.name === "ffmpeg")) break;
        if (events.some((e) => e.type === "completed" || e.type === "failed")) throw new Error(`the task ended first: ${JSON.stringify(events.at(-1))}`);
        if (Date.now() > deadline) throw new Error(`the encode was not seen running; events: ${JSON.stringify(events)}`);
        await new Promise((r) => setTimeout(r, 20));
      }

      renderer.child.kill("SIGTERM");
      expect(await renderer.exited).toBe(0);
      const interrupted = events.filter((e) => e.type === "interrupted");
      expect(interrupted).toEqual([{ type: "interrupted", attempt: 1, seq: expect.any(Number), reason: "renderer shutting down (SIGTERM)" }]);
      expect(ffmpegAliveAtInterrupt).toBe(true);
      expect(events.map((e) => e.type)).not.toContain("failed");
      expect(events.map((e) => e.type)).not.toContain("completed");
      // Every FFmpeg it ran is gone (not orphaned), and so is the task's folder.
      expect([...ffmpegSeen].filter(isAlive)).toEqual([]);
      expect(readdirSync(workDir)).toEqual([]);
      expect(renderer.lines.some((l) => l.includes('"msg":"shutting down"') && l.includes("SIGTERM"))).toBe(true);
    } finally {
      await worker.close();
    }
  }, 180_000);
});
