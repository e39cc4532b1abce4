import { beforeAll, describe, expect, it } from "vitest";
import type { ReelMomentTask } from "../../../common/contract/job-plan";
import type { RenderJob } from "../../../common/contract/render";
import { localRenderJob } from "../../../dev/render-cli/local-job";
import { generateSyntheticVod, type SyntheticVodTruth } from "../../../dev/synth-vod";
import { runRenderTask } from "../../../render-container/src/pipeline/render-task";
import { refineShort } from "../../../render-container/src/pipeline/tasks/clips";
import { SMALL_VOD } from "../../dev/fixture-vods";
import { serveVodForTests } from "../../support/twitch-fixture";
import { handMadePlan, planMoment, taskContext, taskRequest, tempDir } from "./task-fixtures";

/**
 * Render tasks snap a moment's edges to scene cuts they find on their own video; the plan's moment carries the
 * pauses between sentences the analysis heard, so a cut inside speech is not taken there either.
 */
const twitchServer = serveVodForTests(SMALL_VOD);
const SETTINGS = { downloadConcurrency: 4, maxVideoBytesPerJob: 1e9, encodeConcurrency: 2, env: {} };
let truth: SyntheticVodTruth;
let job: RenderJob;

beforeAll(async () => {
  ({ truth } = await generateSyntheticVod(SMALL_VOD));
  job = await localRenderJob({ vod_url: `https://www.twitch.tv/videos/${SMALL_VOD.vodId}` }, { twitch: twitchServer(), jobId: "job_snap_speech" });
});

const task: ReelMomentTask = {
  kind: "reel_moment", id: "reel-balanced-m1", run_name: "balanced", moment_id: "m1", position: 0, start: 31.5, end: 45,
  snap: { min_start: 20, max_end: 60, min_duration: 10, max_duration: 30 }, title_text: null, teasers: [], expected_encode_seconds: 13.5,
};

describe("a reel_moment task with the moment's pauses", () => {
  it("does not move its start to a scene cut that falls inside speech (without the pauses it would)", async () => {
    expect(truth.scene_cuts).toEqual([30]);
    // The analysis heard talk across 30 s: the pauses around the moment are elsewhere (its end lies in one).
    const pauses = [{ start: 24, end: 25.2 }, { start: 36.1, end: 36.8 }, { start: 44.2, end: 46 }];
    const store = await tempDir("task-store-");
    const plan = handMadePlan("job_snap_speech", SMALL_VOD.durationSeconds, [planMoment("m1", 31.5, 45, 38, { pauses })], [task]);
    const run = await taskContext(store);
    const result = await runRenderTask(taskRequest(job, plan, task.id), run.ctx, SETTINGS);
    if (result.kind !== "reel_moment") throw new Error(result.kind);
    expect(result.moment).toEqual({ id: "m1", start: 31.5, end: 45 });
    expect(result.parts[0]!.duration_seconds).toBeCloseTo(13.5, 1);
    // The same cut in a pause is taken (render-task.test.ts: no pauses at all snaps to it as before).
    const quiet = [{ start: 29.4, end: 30.6 }, ...pauses];
    const plan2 = handMadePlan("job_snap_speech", SMALL_VOD.durationSeconds, [planMoment("m1", 31.5, 45, 38, { pauses: quiet })], [task]);
    const run2 = await taskContext(await tempDir("task-store-"));
    const snapped = await runRenderTask(taskRequest(job, plan2, task.id), run2.ctx, SETTINGS);
    if (snapped.kind !== "reel_moment") throw new Error(snapped.kind);
    expect(snapped.moment.start).toBeCloseTo(30, 1);
  }, 300_000);
});

describe("a short's nudge to a scene cut", () => {
  const clip = { media_start_seconds: 0, media_end_seconds: 100 };
  const short = { start: 29, end: 49, peak: 38 };

  it("is taken when the pauses are unknown or both moved ends lie in pauses", () => {
    expect(refineShort(short, [30], clip)).toEqual({ start: 30, end: 50, peak: 38 });
    expect(refineShort(short, [30], clip, [{ start: 29.5, end: 30.5 }, { start: 49.6, end: 51 }])).toEqual({ start: 30, end: 50, peak: 38 });
  });

  it("is not taken when the cut, or the end it drags along, lies inside speech", () => {
    // The cut is in a sentence.
    expect(refineShort(short, [30], clip, [{ start: 28.5, end: 29.2 }, { start: 48.5, end: 50.5 }])).toEqual(short);
    // The cut is in a pause but the end would move into a sentence.
    expect(refineShort(short, [30], clip, [{ start: 29.5, end: 30.5 }, { start: 48.5, end: 49.2 }])).toEqual(short);
  });
});
