import type { JobPlan, RenderTaskRequest, RenderTaskSpec, TaskResult } from "../../../common/contract/job-plan";
import { JobError } from "./job-error";
import { runClipGroupTask } from "./tasks/clip-group-task";
import { runReelJoinTask } from "./tasks/reel-join-task";
import { runReelMomentTask } from "./tasks/reel-moment-task";
import { runShortTask } from "./tasks/short-task";
import type { RenderTaskSettings } from "./tasks/task-source";
import type { TaskContext } from "./types";

export type { RenderTaskSettings } from "./tasks/task-source";

/**
 * The render task a request names, from its plan; null when the plan does not hold a task of that id and kind
 * (the service answers 422 before starting anything).
 */
export function renderTaskSpec(req: Pick<RenderTaskRequest, "task" | "plan">): RenderTaskSpec | null {
  const spec = req.plan?.tasks.find((t) => t.id === req.task.id);
  return spec && spec.kind === req.task.kind ? spec : null;
}

/**
 * One render task of a job (docs/TASK-MODEL.md): a reel moment's pieces, a reel's join, a short, or a group
 * of reel moments and shorts that share a stretch of the VOD. Each
 * resolves the VOD again and downloads only the segments of its own range, so tasks of one job can run on
 * different machines at once.
 */
export async function runRenderTask(req: RenderTaskRequest, ctx: TaskContext, config: RenderTaskSettings): Promise<TaskResult> {
  const spec = renderTaskSpec(req);
  if (!spec) throw new JobError("render_failed", `The job plan has no ${req.task.kind} task "${req.task.id}".`);
  const run = { req, plan: req.plan as JobPlan, ctx, config };
  ctx.log.info("render task started", { task: spec.id, kind: spec.kind, attempt: req.task.attempt });
  switch (spec.kind) {
    case "reel_moment":
      return runReelMomentTask(run, spec);
    case "reel_join":
      return runReelJoinTask(run, spec);
    case "short":
      return runShortTask(run, spec);
    case "clip_group":
      return runClipGroupTask(run, spec);
  }
}
