import type { JobError } from "../../../common/contract";

/** How long a running job may go without hearing from the renderer unless WATCHDOG_SECONDS says otherwise. */
export const DEFAULT_WATCHDOG_SECONDS = 600;

export function watchdogMs(env: { WATCHDOG_SECONDS?: string }): number {
  const n = Number(env.WATCHDOG_SECONDS);
  return Math.round((Number.isFinite(n) && n > 0 ? n : DEFAULT_WATCHDOG_SECONDS) * 1000);
}

/** The error of a job whose renderer went silent (crashed container, lost network, killed process). */
export function stalledError(seconds: number): JobError {
  return {
    code: "renderer_stalled",
    message: `The renderer stopped reporting progress for more than ${Math.round(seconds)} seconds, so the job was stopped. All credits were refunded; please submit it again.`,
  };
}
