import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { ClipGroupTask, ClipResult, ClipTask, TaskResult } from "../../../../common/contract/job-plan";
import type { RenderStage } from "../../../../common/contract/render";
import { mapLimit } from "../../render/pool";
import { TaskProgress } from "../task-progress";
import { runReelMomentTask } from "./reel-moment-task";
import { runShortTask } from "./short-task";
import { clipRanges, downloadTaskVideo, taskVideo, type RenderTaskRun, type TaskVideo } from "./task-source";

/** Share of the group's bar its one download takes; the members' own work shares the rest by encode seconds. */
const DOWNLOAD_SHARE = 0.15;

/**
 * Clip tasks that share a stretch of the VOD: the union of their ranges is downloaded once (the covering
 * segments of overlapping ranges are fetched once), its scene cuts found once, then each member runs as it would
 * alone, `encodeConcurrency` at a time, each in its own work folder. One member failing fails the group (it is
 * retried whole: parts and files already stored are simply written again).
 */
export async function runClipGroupTask(run: RenderTaskRun, task: ClipGroupTask): Promise<Extract<TaskResult, { kind: "clip_group" }>> {
  const { ctx } = run;
  const bar = new GroupProgress(task.members, ctx.progress);
  const fetching = new TaskProgress({ resolving: { stage: "resolving", from: 0, to: 0.1 * DOWNLOAD_SHARE }, downloading: { stage: "downloading_video", from: 0.1 * DOWNLOAD_SHARE, to: DOWNLOAD_SHARE } }, ctx.progress);
  const clips = await downloadTaskVideo(run, task.members.flatMap(clipRanges), (step, f) => fetching.report(step, f));
  const video = taskVideo(clips, ctx.signal);
  const results = await mapLimit(
    task.members,
    run.config.encodeConcurrency,
    async (member, i, signal): Promise<ClipResult> => {
      const workDir = path.join(ctx.workDir, member.id);
      await mkdir(workDir, { recursive: true });
      const memberRun: RenderTaskRun = { ...run, ctx: { ...ctx, signal, workDir, log: ctx.log.child({ member: member.id }), progress: (stage, f) => bar.report(i, stage, f) } };
      return runMember(memberRun, member, video);
    },
    ctx.signal,
  );
  return { kind: "clip_group", results };
}

function runMember(run: RenderTaskRun, member: ClipTask, video: TaskVideo): Promise<ClipResult> {
  switch (member.kind) {
    case "reel_moment":
      return runReelMomentTask(run, member, video);
    case "short":
      return runShortTask(run, member, video);
  }
}

/** The group's bar: after the download, each member's own fraction weighted by the seconds it encodes. */
class GroupProgress {
  private readonly weights: number[];
  private readonly done: number[];
  private readonly total: number;
  private last = 0;

  constructor(members: readonly ClipTask[], private readonly sink: (stage: RenderStage, fraction: number) => void) {
    this.weights = members.map((m) => Math.max(0.5, m.expected_encode_seconds));
    this.done = members.map(() => 0);
    this.total = this.weights.reduce((a, b) => a + b, 0);
  }

  report(member: number, stage: RenderStage, fraction: number): void {
    this.done[member] = Math.max(this.done[member]!, fraction);
    const share = this.done.reduce((s, f, i) => s + f * this.weights[i]!, 0) / this.total;
    const f = DOWNLOAD_SHARE + (1 - DOWNLOAD_SHARE) * share;
    if (f < this.last) return;
    this.last = f;
    this.sink(stage, f);
  }
}
