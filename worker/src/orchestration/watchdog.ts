import type { JobError } from "../../../common/contract";
import { workerConfig, type ConfigInput } from "../config";

/** How long a running job (or task) may go without hearing from the renderer: WATCHDOG_SECONDS. */
export function watchdogMs(env: ConfigInput): number {
  return Math.round(workerConfig(env).watchdogSeconds * 1000);
}

/** The error of a job whose renderer went silent (crashed container, lost network, killed process). */
export function stalledError(seconds: number): JobError {
  return {
    code: "renderer_stalled",
    message: `The renderer stopped reporting progress for more than ${Math.round(seconds)} seconds, so the job was stopped. All credits were refunded; please submit it again.`,
  };
}
