import type { RenderTaskRequest, TaskResult } from "../../../common/contract/job-plan";
import type { RendererConfig } from "../config";
import { runAnalysisTask } from "./analyse-task";
import { ANALYSIS_END_PERCENT } from "./progress";
import { runRenderTask } from "./render-task";
import type { TaskContext } from "./types";

export type TaskSettings = Pick<RendererConfig, "downloadConcurrency" | "maxVideoBytesPerJob" | "encodeConcurrency" | "env">;

/**
 * Runs one task of a job: the analysis (resolve, audio and chat, selection, facecam, texts -> the JobPlan) or one
 * render task of its plan. The two are entry points over the same stages.
 */
export async function runTask(req: RenderTaskRequest, ctx: TaskContext, config: TaskSettings): Promise<TaskResult> {
  if (req.task.kind === "analyse") {
    // The analysis' stages report on their own bar, which ends at ANALYSIS_END_PERCENT: as a task, that is all of it.
    const reporter = { progress: (stage: Parameters<TaskContext["progress"]>[0], percent: number) => ctx.progress(stage, Math.min(1, percent / ANALYSIS_END_PERCENT)) };
    const plan = await runAnalysisTask(req, { ...ctx, reporter }, config, ctx.analysisStats);
    ctx.progress("writing_metadata", 1);
    return { kind: "analyse", plan };
  }
  return runRenderTask(req, ctx, config);
}
