import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RenderJob } from "../../../common/contract/render";
import { probeVod } from "../../../common/twitch";
import { generateSyntheticVod } from "../../../dev/synth-vod";
import { startTwitchServer, type TwitchServer } from "../../../dev/twitch-server";
import { silentLogger } from "../../../render-container/src/log";
import { runRenderJob } from "../../../render-container/src/pipeline/run-job";
import { JobRegistry } from "../../../render-container/src/service/job-registry";
import { prepareJob, toVodInfo } from "../../../worker/src/domain/prepare-job";
import { startRecorder } from "../../support/http-recorder";
import { ONE_MOMENT_VOD } from "../../dev/fixture-vods";

/** This process's child processes (name and pid), from /proc. */
function children(): { pid: number; name: string }[] {
  const out: { pid: number; name: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      if (ppid === process.pid) out.push({ pid: Number(entry), name: stat.slice(stat.indexOf("(") + 1, close) });
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

const VOD_ID = ONE_MOMENT_VOD.vodId;
let twitch: TwitchServer;

beforeAll(async () => {
  await generateSyntheticVod(ONE_MOMENT_VOD);
  twitch = await startTwitchServer({ root: ONE_MOMENT_VOD.root });
});
afterAll(async () => {
  await twitch?.close();
});

/** Starts a real job on a registry, cancels it once `busy` holds, and checks what cancel promises. */
async function cancelWhen(jobId: string, busy: (events: { type: string; stage?: string }[]) => boolean) {
  const events: { type: string; stage?: string }[] = [];
  const callbacks = await startRecorder((q, res) => {
    if (q.url.startsWith("/events")) events.push(JSON.parse(q.body.toString()));
    res.writeHead(200).end();
  });
  const prepared = await prepareJob(
    { vod_url: `https://www.twitch.tv/videos/${VOD_ID}`, compilation_enabled: false, final_video_length_minutes: 0, num_shorts: 1, parameters: { max_highlight_duration: 30, shorts_crop_mode: "fit" } },
    { plan: "pro", purchased: true },
    (id) => probeVod(twitch, id),
  );
  const job: RenderJob = {
    job_id: jobId,
    request: prepared.request,
    vod: toVodInfo(prepared.probe!),
    callback: { url: `${callbacks.url}/events`, token: "cb" },
    upload: { mode: "worker", url: `${callbacks.url}/upload`, token: "up" },
    twitch: { gql_url: twitch.gqlUrl, usher_url: twitch.usherUrl },
  };
  const workRoot = await mkdtemp(path.join(os.tmpdir(), "renderer-cancel-"));
  const registry = new JobRegistry(workRoot, (j, ctx) => runRenderJob(j, ctx, { downloadConcurrency: 4, maxVideoBytesPerJob: 1e9, encodeConcurrency: 2, env: {} }), silentLogger);
  try {
    expect(registry.start(job)).toBe(true);
    const workDir = path.join(workRoot, job.job_id);
    await expect.poll(() => busy(events), { timeout: 90_000, interval: 50 }).toBe(true);
    expect(existsSync(workDir)).toBe(true);

    expect(await registry.cancel(job.job_id)).toBe(true);
    // When cancel returns, the job's processes are gone and so is its disk.
    expect(children()).toEqual([]);
    expect(existsSync(workDir)).toBe(false);
    expect(readdirSync(workRoot)).toEqual([]);
    expect(registry.status(job.job_id)).toBe("cancelled");
    const sent = events.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(events.length).toBe(sent);
    expect(events.map((e) => e.type)).not.toContain("failed");
    expect(events.map((e) => e.type)).not.toContain("completed");
  } finally {
    await registry.shutdown();
    await callbacks.close();
  }
}

describe("cancelling a real job on the renderer service", () => {
  it("mid-encode: kills its FFmpeg processes, deletes its work folder and reports nothing more", async () => {
    await cancelWhen("job_cancel_encode", (events) => events.some((e) => e.stage === "rendering_shorts") && children().some((c) => c.name === "ffmpeg"));
  }, 180_000);

  it("while captions are made beside the video download: stops the recogniser too before the folder goes", async () => {
    await cancelWhen("job_cancel_captions", () => children().some((c) => c.name.startsWith("pocketsphinx")));
  }, 180_000);
});
