import type { TransitionHook } from "../durable/transition-hooks";
import { cancelRender } from "./renderer-client";

/**
 * A cancelled job that was running tells the renderer to stop. Best effort and not awaited: the state and the
 * refund are already durable, the cancel answer should not wait for the renderer, and a renderer that misses
 * this only gets 409 for its later reports, which change nothing. A job cancelled while pending has no render
 * yet; the dispatcher stops one that starts during the cancel.
 */
export const stopRendererOnCancel: TransitionHook = (t, { env, ctx }) => {
  if (t.cause !== "cancelled" || t.from !== "running") return;
  ctx.waitUntil(
    cancelRender(env, t.job_id).then((stopped) => {
      console.log(JSON.stringify({ level: "info", msg: "renderer cancel", job_id: t.job_id, stopped }));
    }),
  );
};
