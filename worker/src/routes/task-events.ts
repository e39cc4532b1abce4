import { parseJsonBody } from "../lib/json-body";
import { Hono } from "hono";
import { TaskEvent, type TaskEventAnswer } from "../../../common/contract/job-plan";
import type { AppEnv } from "../hono-env";
import { limitBody } from "../middleware/body-limit";
import { ApiError, jobNotFound, validationError } from "../lib/api-error";
import { filesOf, missingArtifacts } from "../orchestration/finalise";
import { rendererAuth } from "../orchestration/renderer-auth";
import type { TaskEventOutcome } from "../orchestration/task-reports";

/**
 * Renderer -> Worker: reports about one task of a job (common/contract/job-plan.ts). Not part of the public API;
 * every call carries the job's renderer token. 409 tells the renderer to stop the task: the job is settled or
 * this attempt was superseded (retried elsewhere). The 200 answer to an analysis' completion may carry the job's
 * next task for the same instance (`next_task`, task contract 3).
 */
export const taskEventRoutes = new Hono<AppEnv>();

/** The analysis task's result carries the job plan: a few hundred KiB for a long VOD; 4 MiB leaves room. */
const MAX_TASK_EVENT_BYTES = 4 * 1024 * 1024;

taskEventRoutes.post(
  "/jobs/:id/tasks/:task/events",
  rendererAuth,
  limitBody(MAX_TASK_EVENT_BYTES, () => {
    throw new ApiError(413, "payload_too_large", `A task event must be at most ${MAX_TASK_EVENT_BYTES} bytes.`);
  }),
  async (c) => {
    const jobId = c.req.param("id");
    const taskId = c.req.param("task");
    let event = await parseJsonBody(c, TaskEvent, "task event");
    if (event.type === "completed" && event.result.kind === "analyse" && event.result.plan.job_id !== jobId) {
      throw validationError([{ field: "result.plan.job_id", message: `must be this job's id (${jobId})` }]);
    }

    if (event.type === "completed") {
      // What the client downloads must be what was reported: a result naming absent files is a failed attempt.
      const missing = await missingArtifacts(c.env.ARTIFACTS, jobId, filesOf(event.result));
      if (missing.length > 0) {
        event = {
          type: "failed",
          attempt: event.attempt,
          seq: event.seq,
          retryable: true,
          error: { code: "artifacts_missing", message: `${missing.length} output file(s) were not stored (${missing.slice(0, 5).join(", ")})` },
        };
      }
    }

    const stub = c.env.JOB_STATE.get(c.env.JOB_STATE.idFromName(jobId));
    // RPC results carry Disposable (and a plan's open records); the plain union narrows.
    const outcome = (await stub.taskEvent(taskId, event)) as TaskEventOutcome;
    switch (outcome.outcome) {
      case "not_found":
        throw jobNotFound();
      case "terminal":
        throw new ApiError(409, "job_settled", `The job is already ${outcome.state.status}; stop the task.`, { status: outcome.state.status });
      case "stale":
        throw new ApiError(409, "task_superseded", `Attempt ${event.attempt} of task ${taskId} is no longer current; stop it.`, { status: outcome.state.status });
      case "duplicate": {
        // A repeated completion whose first answer (with the handed-over task) was lost gets that task again.
        const answer: TaskEventAnswer = { accepted: false, reason: "duplicate", status: outcome.state.status, progress: outcome.state.progress, ...(outcome.next_task ? { next_task: outcome.next_task } : {}) };
        return c.json(answer, 200);
      }
      case "applied": {
        // A re-cut's one short handed to the instance that ran the analysis (orchestration/task-handoff.ts): its renderer runs it next.
        const answer: TaskEventAnswer = { accepted: true, status: outcome.state.status, progress: outcome.state.progress, ...(outcome.next_task ? { next_task: outcome.next_task } : {}) };
        return c.json(answer, 200);
      }
    }
  },
);
