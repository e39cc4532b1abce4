import type { JobPlan, ShortTask } from "../contract/job-plan";

/**
 * A re-cut's one short runs on its analysis task's instance (docs/TASK-MODEL.md, "A re-cut in one container"):
 * the Worker answers the analysis' `completed` event with the short's task request instead of queueing it, and
 * the renderer that ran the analysis runs it next, so the job pays for one container start instead of two. Only
 * for a plan built from a reused analysis whose one output is one short (no reel, no other task): there the
 * analysis task is short (it read a stored analysis) and the short is the whole rest of the job, so nothing runs
 * side by side that the hand-off would serialise. A job of several outputs keeps its tasks on instances of their
 * own, side by side. The Worker (worker/src/orchestration/task-handoff.ts) and the in-process job runner
 * (dev/job-runner/run-job.ts) decide with this one rule.
 */
export function handedOffTask(plan: JobPlan): ShortTask | null {
  if (!plan.analysis?.reused_from) return null;
  if (plan.reels.length > 0 || plan.shorts.length !== 1 || plan.tasks.length !== 1) return null;
  const only = plan.tasks[0]!;
  return only.kind === "short" ? only : null;
}
