import path from "node:path";
import { reelPartName, type ReelMomentTask, type ReelPart, type TaskResult } from "../../../../common/contract/job-plan";
import { TWITCH_EMOTE_CDN } from "../../chat-overlay/emotes";
import { renderReelPiece } from "../../render";
import { mapLimit } from "../../render/pool";
import { refineMoments } from "../../selection";
import type { Moment } from "../../selection/types";
import { clipFor } from "./clips";
import { TaskProgress } from "../task-progress";
import { clipRanges, downloadTaskVideo, planMoment, taskVideo, type RenderTaskRun, type TaskVideo } from "./task-source";

/**
 * One moment of a reel: snaps its edges to scene cuts inside the task's snap window (the rules of refineMoments),
 * encodes the moment's piece and the teaser snippets cut from it, and uploads each as a reel part for the join.
 */
export async function runReelMomentTask(run: RenderTaskRun, task: ReelMomentTask, shared?: TaskVideo): Promise<Extract<TaskResult, { kind: "reel_moment" }>> {
  const { ctx, plan } = run;
  const progress = new TaskProgress(
    {
      resolving: { stage: "resolving", from: 0, to: 0.02 },
      downloading: { stage: "downloading_video", from: 0.02, to: 0.2 },
      snapping: { stage: "rendering_reels", from: 0.2, to: 0.25 },
      encoding: { stage: "rendering_reels", from: 0.25, to: 0.95 },
      uploading: { stage: "uploading", from: 0.95, to: 1 },
    },
    ctx.progress,
  );
  // In a group the video is already here (shared with the group's other members); alone, the task fetches its own.
  const video = shared ?? taskVideo(await downloadTaskVideo(run, clipRanges(task), (step, f) => progress.report(step, f)), ctx.signal);
  progress.report("downloading", 1);
  const clips = video.clips;

  progress.report("snapping", 0);
  const snapped = task.snap ? await snapMoment(run, task, video) : { start: task.start, end: task.end };
  progress.report("snapping", 1);
  if (snapped.start !== task.start || snapped.end !== task.end) ctx.log.info("moment snapped to scene cuts", { moment: task.moment_id, from: [task.start, task.end], to: [snapped.start, snapped.end] });

  const pieces = [
    ...task.teasers.map((t) => ({ position: t.position, start: t.start, end: t.end, titleText: null, chat: false })),
    // Chat over the moment itself; the teaser's quick cuts carry none (a second of chat per snippet reads as noise).
    { position: task.position, start: snapped.start, end: snapped.end, titleText: task.title_text, chat: true },
  ];
  const seconds = pieces.map((p) => p.end - p.start);
  const total = seconds.reduce((a, b) => a + b, 0) || 1;
  const done = pieces.map(() => 0);
  const outDir = path.join(ctx.workDir, "out");
  const parts = await mapLimit(
    pieces,
    run.config.encodeConcurrency,
    async (piece, i, signal): Promise<ReelPart> => {
      const name = reelPartName(task.run_name, piece.position);
      const video = await renderReelPiece({
        clip: clipFor(clips, piece.start, piece.end),
        start: piece.start,
        end: piece.end,
        titleText: piece.titleText,
        // The reel opens on a picture, not a frame faded to black.
        fadeIn: piece.position !== 0,
        chat: piece.chat && task.chat && run.req.request.parameters.reel_chat_overlay
          ? {
              lines: task.chat,
              style: run.req.request.parameters.chat_overlay === "bubbles" ? "bubbles" : "panel",
              emoteBase: run.config.emoteBaseUrl ?? run.config.env.TWITCH_EMOTE_URL ?? TWITCH_EMOTE_CDN,
              fetch: ctx.fetchImpl,
              warn: (message) => ctx.log.warn("chat overlay", { message, moment: task.moment_id }),
            }
          : null,
        // Chat keeps off the facecam the analysis found (or FACECAM_REGION); the default region is a guess.
        facecam: plan.facecam && plan.facecam.found !== "default" ? plan.facecam : null,
        out: path.join(outDir, name),
        signal,
        onProgress: (f) => {
          done[i] = f * seconds[i]!;
          progress.report("encoding", done.reduce((a, b) => a + b, 0) / total);
        },
      });
      // Uploaded as soon as it exists, beside the other piece's encode.
      const { size_bytes } = await ctx.uploader.put(name, video.path, "video/mp4", signal);
      return { position: piece.position, name, size_bytes, duration_seconds: video.duration_seconds };
    },
    ctx.signal,
  );
  progress.report("uploading", 1);
  return { kind: "reel_moment", parts: parts.sort((a, b) => a.position - b.position), moment: { id: task.moment_id, start: snapped.start, end: snapped.end } };
}

/**
 * The moment's edges on the scene cuts found on its own video: today's refineMoments rules for one moment, its
 * coverage being what was downloaded inside the snap window (which keeps it clear of its reel's neighbours).
 */
async function snapMoment(run: RenderTaskRun, task: ReelMomentTask, video: TaskVideo): Promise<{ start: number; end: number }> {
  const snap = task.snap!;
  const m = planMoment(run.plan, task.moment_id);
  // With the moment's pauses, a scene cut inside speech is not taken (refineBoundaries).
  const moment: Moment = { start: task.start, end: task.end, peak: m.peak, score: m.score, profile: m.profile, source: m.source, label: m.label, signals: m.signals, ...(m.pauses ? { pauses: m.pauses } : {}) };
  const cuts = await video.sceneCuts();
  const clip = clipFor(video.clips, task.start, task.end);
  const coverage = { start: Math.max(clip.media_start_seconds, snap.min_start), end: Math.min(clip.media_end_seconds, snap.max_end) };
  const limits = { minDuration: snap.min_duration, maxDuration: snap.max_duration, durationSeconds: run.plan.source.duration_seconds };
  const [refined] = refineMoments([moment], cuts, limits, () => coverage);
  return { start: refined!.start, end: refined!.end };
}
