import type { Env } from "../env";
import { containerEnv, RenderContainer } from "./render-container";

/**
 * A re-cut instance's environment: the renderer's (containerEnv), and RECUT_HEAR_IN_HALVES=1: on 4 vCPU a short
 * no earlier short heard is heard as two halves side by side (render-container/src/pipeline/reuse/hear-in-halves.ts).
 */
export function recutContainerEnv(env: Env): Record<string, string> {
  return { ...containerEnv(env), RECUT_HEAR_IN_HALVES: "1" };
}

/**
 * The same renderer image and the same task calls as RenderContainer, as a Container class of its own because
 * Cloudflare gives each class one instance type: this one is `standard-4` (4 vCPU, 12 GiB, 20 GB; wrangler.toml)
 * with a small `max_instances`, for the tasks of re-cuts (orchestration/recut-route.ts), where a client waits on
 * one short and the CPU it needs is what the wait is made of (docs/BENCHMARKS.md, "Re-cut benchmark").
 */
export class RecutContainer extends RenderContainer {
  constructor(ctx: DurableObjectState<{}>, env: Env) {
    super(ctx, env);
    this.envVars = recutContainerEnv(env);
  }
}
