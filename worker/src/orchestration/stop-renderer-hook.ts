import type { TransitionHook } from "../durable/transition-hooks";
import { cancelRender } from "./renderer-client";

/**
 * A running job that ends in failure tells its renderer to stop: a cancel, the watchdog (a renderer that is
 * only slow would otherwise keep rendering a job nobody can download), or a failure the renderer reported (then
 * the call is a no-op). Best effort and not awaited: the state and the refund are already durable, the answer to
 * the client should not wait for the renderer, and a renderer that misses it only gets 409 for its later reports.
 * A job that fails while pending has no render yet; the dispatcher stops one that starts during a cancel.
 */
export const stopRendererOnFailure: TransitionHook = async (t, { env, ctx }) => {
  if (t.from !== "running" || t.to !== "failed") return;
  // Only a whole-job render (RENDER_MODE=job); a fanned-out job's tasks are stopped by JobState itself.
  if (((await ctx.storage.get<unknown[]>("tasks")) ?? []).length > 0) return;
  ctx.waitUntil(
    cancelRender(env, t.job_id).then((stopped) => {
      console.log(JSON.stringify({ level: "info", msg: "renderer stop", job_id: t.job_id, cause: t.cause, code: t.state.error?.code, stopped }));
    }),
  );
};
