import type { RenderTaskRequest, TaskResult } from "../../../common/contract/job-plan";
import type { RendererConfig } from "../config";
import { JobError } from "./job-error";
import { runRenderTask } from "./render-task";
import type { TaskContext } from "./types";

/**
 * Runs one task of a job: the analysis (resolve, audio and chat, selection, facecam, texts -> the JobPlan) or one
 * render task of its plan. The two are entry points over the same stages.
 */
export async function runTask(req: RenderTaskRequest, ctx: TaskContext, config: Pick<RendererConfig, "downloadConcurrency" | "maxVideoBytesPerJob" | "encodeConcurrency" | "env">): Promise<TaskResult> {
  if (req.task.kind === "analyse") {
    // The analysis entry point (pipeline/analyse-task.ts) is wired here once it is on main.
    throw new JobError("render_failed", "This renderer build cannot run analysis tasks yet.");
  }
  return runRenderTask(req, ctx, config);
}
