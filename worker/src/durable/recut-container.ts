import type { Env } from "../env";
import { RenderContainer } from "./render-container";

/**
 * The same renderer image and the same task calls as RenderContainer, as a Container class of its own because
 * Cloudflare gives each class one instance type: this one is `standard-4` (4 vCPU, 12 GiB, 20 GB; wrangler.toml)
 * with a small `max_instances`, for the tasks of re-cuts (orchestration/recut-route.ts), where a client waits on
 * one short and the CPU it needs is what the wait is made of (docs/BENCHMARKS.md, "Re-cut benchmark").
 */
export class RecutContainer extends RenderContainer {
  constructor(ctx: DurableObjectState<{}>, env: Env) {
    super(ctx, env);
    // 4 vCPU: a short no earlier short heard is heard as two halves side by side (render-container/src/pipeline/reuse/hear-in-halves.ts).
    this.envVars = { ...this.envVars, RECUT_HEAR_IN_HALVES: "1" };
  }
}
