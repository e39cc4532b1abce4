import type { Env } from "../env";
import { openDb } from "../storage/db";
import { findJobById } from "../storage/jobs";
import { buildRenderJob, dispatchSettings } from "./render-job";
import { cancelRender, startRender } from "./renderer-client";

export type DispatchOutcome =
  | { outcome: "started"; accepted: boolean }
  /** Redelivered message, job cancelled while queued, or a job that no longer exists: nothing to start. */
  | { outcome: "skipped"; reason: string }
  /** The job was settled (e.g. cancelled) while the renderer was being started: it has been told to stop. */
  | { outcome: "stopped"; reason: string };

const jobState = (env: Env, jobId: string) => env.JOB_STATE.get(env.JOB_STATE.idFromName(jobId));

/**
 * Hands one queued job to the renderer, then marks it running (pending -> running, job.running webhook).
 * Throws RendererUnavailableError when the renderer cannot be reached or refuses (the queue retries), and
 * DispatchConfigError when this Worker lacks the settings to dispatch at all.
 */
export async function dispatchJob(env: Env, jobId: string): Promise<DispatchOutcome> {
  const stub = jobState(env, jobId);
  const state = await stub.get();
  if (!state) return { outcome: "skipped", reason: "no such job" };
  // Queues deliver at least once: only a pending job is started, so a redelivery never starts it twice.
  if (state.status !== "pending") return { outcome: "skipped", reason: `job is already ${state.status}` };

  const row = await findJobById(openDb(env.DB), jobId);
  if (!row) return { outcome: "skipped", reason: "no job row" };
  const settings = dispatchSettings(env);
  const job = await buildRenderJob(env, settings, row);
  const { accepted } = await startRender(env, job);

  const marked = await stub.markRunning();
  if (!marked.changed && marked.reason === "terminal") {
    // Cancelled (or failed) between the check above and now: the renderer must not keep working on it.
    await cancelRender(env, jobId);
    return { outcome: "stopped", reason: `job became ${marked.state?.status ?? "settled"} while starting` };
  }
  // invalid_transition: the renderer's own "started" callback got there first; that is fine.
  return { outcome: "started", accepted };
}
