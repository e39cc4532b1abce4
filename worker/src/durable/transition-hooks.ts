import type { JobStatus } from "../../../common/contract";
import type { JobLifecycle } from "../orchestration/job-lifecycle";
import type { Env } from "../env";
import { enqueueWebhooks } from "../webhooks/enqueue-hook";

/** A status change of one job, after it is stored in the object and mirrored into D1. */
export interface JobTransition {
  job_id: string;
  account_id: string;
  from: JobStatus;
  to: JobStatus;
  /** Why: the call that caused it. */
  cause: "started" | "progress" | "completed" | "failed" | "cancelled";
  /** Credits returned by this transition (0 unless it is a failure or a cancel). */
  refund_credits: number;
  state: JobLifecycle;
}

export interface TransitionContext {
  env: Env;
  /** The JobState object's own state: its storage (SQLite) and alarm, for durable follow-up work. */
  ctx: DurableObjectState;
}

export type TransitionHook = (transition: JobTransition, context: TransitionContext) => Promise<void> | void;

/**
 * Follow-up work on status changes (webhook deliveries, stopping the renderer on cancel) registers here. Hooks
 * run in order after the change is durable; a hook that throws is logged and does not undo the change or stop
 * the others, so anything that must not be lost has to be made durable by the hook itself (outbox + alarm).
 */
export const transitionHooks: TransitionHook[] = [enqueueWebhooks];
