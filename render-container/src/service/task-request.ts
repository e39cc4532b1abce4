import { RenderTaskRequest } from "../../../common/contract/job-plan";
import { CONTRACT_UNSUPPORTED_CODE, CONTRACT_UNSUPPORTED_STATUS, contractOf } from "../../../common/contract/task-contract";
import { renderTaskSpec } from "../pipeline/render-task";

/**
 * Whether a task request body can be run here: the one check for both ways a task arrives, POST /tasks
 * (http-server.ts) and a task handed over in the Worker's answer to a `completed` event (task-registry.ts). The
 * contract version first (a version this renderer does not speak is the distinct, retryable 409
 * contract_unsupported, before the body is read as a task), then the schema, then the plan holding the task.
 */
export type TaskRequestCheck =
  | { ok: true; request: RenderTaskRequest }
  | { ok: false; status: number; code: string; message: string; extra: Record<string, unknown> };

export function checkTaskRequest(body: unknown, contracts: readonly number[]): TaskRequestCheck {
  const contract = contractOf(body);
  if (!contracts.includes(contract as number)) {
    return { ok: false, status: CONTRACT_UNSUPPORTED_STATUS, code: CONTRACT_UNSUPPORTED_CODE, message: `This renderer speaks task contract version ${contracts.join(", ")}, not ${String(contract)}.`, extra: { accepted: contracts } };
  }
  const parsed = RenderTaskRequest.safeParse(body);
  const detail = parsed.success ? taskIssues(parsed.data) : parsed.error.issues.map((i) => ({ field: i.path.join("."), message: i.message }));
  if (!parsed.success || detail.length > 0) return { ok: false, status: 422, code: "invalid_task", message: "The task request is malformed.", extra: { detail } };
  return { ok: true, request: parsed.data };
}

/** Issues a well-formed task request can still have: its plan must hold the task it names. */
function taskIssues(req: RenderTaskRequest): { field: string; message: string }[] {
  if (req.task.kind === "analyse") return req.plan === null ? [] : [{ field: "plan", message: "An analysis task has no plan yet: send null." }];
  if (req.plan === null) return [{ field: "plan", message: `A ${req.task.kind} task needs the job plan.` }];
  if (req.plan.job_id !== req.job_id) return [{ field: "plan.job_id", message: `The plan belongs to job ${req.plan.job_id}, not ${req.job_id}.` }];
  if (!renderTaskSpec(req)) return [{ field: "task.id", message: `The plan has no ${req.task.kind} task "${req.task.id}".` }];
  return [];
}
