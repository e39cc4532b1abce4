import { parseJsonBody } from "../lib/json-body";
import { Hono } from "hono";
import { ArtifactRef, RenderEvent } from "../../../common/contract";
import { artifactKey } from "../artifacts/links";
import { rendererAuth } from "../orchestration/renderer-auth";
import type { AppEnv } from "../hono-env";
import { limitBody } from "../middleware/body-limit";
import { ApiError, jobNotFound } from "../lib/api-error";

/**
 * Renderer -> Worker (common/contract/render.ts): progress callbacks. File uploads (upload mode "worker") are in
 * internal-artifacts.ts. Not part of the public API; every call carries the job's renderer token.
 */
export const internalRoutes = new Hono<AppEnv>();

/** A completed event lists every file with its manifest; a few hundred KiB at most. */
const MAX_EVENT_BYTES = 1024 * 1024;

const jobState = (env: AppEnv["Bindings"], jobId: string) => env.JOB_STATE.get(env.JOB_STATE.idFromName(jobId));

/** Files a completed event names but R2 does not hold (or holds with another size). */
async function missingArtifacts(bucket: R2Bucket, jobId: string, artifacts: ArtifactRef[]): Promise<string[]> {
  const heads = await Promise.all(artifacts.map((a) => bucket.head(artifactKey(jobId, a.name))));
  return artifacts.filter((a, i) => !heads[i] || heads[i]!.size !== a.size_bytes).map((a) => a.name);
}

internalRoutes.post(
  "/jobs/:id/events",
  rendererAuth,
  limitBody(MAX_EVENT_BYTES, () => {
    throw new ApiError(413, "payload_too_large", `A render event must be at most ${MAX_EVENT_BYTES} bytes.`);
  }),
  async (c) => {
    const jobId = c.req.param("id");
    let event = await parseJsonBody(c, RenderEvent, "render event");

    if (event.type === "completed") {
      // What the client downloads must be what was reported: a completion naming absent files is a failure.
      const missing = await missingArtifacts(c.env.ARTIFACTS, jobId, event.artifacts);
      if (missing.length > 0) {
        event = {
          type: "failed",
          seq: event.seq,
          error: {
            code: "artifacts_missing",
            message: `Rendering finished but ${missing.length} output file(s) were not stored (${missing.slice(0, 5).join(", ")}). All credits were refunded; please submit the job again.`,
          },
        };
      }
    }

    const outcome = await jobState(c.env, jobId).renderEvent(event);
    switch (outcome.outcome) {
      case "not_found":
        throw jobNotFound();
      case "terminal":
        // The renderer reads 409 as "the Worker already settled this job" and stops retrying.
        throw new ApiError(409, "job_settled", `The job is already ${outcome.state.status}; the event changes nothing.`, {
          status: outcome.state.status,
        });
      case "duplicate":
        return c.json({ accepted: false, reason: "duplicate", status: outcome.state.status, progress: outcome.state.progress }, 200);
      case "applied":
        if (event.type === "analysed" && outcome.state.status === "failed") {
          // The real length could not be paid for: the renderer must not render anything (it stops on 409).
          throw new ApiError(409, "job_settled", `The job failed: ${outcome.state.error?.message ?? "it cannot go on"}`, { status: outcome.state.status });
        }
        return c.json({ accepted: true, status: outcome.state.status, progress: outcome.state.progress }, 200);
    }
  },
);
