import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RenderTaskRequest } from "../../../common/contract/job-plan";
import { generateSyntheticVod, synthCacheRoot, type SyntheticVodTruth } from "../../../dev/synth-vod";
import { startTwitchServer, type TwitchServer } from "../../../dev/twitch-server";
import { localRenderJob } from "../../../dev/render-cli/local-job";
import { silentLogger } from "../../../render-container/src/log";
import { LocalDirUploader } from "../../../render-container/src/output/uploader";
import { runAnalysisTask, type AnalysisStats } from "../../../render-container/src/pipeline/analyse-task";
import { FACECAM_SAMPLE } from "../../../render-container/src/pipeline/stages/decide-facecam";

/**
 * A short VOD whose scenes stay still for long stretches (the synthetic gameplay changes only at its scene cuts):
 * the segments around its two moments hold too few distinct keyframes to tell an overlay from the gameplay, so
 * the analysis looks again across the whole VOD. Its facecam (top-left, 160x120 at 10,10 of 640x360) reaches
 * below the default region's quarter, so the default would cut the face off in every split short.
 */
const VOD_ID = "900000561";
let twitch: TwitchServer;
let truth: SyntheticVodTruth;
const scratch: string[] = [];

beforeAll(async () => {
  const root = path.join(synthCacheRoot(), "decide-facecam-vods");
  ({ truth } = await generateSyntheticVod({ root, vodId: VOD_ID, durationSeconds: 150, seed: 5, width: 640, height: 360, moments: [{ kind: "hype", peak: 60 }, { kind: "hype", peak: 115 }] }));
  twitch = await startTwitchServer({ root });
}, 600_000);
afterAll(async () => {
  await twitch?.close();
  await Promise.all(scratch.map((d) => rm(d, { recursive: true, force: true })));
});

describe("the facecam of split shorts on a VOD of still scenes", () => {
  it("is found by looking across the VOD when the moments' segments show too few distinct keyframes", async () => {
    const job = await localRenderJob(
      { vod_url: `https://www.twitch.tv/videos/${VOD_ID}`, num_shorts: 2, final_video_length_minutes: 1, parameters: { max_highlight_duration: 25, shorts_crop_mode: "split" } },
      { twitch, jobId: "job_facecam" },
    );
    const req = RenderTaskRequest.parse({ ...job, task: { id: "analyse", kind: "analyse", attempt: 1 }, plan: null });
    const work = await mkdtemp(path.join(os.tmpdir(), "facecam-work-"));
    const out = await mkdtemp(path.join(os.tmpdir(), "facecam-out-"));
    scratch.push(work, out);
    const stats: AnalysisStats = { bytesDownloaded: { audio: 0, video: 0, facecam: 0 }, stageSeconds: {}, facecamSample: null };
    const ctx = { signal: new AbortController().signal, workDir: work, reporter: { progress: () => {} }, uploader: new LocalDirUploader(out), log: silentLogger, fetchImpl: fetch };
    const plan = await runAnalysisTask(req, ctx, { downloadConcurrency: 4, env: {} }, stats);

    const cam = truth.facecam;
    expect(plan.facecam, JSON.stringify(plan.facecam)).toMatchObject({ found: "detected" });
    expect(plan.facecam!.x).toBeCloseTo(cam.x / truth.video.width, 1);
    expect(plan.facecam!.y).toBeCloseTo(cam.y / truth.video.height, 1);
    expect(plan.facecam!.y + plan.facecam!.h).toBeCloseTo((cam.y + cam.height) / truth.video.height, 1);
    // A first look around the moments, then a second as large across the rest of the VOD.
    expect(stats.facecamSample!.segments).toBeGreaterThan(FACECAM_SAMPLE.segments);
    expect(stats.facecamSample!.segments).toBeLessThanOrEqual(2 * FACECAM_SAMPLE.segments);
  }, 600_000);
});
