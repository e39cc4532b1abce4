import type { RenderTaskRequest } from "../../../common/contract/job-plan";
import { handedOffTask } from "../../../common/plan/task-handoff";

/**
 * Which tasks run on the re-cut Container class (RECUT_CONTAINER, `standard-4`; docs/DEPLOY.md "Containers and
 * capacity"), a class of its own because Cloudflare gives each Container class one instance type: the analysis
 * task of a job that reuses a stored analysis (it reads the stored analysis and hears at most a short's worth of
 * audio: seconds of work, where the whole job waits on it), and a re-cut's one short when it goes through the queue
 * instead of being handed to that analysis' instance (common/plan/task-handoff.ts; handed over, it runs there
 * anyway). Everything else — every full analysis, every job of several outputs' render tasks — stays on the
 * general class, so the small class's few instances are there for the jobs a client waits on in seconds.
 */
export function runsOnRecutClass(request: Pick<RenderTaskRequest, "task" | "reuse" | "plan">): boolean {
  if (request.task.kind === "analyse") return Boolean(request.reuse);
  return request.plan !== null && request.plan !== undefined && handedOffTask(request.plan)?.id === request.task.id;
}
