import type { NormalizedJobRequest } from "../../../../common/contract/normalized-request";
import { JobError } from "../job-error";
import { buildRenderPlan, type RenderPlan } from "../render-plan";
import type { Chosen } from "./choose-moments";

/**
 * The first render plan from the chosen moments; a job with nothing to render fails here, before any download,
 * with `whyEmpty` when a later step (not the score threshold) took the moments away.
 */
export function planRendering(request: NormalizedJobRequest, chosen: Chosen, whyEmpty?: JobError): RenderPlan {
  const plan = buildRenderPlan(request, chosen.momentsByProfile, chosen.shorts);
  if (plan.reels.length === 0 && plan.shorts.length === 0) {
    if (whyEmpty) throw whyEmpty;
    throw new JobError(
      "no_highlights_found",
      "No moment of this VOD scored above highlight_min_score, so there was nothing to render. Lower highlight_min_score in run_overrides or add manual_highlights. Your credits were refunded.",
    );
  }
  return plan;
}
