import { parseJsonBody } from "../lib/json-body";
import { Hono } from "hono";
import { TaskEvent, type TaskEventAnswer } from "../../../common/contract/job-plan";
import type { AppEnv } from "../hono-env";
import { limitBody } from "../middleware/body-limit";
import { ApiError, jobNotFound, validationError } from "../lib/api-error";
import { filesOf, missingArtifacts } from "../orchestration/finalise";
import { callerOf, rendererEventAuth, TASK_ATTEMPT_PREFIX } from "../orchestration/renderer-auth";
import type { TaskEventOutcome } from "../orchestration/task-reports";

/**
 * Renderer -> Worker: reports about one task of a job (common/contract/job-plan.ts). Not part of the public API.
 *
 *   POST /internal/jobs/{id}/tasks/{task}/attempts/{attempt}/events   that attempt's token (its callback): it
 *        reports for itself only, so a task whose renderer was subverted by the media it parses cannot report
 *        progress, a result or a failure for another task of its job, nor for another attempt of its own
 *   POST /internal/jobs/{id}/tasks/{task}/events                      the job's token, for attempts claimed by
 *        the previous Worker version only (orchestration/task-call-scope.ts); remove with the next release
 *
 * 409 tells the renderer to stop the task: the job is settled or this attempt was superseded (retried elsewhere).
 * The 200 answer to an analysis' completion may carry the job's next task for the same instance (`next_task`,
 * task contract 3).
 */
export const taskEventRoutes = new Hono<AppEnv>();

/** The analysis task's result carries the job plan: a few hundred KiB for a long VOD; 4 MiB leaves room. */
const MAX_TASK_EVENT_BYTES = 4 * 1024 * 1024;

taskEventRoutes.on(
  "POST",
  [`${TASK_ATTEMPT_PREFIX}/events`, "/jobs/:id/tasks/:task/events"],
  rendererEventAuth,
  limitBody(MAX_TASK_EVENT_BYTES, () => {
    throw new ApiError(413, "payload_too_large", `A task event must be at most ${MAX_TASK_EVENT_BYTES} bytes.`);
  }),
  async (c) => {
    const jobId = c.req.param("id")!;
    const taskId = c.req.param("task")!;
    const caller = callerOf(c);
    let event = await parseJsonBody(c, TaskEvent, "task event");
    if (!("legacy" in caller) && event.attempt !== caller.attempt) {
      throw new ApiError(403, "outside_task_scope", `This token reports for attempt ${caller.attempt} of task ${taskId} only; the event says attempt ${event.attempt}.`, { task_id: taskId, attempt: caller.attempt });
    }
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
    const outcome = (await stub.taskEvent(taskId, event, caller)) as TaskEventOutcome;
    switch (outcome.outcome) {
      case "not_found":
        throw jobNotFound();
      case "task_not_found":
        throw new ApiError(404, "task_not_found", `This job has no task ${taskId}.`);
      case "outside_scope":
        throw new ApiError(403, "outside_task_scope", `Task ${taskId} reports on its own URL and token (given in its callback), not with the job's token.`, { task_id: taskId });
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
