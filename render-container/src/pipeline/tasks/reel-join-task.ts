import path from "node:path";
import { reelPartName, type ReelJoinTask, type TaskResult } from "../../../../common/contract/job-plan";
import type { ArtifactRef } from "../../../../common/contract/render";
import { joinReelPieces, makeThumbnail } from "../../render";
import { mapLimit } from "../../render/pool";
import { artifactNames } from "../../../../common/plan/artifact-names";
import { TaskProgress } from "../task-progress";
import type { RenderTaskRun } from "./task-source";

/** Parts fetched at once: small requests to storage, the join waits for all of them. */
const PART_FETCH_CONCURRENCY = 4;

/**
 * Joins a reel's parts (made by its reel_moment tasks) by stream copy, makes the reel's thumbnail and uploads
 * both as the reel's deliverables.
 */
export async function runReelJoinTask(run: RenderTaskRun, task: ReelJoinTask): Promise<Extract<TaskResult, { kind: "reel_join" }>> {
  const { ctx } = run;
  const progress = new TaskProgress(
    {
      fetching: { stage: "downloading_video", from: 0, to: 0.4 },
      joining: { stage: "rendering_reels", from: 0.4, to: 0.7 },
      uploading: { stage: "uploading", from: 0.7, to: 1 },
    },
    ctx.progress,
  );
  const partsDir = path.join(ctx.workDir, "parts");
  const outDir = path.join(ctx.workDir, "out");
  let fetched = 0;
  progress.report("fetching", 0);
  const files = await mapLimit(
    Array.from({ length: task.pieces }, (_, position) => reelPartName(task.run_name, position)),
    PART_FETCH_CONCURRENCY,
    async (name, _i, signal) => {
      const file = path.join(partsDir, name);
      await ctx.uploader.fetchTo(name, file, signal);
      progress.report("fetching", ++fetched / task.pieces);
      return file;
    },
    ctx.signal,
  );

  const name = artifactNames.reel(task.run_name);
  const video = await joinReelPieces({ pieces: files, out: path.join(outDir, name), signal: ctx.signal });
  progress.report("joining", 0.5);
  const thumbName = artifactNames.reelThumbnail(task.run_name);
  const thumb = await makeThumbnail(video.path, task.thumbnail_at, path.join(outDir, thumbName), { signal: ctx.signal });
  progress.report("joining", 1);

  const common = { run_name: task.run_name, index: null, title: task.title } as const;
  const reel: ArtifactRef = { ...common, name, kind: "reel", content_type: "video/mp4", duration_seconds: video.duration_seconds, tags: task.tags, size_bytes: (await ctx.uploader.put(name, video.path, "video/mp4", ctx.signal)).size_bytes };
  progress.report("uploading", 0.9);
  const thumbnail: ArtifactRef = { ...common, name: thumbName, kind: "thumbnail", content_type: "image/jpeg", duration_seconds: null, tags: null, size_bytes: (await ctx.uploader.put(thumbName, thumb.path, "image/jpeg", ctx.signal)).size_bytes };
  progress.report("uploading", 1);
  ctx.log.info("reel joined", { run: task.run_name, pieces: task.pieces, duration_seconds: video.duration_seconds });
  return { kind: "reel_join", artifacts: [reel, thumbnail] };
}
